"""Scale-out on Redis: what lets N server processes behind a load balancer act as one server (asyncio).

Hand-written Python: the generator copies it as ``redis.py`` of the Python tree. The Python mirror of the
TypeScript runtime's ``runtime/redis``, with the same keys, channels and messages, so Python and TypeScript
processes given the same Redis and prefix share one fan-out and one task store:

- ``create_redis_fanout`` carries ``router.publish`` (list_changed, resources/updated) to every process (channel
  ``<prefix>publish``, messages ``{"origin", "method", "params"}``; a process drops its own): give it to
  ``create_router(fanout=...)``;
- ``create_redis_task_store`` keeps the Tasks extension's tasks in Redis (key ``<prefix>task:<id>``, the record
  as JSON, expiring as ``tasks.expires_at`` says; every change published on ``<prefix>task-changed:<id>``): any
  process creates, reads, updates (compare-and-set) and watches any task; a task outlives its process.

The official client, redis-py (``redis.asyncio``), is an optional dependency of the generated package
(``pip install redis``, the ``redis`` extra); only this module imports it, when a store or fan-out is made.
While Redis is unreachable every command fails at once (a command is sent again once, at once, only when its
pooled link turns out lost), a command unanswered after ``command_timeout_ms`` fails naming it, local delivery
of ``publish`` goes on, and the subscriptions reconnect by themselves with a capped backoff (and re-subscribe).
"""

from __future__ import annotations

import asyncio
import json
import socket
import sys
import time
import uuid
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Final, cast

from .tasks import TERMINAL_STATUSES, Change, Listener, TaskRecord, expires_at

DEFAULT_PREFIX: Final = "mcp:"
COMMAND_TIMEOUT_MS: Final = 2000
CONNECT_TIMEOUT_MS: Final = 5000
KEEP_ALIVE_MS: Final = 5000
PING_INTERVAL_MS: Final = 10_000
MAX_RECONNECT_DELAY_MS: Final = 1000
MAX_CONNECTIONS: Final = 10_000
"""The defaults of the options (TypeScript's REDIS_DEFAULTS; ``max_connections`` bounds the commands in flight
per client as ``maxQueuedCommands`` does there: one more fails at once)."""

OnRedisError = Callable[[BaseException], None]

# The scripts are TypeScript's (runtime/redis): the same keys, values and messages.

# Store the task unless its key exists; publish it on its channel. 1 stored, 0 exists.
_CREATE: Final = """if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
if ARGV[2] ~= '' then redis.call('SET', KEYS[1], ARGV[1], 'PXAT', ARGV[2]) else redis.call('SET', KEYS[1], ARGV[1]) end
redis.call('PUBLISH', ARGV[3], ARGV[1])
return 1"""

# Replace the task only if it is still what was read (compare and set); publish it. 1 replaced, 0 changed meanwhile.
_REPLACE: Final = """if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[3] ~= '' then redis.call('SET', KEYS[1], ARGV[2], 'PXAT', ARGV[3]) else redis.call('SET', KEYS[1], ARGV[2]) end
redis.call('PUBLISH', ARGV[4], ARGV[2])
return 1"""


def _log_redis_error(error: BaseException) -> None:
    sys.stderr.write(f"mcp redis: {error}\n")


def _json(value: object) -> str:
    """JSON as JavaScript's JSON.stringify writes it (compact, non-ASCII as is)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


class _Connection:
    """A redis-py client that fails a command at once while Redis is unreachable and after ``command_timeout_ms``
    when unanswered, probes an idle link (TCP keep-alive, a PING every ``ping_interval_ms``), and a subscriber
    over it that reconnects with a capped backoff and re-subscribes."""

    def __init__(
        self,
        *,
        url: str | None,
        on_error: OnRedisError,
        command_timeout_ms: int,
        connect_timeout_ms: int,
        keep_alive_ms: int,
        ping_interval_ms: int,
        max_reconnect_delay_ms: int,
        max_connections: int,
        on_message: Callable[[str, str], None],
    ) -> None:
        try:
            from redis.asyncio import Redis
            from redis.asyncio.retry import Retry
            from redis.backoff import NoBackoff
            from redis.exceptions import ConnectionError as LinkLost
        except ImportError as error:
            raise RuntimeError("the Redis fan-out and task store use redis-py, which is not installed: pip install redis") from error
        keep_alive: dict[int, int | bytes] = {}
        idle = max(1, keep_alive_ms // 1000)
        for name, value in (("TCP_KEEPIDLE", idle), ("TCP_KEEPINTVL", idle), ("TCP_KEEPCNT", 3)):
            if hasattr(socket, name):
                keep_alive[cast(int, getattr(socket, name))] = value
        self._timeout = command_timeout_ms / 1000
        self._on_error = on_error
        self._on_message = on_message
        self._max_delay = max_reconnect_delay_ms / 1000
        self.client = Redis.from_url(  # pyright: ignore[reportUnknownMemberType]
            url if url is not None else "redis://127.0.0.1:6379",
            decode_responses=True,
            socket_timeout=command_timeout_ms / 1000,
            socket_connect_timeout=connect_timeout_ms / 1000,
            socket_keepalive=True,
            socket_keepalive_options=keep_alive,
            health_check_interval=ping_interval_ms / 1000,
            # Once more at once on a lost link: a pooled connection Redis closed (a restart) fails its next command, which
            # TypeScript's single reconnecting link never meets. Refused again while Redis is down. Should the link be
            # lost after a first run applied, a create finds its own record (``create``), and a compare-and-set finds the
            # task changed, so ``update`` reads it and applies the change to it again: the tasks runtime's changes set
            # values (a status, requests merged, answers taken), so twice is as once; a PUBLISH may be delivered twice.
            retry=Retry(NoBackoff(), 1, supported_errors=(LinkLost,)),
            max_connections=max_connections,
        )
        self._pubsub: Any = self.client.pubsub()  # pyright: ignore[reportUnknownMemberType]
        self._wanted: set[str] = set()
        self._resubscribe = False
        self._pending: set[asyncio.Task[None]] = set()
        self._reader: asyncio.Task[None] | None = None

    async def command(self, *args: str | int) -> Any:
        """One command with the command timeout; a failure says which command and why (the client only sees -32603)."""
        try:
            sent = cast(Awaitable[Any], self.client.execute_command(*args))  # pyright: ignore[reportUnknownMemberType]
            return await asyncio.wait_for(sent, self._timeout)
        except TimeoutError as error:
            raise RuntimeError(f"Redis {args[0]} failed: no answer within {round(self._timeout * 1000)} ms (command_timeout_ms)") from error
        except Exception as error:  # noqa: BLE001 - named for the operator, with its cause
            raise RuntimeError(f"Redis {args[0]} failed: {error}") from error

    async def subscribe(self, channel: str) -> None:
        """Subscribe now (raising when Redis cannot be reached; the channel is subscribed again once it can)."""
        self._wanted.add(channel)
        try:
            await asyncio.wait_for(self._pubsub.subscribe(channel), self._timeout)
        except Exception:
            self._resubscribe = True
            raise
        finally:
            self._start()

    def subscribe_later(self, channel: str) -> None:
        """``subscribe`` from synchronous code: a failure is reported, the channel kept."""
        self._later(self.subscribe(channel))

    def unsubscribe_later(self, channel: str) -> None:
        self._wanted.discard(channel)
        self._later(asyncio.wait_for(self._pubsub.unsubscribe(channel), self._timeout))

    def _later(self, work: Any) -> None:
        async def run() -> None:
            try:
                await work
            except Exception as error:  # noqa: BLE001 - reported; the reader re-subscribes
                self._on_error(error)

        t = asyncio.ensure_future(run())
        self._pending.add(t)
        t.add_done_callback(self._pending.discard)

    def _start(self) -> None:
        if self._reader is None:
            self._reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        """Read the subscriptions' messages until closed; after a lost link, back off (50 ms doubling up to the cap)
        and re-subscribe every wanted channel."""
        delay = 0.05
        while True:
            try:
                if self._resubscribe and self._wanted:
                    self._resubscribe = False
                    await asyncio.wait_for(self._pubsub.subscribe(*sorted(self._wanted)), self._timeout)
                message = await self._pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                delay = 0.05
                if isinstance(message, dict) and cast(dict[str, Any], message).get("type") == "message":
                    m = cast(dict[str, Any], message)
                    channel, data = m.get("channel"), m.get("data")
                    if isinstance(channel, str) and isinstance(data, str):
                        self._on_message(channel, data)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # noqa: BLE001 - reported, then reconnected
                self._on_error(error)
                self._resubscribe = True
                await asyncio.sleep(delay)
                delay = min(delay * 2, self._max_delay)

    async def close(self) -> None:
        for t in [*self._pending, *([] if self._reader is None else [self._reader])]:
            t.cancel()
        await asyncio.gather(*self._pending, *([] if self._reader is None else [self._reader]), return_exceptions=True)
        for closing in (self._pubsub.aclose(), self.client.aclose()):  # pyright: ignore[reportUnknownMemberType]
            try:
                await closing
            except Exception:  # noqa: BLE001, S110 - closing what may be gone already
                pass


def _connection(options: Mapping[str, Any], on_message: Callable[[str, str], None]) -> _Connection:
    return _Connection(
        url=options.get("url"),
        on_error=options.get("on_error") or _log_redis_error,
        command_timeout_ms=options.get("command_timeout_ms", COMMAND_TIMEOUT_MS),
        connect_timeout_ms=options.get("connect_timeout_ms", CONNECT_TIMEOUT_MS),
        keep_alive_ms=options.get("keep_alive_ms", KEEP_ALIVE_MS),
        ping_interval_ms=options.get("ping_interval_ms", PING_INTERVAL_MS),
        max_reconnect_delay_ms=options.get("max_reconnect_delay_ms", MAX_RECONNECT_DELAY_MS),
        max_connections=options.get("max_connections", MAX_CONNECTIONS),
        on_message=on_message,
    )


Receive = Callable[[str, Mapping[str, Any] | None], None]


class RedisFanout:
    """A fan-out over Redis pub/sub (a router ``Fanout``): one channel per prefix; a process drops its own messages."""

    def __init__(self, options: Mapping[str, Any]) -> None:
        self.channel = f"{options.get('prefix', DEFAULT_PREFIX)}publish"
        self.origin = str(uuid.uuid4())
        self._receivers: list[Receive] = []
        self._redis = _connection(options, self._message)

    def _message(self, _channel: str, text: str) -> None:
        try:
            message = json.loads(text)
        except ValueError:
            return
        if not isinstance(message, dict):
            return
        m = cast(dict[str, Any], message)
        method, params = m.get("method"), m.get("params")
        if m.get("origin") == self.origin or not isinstance(method, str):
            return
        taken = cast(dict[str, Any], params) if isinstance(params, dict) else None
        for receive in list(self._receivers):
            try:
                receive(method, taken)
            except Exception:  # noqa: BLE001, S112 - a receiver's failure is its own
                continue

    async def publish(self, method: str, params: Mapping[str, Any] | None) -> None:
        message: dict[str, Any] = {"origin": self.origin, "method": method}
        if params is not None:
            message["params"] = dict(params)
        await self._redis.command("PUBLISH", self.channel, _json(message))

    def subscribe(self, receive: Receive) -> Callable[[], None]:
        self._receivers.append(receive)

        def stop() -> None:
            if receive in self._receivers:
                self._receivers.remove(receive)

        return stop

    async def close(self) -> None:
        self._receivers.clear()
        await self._redis.close()


async def create_redis_fanout(
    *,
    url: str | None = None,
    prefix: str = DEFAULT_PREFIX,
    on_error: OnRedisError | None = None,
    command_timeout_ms: int = COMMAND_TIMEOUT_MS,
    connect_timeout_ms: int = CONNECT_TIMEOUT_MS,
    keep_alive_ms: int = KEEP_ALIVE_MS,
    ping_interval_ms: int = PING_INTERVAL_MS,
    max_reconnect_delay_ms: int = MAX_RECONNECT_DELAY_MS,
    max_connections: int = MAX_CONNECTIONS,
) -> RedisFanout:
    """A fan-out for ``create_router(fanout=...)``: ``router.publish`` on any process sharing ``url`` and ``prefix``
    reaches the listen streams and legacy sessions of every one. Subscribed when it returns (raises when Redis
    cannot be reached). ``url`` (default ``redis://127.0.0.1:6379``), ``prefix`` (default ``"mcp:"``: processes with
    different prefixes share a Redis without meeting), ``on_error`` (connection problems; default one line on
    stderr) and the bounds of the TypeScript options (``command_timeout_ms`` 2,000, ``connect_timeout_ms`` 5,000,
    ``keep_alive_ms`` 5,000, ``ping_interval_ms`` 10,000, ``max_reconnect_delay_ms`` 1,000, ``max_connections``
    10,000)."""
    options = dict(locals())
    fanout = RedisFanout(options)
    try:
        await fanout._redis.subscribe(fanout.channel)  # pyright: ignore[reportPrivateUsage]
    except BaseException:
        await fanout.close()
        raise
    return fanout


def _read(text: object) -> TaskRecord | None:
    if not isinstance(text, str):
        return None
    value = json.loads(text)
    return cast(TaskRecord, value) if isinstance(value, dict) else None


def _expiry(task: Mapping[str, Any]) -> str:
    """When the task expires (ms since the epoch, ``tasks.expires_at``), or "" when it does not."""
    at = expires_at(task)
    return str(int(at)) if at != float("inf") else ""


class RedisTaskStore:
    """A ``TaskStore`` in Redis, shared by every process (Python or TypeScript) given the same ``url`` and ``prefix``."""

    def __init__(self, options: Mapping[str, Any]) -> None:
        self._prefix = str(options.get("prefix", DEFAULT_PREFIX))
        self._watchers: dict[str, list[Listener]] = {}
        self._redis = _connection(options, self._message)

    def _key(self, task_id: str) -> str:
        return f"{self._prefix}task:{task_id}"

    def _channel(self, task_id: str) -> str:
        return f"{self._prefix}task-changed:{task_id}"

    def _message(self, channel: str, text: str) -> None:
        task_id = channel[len(self._channel("")) :]
        try:
            task = _read(text)
        except ValueError:
            return
        if task is None:
            return
        for listener in list(self._watchers.get(task_id, [])):
            try:
                listener(task)
            except Exception:  # noqa: BLE001, S112 - a listener's failure is its own
                continue

    async def create(self, task: TaskRecord) -> None:
        text = _json(task)
        at = _expiry(task)
        if at != "" and int(at) <= time.time() * 1000:
            return  # expired already: nothing to keep
        task_id = str(task["taskId"])
        stored = await self._redis.command("EVAL", _CREATE, 1, self._key(task_id), text, at, self._channel(task_id))
        # A command sent again after a lost link may find what its first run stored (a random id's record, byte for byte).
        if stored != 1 and await self._redis.command("GET", self._key(task_id)) != text:
            raise ValueError(f"task {task_id} exists")

    async def get(self, task_id: str) -> TaskRecord | None:
        return _read(await self._redis.command("GET", self._key(task_id)))

    async def get_many(self, task_ids: Sequence[str]) -> list[TaskRecord | None]:
        """Several tasks in one round trip (one MGET), in the order of ``task_ids``."""
        if not task_ids:
            return []
        texts = cast(list[object], await self._redis.command("MGET", *(self._key(i) for i in task_ids)))
        return [_read(t) for t in texts]

    async def update(self, task_id: str, change: Change) -> TaskRecord | None:
        while True:
            before = await self._redis.command("GET", self._key(task_id))
            current = _read(before)
            if current is None:
                return None
            if current.get("status") in TERMINAL_STATUSES:
                return current
            changed = change(current)
            if changed is None:
                return current
            text = _json({**changed, "taskId": task_id})
            replaced = await self._redis.command("EVAL", _REPLACE, 1, self._key(task_id), before, text, _expiry(changed), self._channel(task_id))
            if replaced == 1:
                return _read(text)

    def watch(self, task_id: str, listener: Listener) -> Callable[[], None]:
        listeners = self._watchers.get(task_id)
        if listeners is None:
            listeners = self._watchers[task_id] = []
            self._redis.subscribe_later(self._channel(task_id))
        listeners.append(listener)

        def stop() -> None:
            current = self._watchers.get(task_id)
            if current is None or listener not in current:
                return
            current.remove(listener)
            if not current:
                del self._watchers[task_id]
                self._redis.unsubscribe_later(self._channel(task_id))

        return stop

    async def close(self) -> None:
        self._watchers.clear()
        await self._redis.close()


async def create_redis_task_store(
    *,
    url: str | None = None,
    prefix: str = DEFAULT_PREFIX,
    on_error: OnRedisError | None = None,
    command_timeout_ms: int = COMMAND_TIMEOUT_MS,
    connect_timeout_ms: int = CONNECT_TIMEOUT_MS,
    keep_alive_ms: int = KEEP_ALIVE_MS,
    ping_interval_ms: int = PING_INTERVAL_MS,
    max_reconnect_delay_ms: int = MAX_RECONNECT_DELAY_MS,
    max_connections: int = MAX_CONNECTIONS,
) -> RedisTaskStore:
    """A ``TaskStore`` for ``tasks_extension(store=...)`` in Redis: any process sharing ``url`` and ``prefix`` creates,
    reads, updates (atomically, compare-and-set) and watches any task; expiry follows ``ttlMs`` (the in-memory
    store's rule, ``tasks.expires_at``); ``get_many`` is one MGET. Connected when it returns (a PING; raises when
    Redis cannot be reached). Options as ``create_redis_fanout``'s."""
    options = dict(locals())
    store = RedisTaskStore(options)
    try:
        await store._redis.command("PING")  # pyright: ignore[reportPrivateUsage]
    except BaseException:
        await store.close()
        raise
    return store


__all__ = [
    "COMMAND_TIMEOUT_MS",
    "CONNECT_TIMEOUT_MS",
    "DEFAULT_PREFIX",
    "KEEP_ALIVE_MS",
    "MAX_CONNECTIONS",
    "MAX_RECONNECT_DELAY_MS",
    "PING_INTERVAL_MS",
    "RedisFanout",
    "RedisTaskStore",
    "create_redis_fanout",
    "create_redis_task_store",
]
