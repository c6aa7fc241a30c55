"""Driver for redis.test.ts: the TaskStore contract of ``redis.create_redis_task_store`` on a real Redis. stdin:
``{"url", "prefix", "now"}`` (``now``: an ISO date-time the test chose, the tasks' createdAt). Two stores on the
same Redis and prefix (as two processes); what they do is printed as JSON, with what Redis holds read by a plain
redis-py client (the key's PEXPIRETIME, EXISTS), for the test to compare with values it computes itself.
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any, cast

from redis.asyncio import Redis

from mcp_codegen.redis import create_redis_task_store


def record(task_id: str, created: str, ttl: int | None, status: str = "working", **more: Any) -> dict[str, Any]:
    return {"taskId": task_id, "status": status, "createdAt": created, "lastUpdatedAt": created, "ttlMs": ttl, **more}


async def main() -> None:
    given = json.loads(sys.stdin.read())
    url, prefix, now = given["url"], given["prefix"], given["now"]
    raw = Redis.from_url(url, decode_responses=True)  # pyright: ignore[reportUnknownMemberType]
    one = await create_redis_task_store(url=url, prefix=prefix)
    two = await create_redis_task_store(url=url, prefix=prefix)
    out: dict[str, Any] = {}

    async def expiry(task_id: str) -> int:
        return cast(int, await raw.execute_command("PEXPIRETIME", f"{prefix}task:{task_id}"))  # pyright: ignore[reportUnknownMemberType]

    await one.create(record("a", now, 60_000))
    await one.create(record("b", now, None))
    await one.create(record("c", now, 0))
    await one.create(record("old", "2000-01-01T00:00:00.000Z", 1000))
    out["expiry"] = {i: await expiry(i) for i in ("a", "b", "c", "old")}
    out["stored"] = json.loads(cast(str, await raw.get(f"{prefix}task:a")))
    out["old"] = {"get": await two.get("old"), "exists": await raw.exists(f"{prefix}task:old")}
    try:
        await two.create(record("a", now, 5))
        out["duplicate"] = None
    except Exception as error:  # noqa: BLE001 - what it says is the observation
        out["duplicate"] = str(error)
    out["many"] = [None if t is None else t["taskId"] for t in await two.get_many(["b", "missing", "a"])]

    # Every change, by either store, seen by a watcher on the other, in order; none after it stops.
    seen: list[str] = []
    stop = two.watch("a", lambda t: seen.append(f"{t['status']} {t.get('n', 0)}"))
    await asyncio.sleep(0.3)  # the watch's subscription is made in the background

    # Concurrent compare-and-set updates from both stores: none lost.
    def increment(t: dict[str, Any]) -> dict[str, Any]:
        return {**t, "n": cast(int, t.get("n", 0)) + 1}

    await asyncio.gather(*(s.update("a", increment) for _ in range(10) for s in (one, two)))
    out["counted"] = cast(dict[str, Any], await one.get("a"))["n"]
    out["unchanged"] = await two.update("a", lambda t: None) == await one.get("a")
    out["settled"] = await one.update("a", lambda t: {**t, "status": "completed", "result": {"content": []}})
    out["terminal"] = await two.update("a", lambda t: {**t, "status": "working"})
    out["unknown"] = await two.update("missing", lambda t: {**t, "status": "cancelled"})
    await asyncio.sleep(0.3)
    stop()
    out["seen"] = seen

    # A watch that stops hears nothing after.
    heard: list[str] = []
    stop = one.watch("b", lambda t: heard.append(str(t.get("statusMessage"))))
    await asyncio.sleep(0.3)
    await two.update("b", lambda t: {**t, "statusMessage": "first"})
    await asyncio.sleep(0.3)
    stop()
    await asyncio.sleep(0.3)
    await two.update("b", lambda t: {**t, "statusMessage": "second"})
    await asyncio.sleep(0.3)
    out["heard"] = heard
    await one.close()
    await two.close()
    await raw.aclose()
    print(json.dumps(out))


asyncio.run(main())
