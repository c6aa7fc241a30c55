"""Driver for tasks.test.ts: one script of steps on stdin, run against the Python router serving the Tasks
extension (mcp_codegen.tasks) at ``version``; the transcript on stdout, which tasks.test.ts asserts. The tools:

- ``slow``: a task waiting for the ``release`` step, then ``{"content": [text "done"]}``;
- ``status``: as ``slow``, its status message set to "halfway" first;
- ``ask``: a task asking ``{"q": elicitation}`` (``arguments.keys`` names other keys), answering with the
  responses; ``arguments.again``: asks for the same key a second time;
- ``broken`` / ``protocol``: a task raising a plain error / a JSON-RPC error (-32042 "Not allowed", data);
- ``optional``: a task of ``support="optional"`` answering "ran" (``optional_ask``: asking for input); ``big``: a result of ``arguments.size`` characters;
- ``ttl``: a task whose own ``ttlMs`` is ``arguments.ttlMs`` (null: unlimited);
- ``plain``: a plain result, no task.

``routers``: how many routers serve, each with its own tasks_extension over the one store (as processes sharing
a store would); a step's ``router`` picks one (default the first). ``guard``: author handlers of ``tasks/get``
(recorded) and ``tasks/cancel`` (recorded; refusing task-1 with -32050). A ``slow`` task's work records its
cancellation in ``aborted``.

Steps: ``call`` (method, params, principal, tasks: whether ``_meta`` negotiates the extension), ``listen``
(a subscriptions/listen held open, its messages recorded), ``release``, ``idle``, ``settle`` (let queued
notifications go out), ``clock`` (the store's clock set to a task's createdAt plus ``plus`` ms), ``store``
(the store's record of a task, runtime members and all), ``close`` (the router closed, the listens' answers
and messages recorded). Task ids are ``task-1``, ``task-2`` … in creation order.
"""

from __future__ import annotations

import asyncio
import json
import sys
from datetime import datetime
from typing import Any, cast

from mcp_codegen import dispatcher, router, tasks

ELICIT: dict[str, Any] = {"method": "elicitation/create", "params": {"mode": "form", "message": "?", "requestedSchema": {"type": "object", "properties": {}}}}


def text(t: str) -> dict[str, Any]:
    return {"type": "text", "text": t}


async def store_contract() -> dict[str, Any]:
    """The in-memory store's contract, as TypeScript's createMemoryTaskStore is held to it, and the module's defaults."""
    out: dict[str, Any] = {}

    def base(task_id: str, ttl: int | None) -> dict[str, Any]:
        created = "1970-01-01T00:00:01.000Z"
        return {"taskId": task_id, "status": "working", "createdAt": created, "lastUpdatedAt": created, "ttlMs": ttl}

    store = tasks.create_memory_task_store()
    await store.create(base("a", None))
    try:
        await store.create(base("a", None))
        out["duplicate"] = "accepted"
    except ValueError as e:
        out["duplicate"] = str(e)
    await store.close()

    now = [1000.0]
    store = tasks.create_memory_task_store(now=lambda: now[0])
    for task_id, ttl in (("a", 500), ("b", None), ("c", 5000)):
        await store.create(base(task_id, ttl))
    seen: list[object] = []
    for at, task_id in ((1999, "a"), (2000, "a"), (5999, "c"), (6000, "c")):
        now[0] = at
        record = await store.get(task_id)
        seen.append(None if record is None else record["taskId"])
    seen.append(await store.update("a", lambda t: {**t, "status": "completed"}))
    now[0] = 10.0**12
    seen.append(cast(dict[str, Any], await store.get("b"))["taskId"])
    out["expiry"] = seen
    await store.close()

    store = tasks.create_memory_task_store()
    await store.create(base("a", None))
    statuses: list[str] = []
    stop = store.watch("a", lambda t: statuses.append(t["status"]))
    updated: list[object] = []
    updated.append(cast(dict[str, Any], await store.update("a", lambda t: {**t, "status": "input_required"}))["status"])
    updated.append(cast(dict[str, Any], await store.update("a", lambda t: None))["status"])
    updated.append(cast(dict[str, Any], await store.update("a", lambda t: {**t, "status": "cancelled"}))["status"])
    called: list[bool] = []

    def change(t: dict[str, Any]) -> dict[str, Any]:
        called.append(True)
        return {**t, "status": "completed"}

    updated.append(cast(dict[str, Any], await store.update("a", change))["status"])
    stop()
    updated.append(await store.update("b", lambda t: t))
    out["update"] = {"results": updated, "called": called, "watched": statuses}
    await store.close()

    # The sweep timer forgets expired tasks nobody reads; a full store sweeps before it refuses.
    now[0] = 1000.0
    store = tasks.create_memory_task_store(now=lambda: now[0], sweep_interval_ms=10, max_tasks=2)
    await store.create(base("a", 0))
    await store.create(base("b", None))
    try:
        await store.create(base("c", None))
        refused: object = None
    except dispatcher.JsonRpcError as e:
        refused = {"code": e.code, "message": e.message}
    held = store.size
    now[0] = 10_000.0
    await asyncio.sleep(0.05)
    out["sweep"] = {"refused": refused, "held": held, "after": store.size}
    await store.close()

    out["defaults"] = {
        "maxTasksPerPrincipal": tasks.MAX_TASKS_PER_PRINCIPAL,
        "maxRunningTasks": tasks.MAX_RUNNING_TASKS,
        "maxResultBytes": tasks.MAX_RESULT_BYTES,
        "maxTtlMs": tasks.MAX_TTL_MS,
        "maxListenTaskIds": tasks.MAX_LISTEN_TASK_IDS,
        "maxTasks": tasks.DEFAULT_MAX_STORED_TASKS,
        "sweepIntervalMs": tasks.DEFAULT_SWEEP_INTERVAL_MS,
        "minRetentionMs": tasks.MIN_RETENTION_MS,
        "limitReached": tasks.LIMIT_REACHED,
    }
    return out


async def main() -> None:
    script = cast(dict[str, Any], json.loads(sys.stdin.read()))
    if script.get("store"):
        sys.stdout.write(json.dumps(await store_contract()))
        return
    version = cast(str, script["version"])
    options = cast(dict[str, Any], script.get("options", {}))
    released = asyncio.Event()
    clock: list[float | None] = [None]
    store = tasks.create_memory_task_store(
        now=lambda: clock[0] if clock[0] is not None else datetime.now().timestamp() * 1000,
        **({"max_tasks": options["maxTasks"]} if "maxTasks" in options else {}),
    )
    counter = [0]

    def new_task_id() -> str:
        counter[0] += 1
        return f"task-{counter[0]}"

    errors: list[str] = []
    failures: list[str] = []
    aborted: list[str] = []
    author: list[str] = []

    def tools_call(params: Any, context: object) -> object:
        name = cast(str, params.name if not isinstance(params, dict) else cast(dict[str, Any], params)["name"])
        raw = params.arguments if not isinstance(params, dict) else cast(dict[str, Any], params).get("arguments")
        args = cast(dict[str, Any], raw or {})
        if name == "plain":
            return {"content": [text("plain")]}
        if name == "optional":
            return tasks.task(lambda control: {"content": [text("ran")]}, support="optional")
        if name == "optional_ask":

            async def ask_inline(control: tasks.TaskControl) -> object:
                return await control.input({"q": ELICIT})

            return tasks.task(ask_inline, support="optional")
        if name == "broken":

            def broken(control: tasks.TaskControl) -> object:
                raise RuntimeError("secret detail")

            return tasks.task(broken)
        if name == "protocol":

            def refused(control: tasks.TaskControl) -> object:
                raise dispatcher.JsonRpcError(-32042, "Not allowed", {"why": "x"})

            return tasks.task(refused)
        if name == "big":
            return tasks.task(lambda control: {"content": [text("x" * int(args["size"]))]})
        if name == "ttl":
            return tasks.task(lambda control: {"content": [text("ttl")]}, ttl_ms=args["ttlMs"])
        if name == "ask":

            async def ask(control: tasks.TaskControl) -> object:
                keys = cast(list[str], args.get("keys", ["q"]))
                answers = await control.input({k: ELICIT for k in keys})
                if args.get("again"):
                    await control.input({keys[0]: ELICIT})
                return {"content": [text(json.dumps(answers, separators=(",", ":"), sort_keys=True))]}

            return tasks.task(ask)

        async def slow(control: tasks.TaskControl) -> object:
            if name == "status":
                await control.set_status_message("halfway")
            try:
                await released.wait()
            except asyncio.CancelledError:
                # tasks/cancel, from this router or another sharing the store: the work is cancelled.
                aborted.append(f"{control.task_id} {str(control.cancelled.is_set()).lower()}")
                raise
            return {"content": [text("done")]}

        return tasks.task(slow)

    def get_seen(params: Any, context: object) -> object:
        author.append(f"tasks/get {cast(dict[str, Any], params)['taskId']}")
        return None

    def cancel_guard(params: Any, context: object) -> object:
        author.append(f"tasks/cancel {cast(dict[str, Any], params)['taskId']}")
        if cast(dict[str, Any], params)["taskId"] == "task-1":
            raise dispatcher.JsonRpcError(-32050, "Not cancellable")
        return None

    guards: dict[str, dispatcher.Handler] = {"tasks/get": get_seen, "tasks/cancel": cancel_guard} if script.get("guard") else {}
    extensions: list[tasks.TasksExtension] = []
    routers: list[router.Router] = []
    # Several routers (as processes would) may share the one store.
    for _ in range(cast(int, script.get("routers", 1))):
        extension = tasks.tasks_extension(
            store=store,
            new_task_id=new_task_id,
            handlers={"tools/call": tools_call, **guards},
            on_error=lambda error, task_id: errors.append(f"{task_id}: {error}"),
            **{python: options[ts] for ts, python in OPTION_NAMES.items() if ts in options},
        )
        served = router.Served(
            handlers={"tools/list": lambda params, context: {"tools": []}},
            capabilities={"tools": {}},
            extensions={tasks.TASKS_EXTENSION: extension},
        )
        extensions.append(extension)
        routers.append(router.create_router(server_info={"name": "t", "version": "1"}, versions={version: served}, on_error=lambda failure: failures.append(f"{failure['kind']} {failure['method']}")))
    transcript: list[object] = []
    listens: list[tuple[asyncio.Task[dict[str, Any] | None], list[object]]] = []
    ids = [0]
    created: dict[str, float] = {}

    def message(step: dict[str, Any]) -> dict[str, Any]:
        ids[0] += 1
        negotiated = step.get("tasks", True)
        capabilities: dict[str, Any] = {"extensions": {tasks.TASKS_EXTENSION: {}}} if negotiated else {}
        meta: dict[str, Any] = {router.META_PROTOCOL_VERSION: version, router.META_CLIENT_CAPABILITIES: capabilities}
        return {"jsonrpc": "2.0", "id": ids[0], "method": step["method"], "params": {**step.get("params", {}), "_meta": meta}}

    for step in cast(list[dict[str, Any]], script["steps"]):
        op = step["op"]
        principal = cast(str | None, step.get("principal"))
        r = routers[cast(int, step.get("router", 0))]
        if op == "call":
            transcript.append(await r.handle(message(step), router.Exchange(principal=principal)))
        elif op == "listen":
            sent: list[object] = []

            async def send(m: dict[str, Any], sent: list[object] = sent) -> None:
                sent.append(m)

            listen = asyncio.ensure_future(r.handle(message({**step, "method": "subscriptions/listen"}), router.Exchange(send=send, principal=principal)))
            listens.append((listen, sent))
            await asyncio.sleep(0.02)
            # A refused listen is answered at once.
            transcript.append(listen.result() if listen.done() else "listening")
        elif op == "release":
            released.set()
        elif op == "idle":
            for extension in extensions:
                await extension.idle()
        elif op == "settle":
            await asyncio.sleep(0.02)
        elif op == "clock":
            if step["taskId"] not in created:
                record = cast(dict[str, Any], await store.get(step["taskId"]))
                created[step["taskId"]] = datetime.fromisoformat(record["createdAt"]).timestamp() * 1000
            clock[0] = created[step["taskId"]] + step["plus"]
        elif op == "store":
            transcript.append(await store.get(step["taskId"]))
        elif op == "close":
            for each in routers:
                each.close()
            for listen, sent in listens:
                transcript.append({"answer": await listen, "sent": sent})
        else:
            raise ValueError(f"unknown step {op}")
    for extension in extensions:
        await extension.idle()
    await store.close()
    sys.stdout.write(json.dumps({"transcript": transcript, "errors": errors, "failures": failures, "aborted": aborted, "author": author}, ensure_ascii=False))


OPTION_NAMES = {
    "ttlMs": "ttl_ms",
    "pollIntervalMs": "poll_interval_ms",
    "maxTasksPerPrincipal": "max_tasks_per_principal",
    "maxRunningTasks": "max_running_tasks",
    "maxResultBytes": "max_result_bytes",
    "maxTtlMs": "max_ttl_ms",
    "maxListenTaskIds": "max_listen_task_ids",
}
"""tasksExtension's option names (the script's) → tasks_extension's."""


if __name__ == "__main__":
    asyncio.run(main())
