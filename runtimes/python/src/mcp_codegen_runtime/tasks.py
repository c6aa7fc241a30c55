"""The Tasks extension (io.modelcontextprotocol/tasks, SEP-2663) as a served extension of the router (asyncio).

Hand-written Python: the generator copies it as ``tasks.py`` of the Python tree. The Python mirror of the
TypeScript runtime's ``tasks.ts`` and ``task-store.ts``, with the same codes, messages and bounds. A handler of
a task-augmentable request (``tools/call``) returns ``task(work)`` or a plain result; the rest is this
module's, through a ``TaskStore`` only:

- a task handle on a request that negotiates the extension becomes a task: stored (status ``working``)
  before its CreateTaskResult (``resultType: "task"``) is sent, then ``work`` runs;
- on a request that does not: -32021 with ``requiredCapabilities.extensions`` (the server cannot serve it
  without a task, as the extension's specification says), or, for ``support="optional"``, the work's
  result, answered synchronously;
- ``work(control)`` returning a result settles the task ``completed`` with it; raising an error with an
  integer ``code`` (``JsonRpcError``) settles it ``failed`` with that JSON-RPC error, anything else
  ``failed`` with -32603;
- ``await control.input(requests)`` sets ``input_required`` with those ``inputRequests`` and returns the
  client's ``inputResponses`` once ``tasks/update`` has answered every key (a partial answer leaves the rest
  pending); the task is ``working`` again. A key is never issued twice in a task's life;
- ``tasks/cancel`` settles it ``cancelled``, sets ``control.cancelled`` and cancels the work's asyncio task
  in the process running it (observed through the store's ``watch``, so a shared store carries it across
  processes); the work's outcome is then dropped (a terminal task never changes);
- a task expires ``ttlMs`` after its creation (the store forgets it): ``tasks/get`` is then -32602;
- ``tasks/update`` ignores responses to keys that are not outstanding (and so does not validate them);
- ``tasks/get`` sends the task's DetailedTask (only the members of its status); ``notifications/tasks``
  carries the same to ``subscriptions/listen`` streams that asked for its ``taskIds``;
- a task is bound to the principal that created it: to any other, it is exactly an unknown task.
"""

from __future__ import annotations

import asyncio
import json
import math
import time
import uuid
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final, Literal, Protocol, cast

from pydantic import BaseModel

from .dispatcher import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    Handler,
    JsonRpcError,
    PeerError,
    RequestContext,
    call_handler,
)
from .protocol import EXTENSION_TASKS, SERVER_ERROR
from .router import Deliver, ListenPart, missing_extension

TASKS_EXTENSION: Final = EXTENSION_TASKS
"""The extension's identifier."""

LIMIT_REACHED: Final = SERVER_ERROR
"""The code of a request refused because a bound of the server is reached (JSON-RPC's implementation-defined server error)."""

MAX_TASKS_PER_PRINCIPAL: Final = 100
MAX_RUNNING_TASKS: Final = 1000
MAX_RESULT_BYTES: Final = 1024 * 1024
MAX_TTL_MS: Final = 60 * 60 * 1000
MAX_LISTEN_TASK_IDS: Final = 1000
DEFAULT_TTL_MS: Final = 300_000
DEFAULT_POLL_INTERVAL_MS: Final = 1000
"""The defaults of ``tasks_extension``'s bounds and of a task's times (TypeScript's TASK_LIMITS and tasksExtension's)."""

TERMINAL_STATUSES: Final = frozenset({"completed", "failed", "cancelled"})
"""The statuses after which a task never changes again."""

MIN_RETENTION_MS: Final = 1000
"""The least time a task is kept after its last change (see ``expires_at``)."""
DEFAULT_MAX_STORED_TASKS: Final = 10_000
DEFAULT_SWEEP_INTERVAL_MS: Final = 60_000

TASK_OWNER: Final = f"{EXTENSION_TASKS}#owner"
"""The principal that created the task (a runtime member, never sent): only it can read, update, cancel or watch the task."""
_ANSWERS: Final = f"{EXTENSION_TASKS}#answers"
"""Responses the client gave that the running work has not taken yet (a runtime member of the record, never sent)."""

TaskRecord = dict[str, Any]
"""A task as stored: its DetailedTask members (taskId, status, createdAt, lastUpdatedAt, ttlMs, and the status's
members) and the runtime's own (TASK_OWNER, answers not yet taken), which are never sent."""

Change = Callable[[TaskRecord], TaskRecord | None]
Listener = Callable[[TaskRecord], None]


class TaskStore(Protocol):
    """Where tasks live. The runtime keeps no task state of its own, so processes sharing a store (Redis, a
    database) serve each other's tasks: a cancellation made by one is observed by the process running the task
    through ``watch``. A store may also have ``get_many(task_ids)`` (one round trip for several tasks)."""

    async def create(self, task: TaskRecord) -> None:
        """Store a new task, expiring as ``expires_at`` says; raise when the taskId exists."""
        ...

    async def get(self, task_id: str) -> TaskRecord | None:
        """The task, or None when unknown or expired."""
        ...

    async def update(self, task_id: str, change: Change) -> TaskRecord | None:
        """Replace the task by ``change(current)``, atomically, unless it is unknown, expired or terminal: the task
        as stored afterwards, or None when unknown or expired. ``change`` returning None leaves it unchanged."""
        ...

    def watch(self, task_id: str, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` with the task after every stored change of ``task_id`` (by any process sharing the
        store) until the returned function is called."""
        ...

    async def close(self) -> None:
        """Release what the store holds (its timer, its connections)."""
        ...


def _parse_ms(text: object) -> float:
    """Milliseconds since the epoch of an ISO 8601 date-time, else NaN."""
    if not isinstance(text, str):
        return math.nan
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        return math.nan
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return parsed.timestamp() * 1000


def expires_at(task: Mapping[str, Any]) -> float:
    """When a task may be discarded (ms since the epoch), the same rule in every store: ``ttlMs`` after its
    creation, but never within two poll intervals (at least 1 s) of its last change, so a client polling as
    told sees every change, the last one included. Infinity for ``ttlMs`` None or a createdAt that is not a date.
    """
    ttl = task.get("ttlMs")
    if isinstance(ttl, bool) or not isinstance(ttl, int | float):
        return math.inf
    created = _parse_ms(task.get("createdAt"))
    if math.isnan(created):
        return math.inf
    updated = _parse_ms(task.get("lastUpdatedAt"))
    poll = task.get("pollIntervalMs")
    poll_ms = float(poll) if isinstance(poll, int | float) and not isinstance(poll, bool) and poll > 0 else 0.0
    floor = (created if math.isnan(updated) else updated) + max(MIN_RETENTION_MS, 2 * poll_ms)
    return max(created + max(0.0, float(ttl)), floor)


def _now_ms() -> float:
    return time.time() * 1000


@dataclass
class _Stored:
    task: TaskRecord
    expires: float


class MemoryTaskStore:
    """The in-memory TaskStore: one process, at most ``max_tasks`` tasks, each kept until it expires (checked when
    read, swept on a timer and when the store is full, so expired tasks do not accumulate). Listeners are called
    synchronously after each stored change; one that raises does not stop the others."""

    def __init__(
        self,
        *,
        now: Callable[[], float] | None = None,
        max_tasks: int = DEFAULT_MAX_STORED_TASKS,
        sweep_interval_ms: float = DEFAULT_SWEEP_INTERVAL_MS,
    ) -> None:
        self._now = now if now is not None else _now_ms
        self._max_tasks = max_tasks
        self._sweep_interval = sweep_interval_ms / 1000
        self._tasks: dict[str, _Stored] = {}
        self._listeners: dict[str, list[Listener]] = {}
        self._timer: asyncio.TimerHandle | None = None
        self._closed = False
        self._arm()

    def _arm(self) -> None:
        """Start the sweep timer once an event loop runs (a store may be made before one does)."""
        if self._timer is not None or self._closed:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._timer = loop.call_later(self._sweep_interval, self._tick)

    def _tick(self) -> None:
        self._timer = None
        self.sweep()
        self._arm()

    @property
    def size(self) -> int:
        """How many tasks the store holds (expired ones not swept yet included)."""
        return len(self._tasks)

    def sweep(self) -> None:
        """Forget every expired task."""
        t = self._now()
        for task_id in [i for i, entry in self._tasks.items() if entry.expires <= t]:
            del self._tasks[task_id]

    def _live(self, task_id: str) -> _Stored | None:
        entry = self._tasks.get(task_id)
        if entry is None:
            return None
        if entry.expires <= self._now():
            del self._tasks[task_id]
            return None
        return entry

    def _notify(self, task: TaskRecord) -> None:
        for listener in list(self._listeners.get(task["taskId"], ())):
            try:
                listener(task)
            except Exception:  # noqa: BLE001, S110 - a listener's failure is its own
                pass

    async def create(self, task: TaskRecord) -> None:
        self._arm()
        task_id = cast(str, task["taskId"])
        if self._live(task_id) is not None:
            raise ValueError(f"task {task_id} exists")
        if len(self._tasks) >= self._max_tasks:
            self.sweep()
        if len(self._tasks) >= self._max_tasks:
            raise JsonRpcError(LIMIT_REACHED, f"Too many tasks: the store holds {self._max_tasks} (maxTasks)")
        self._tasks[task_id] = _Stored(task, expires_at(task))
        self._notify(task)

    async def get(self, task_id: str) -> TaskRecord | None:
        entry = self._live(task_id)
        return None if entry is None else entry.task

    async def get_many(self, task_ids: Sequence[str]) -> list[TaskRecord | None]:
        """Several tasks at once, in the order of ``task_ids``."""
        out: list[TaskRecord | None] = []
        for task_id in task_ids:
            entry = self._live(task_id)
            out.append(None if entry is None else entry.task)
        return out

    async def update(self, task_id: str, change: Change) -> TaskRecord | None:
        entry = self._live(task_id)
        if entry is None:
            return None
        if entry.task.get("status") in TERMINAL_STATUSES:
            return entry.task
        changed = change(entry.task)
        if changed is None:
            return entry.task
        stored: TaskRecord = {**changed, "taskId": task_id}
        self._tasks[task_id] = _Stored(stored, expires_at(stored))
        self._notify(stored)
        return stored

    def watch(self, task_id: str, listener: Listener) -> Callable[[], None]:
        listeners = self._listeners.setdefault(task_id, [])
        listeners.append(listener)

        def stop() -> None:
            if listener in listeners:
                listeners.remove(listener)
            if not listeners and self._listeners.get(task_id) is listeners:
                del self._listeners[task_id]

        return stop

    async def close(self) -> None:
        self._closed = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._tasks.clear()
        self._listeners.clear()


def create_memory_task_store(
    *,
    now: Callable[[], float] | None = None,
    max_tasks: int = DEFAULT_MAX_STORED_TASKS,
    sweep_interval_ms: float = DEFAULT_SWEEP_INTERVAL_MS,
) -> MemoryTaskStore:
    """The in-memory TaskStore. ``now``: the clock (ms since the epoch), for tests; ``max_tasks``: most tasks held
    (a ``create`` beyond it, once the expired are swept, raises -32000 naming the limit); ``sweep_interval_ms``:
    how often expired tasks are swept (the timer starts with the event loop and does not keep it alive)."""
    return MemoryTaskStore(now=now, max_tasks=max_tasks, sweep_interval_ms=sweep_interval_ms)


# --- Tasks -------------------------------------------------------------------------------------------------

TaskInputRequest = Mapping[str, Any]
"""One server-to-client request a task waits on (an entry of ``inputRequests``): ``{"method": ..., "params": ...}``."""


class TaskControl(Protocol):
    """What the work of a task is given."""

    @property
    def task_id(self) -> str: ...

    @property
    def cancelled(self) -> asyncio.Event:
        """Set when the task is cancelled (by ``tasks/cancel``, from any process sharing the store)."""
        ...

    async def input(self, requests: Mapping[str, TaskInputRequest]) -> dict[str, Any]:
        """Ask the client (status ``input_required``); returns the responses by key once every key is answered."""
        ...

    async def set_status_message(self, message: str) -> None:
        """Set the task's ``statusMessage``."""
        ...


Work = Callable[[TaskControl], Awaitable[object] | object]
"""A task's work: ``work(control)``, sync or async, returning the request's result (a dict or a result model)."""

_UNSET: Any = object()


@dataclass(frozen=True)
class TaskHandle:
    """What a handler returns to have its request answered with a task (see ``task``)."""

    work: Work
    ttl_ms: int | None = _UNSET
    """Time to live from creation (ms; None: unlimited, bounded by the extension's ``max_ttl_ms``). Default: the extension's."""
    poll_interval_ms: int | None = None
    """Suggested polling interval (ms). Default: the extension's."""
    status_message: str | None = None
    """The status message the task starts with."""
    support: Literal["required", "optional"] = "required"
    """On a request that does not negotiate the extension: ``required`` answers -32021; ``optional`` runs ``work``
    at once and answers with its result (its ``input`` is then refused: -32603)."""


def task(
    work: Work,
    *,
    ttl_ms: int | None = _UNSET,
    poll_interval_ms: int | None = None,
    status_message: str | None = None,
    support: Literal["required", "optional"] = "required",
) -> TaskHandle:
    """A task handle: return it from a task-augmentable handler (``tools/call``) to answer with a task running ``work``."""
    return TaskHandle(work, ttl_ms, poll_interval_ms, status_message, support)


_TASK_MEMBERS: Final = ("taskId", "status", "statusMessage", "createdAt", "lastUpdatedAt", "ttlMs", "pollIntervalMs")
_STATUS_MEMBERS: Final = {"input_required": "inputRequests", "completed": "result", "failed": "error"}


def detailed_task(record: Mapping[str, Any]) -> dict[str, Any]:
    """The task as the extension sends it (``tasks/get``, ``notifications/tasks``): a DetailedTask, without the runtime's own members."""
    out: dict[str, Any] = {key: record[key] for key in _TASK_MEMBERS if key in record}
    extra = _STATUS_MEMBERS.get(cast(str, record.get("status")))
    if extra is not None:
        value = record.get(extra)
        out[extra] = {} if value is None else value
    return out


def _limit_reached(message: str) -> JsonRpcError:
    return JsonRpcError(LIMIT_REACHED, message)


def _not_found() -> JsonRpcError:
    return PeerError(INVALID_PARAMS, "Failed to retrieve task: Task not found")


def _owned_by(record: Mapping[str, Any], principal: str | None) -> bool:
    """Whether ``principal`` may see the task: the one that created it (a task created without a principal is anyone's who has none)."""
    return record.get(TASK_OWNER) == principal


def _is_dict(value: object) -> bool:
    return isinstance(value, dict)


def _dict(value: object) -> dict[str, Any]:
    """``value`` when it is a dict, else a new empty one."""
    return cast(dict[str, Any], value) if isinstance(value, dict) else {}


def _error_object(error: BaseException) -> dict[str, Any]:
    """A raised error as the JSON-RPC error a failed task carries: its own code, message and data when it has an integer code."""
    code = getattr(error, "code", None)
    if isinstance(code, int) and not isinstance(code, bool):
        message = getattr(error, "message", None)
        out: dict[str, Any] = {"code": code, "message": message if isinstance(message, str) else str(error)}
        data = getattr(error, "data", None)
        if data is not None:
            out["data"] = data
        return out
    return {"code": INTERNAL_ERROR, "message": "Internal error"}


def _has_code(error: BaseException) -> bool:
    code = getattr(error, "code", None)
    return isinstance(code, int) and not isinstance(code, bool)


def _json_bytes(value: object) -> int:
    """The size of ``value`` as compact JSON text in UTF-8 (as TypeScript's ``Buffer.byteLength(JSON.stringify(value))``)."""
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def _as_result(value: object, result_types: tuple[str, ...] | None) -> dict[str, Any] | None:
    """A result as stored, as the request would have answered it in the modern era: JSON only, ``resultType``
    defaulting to the request's default (the first of its METHOD_TABLE row's ``resultTypes``); None for no object."""
    if isinstance(value, BaseModel):
        value = value.model_dump(mode="json", by_alias=True, exclude_unset=True)
    if not isinstance(value, dict):
        return None
    stored = cast(dict[str, Any], json.loads(json.dumps(value, allow_nan=False)))
    if "resultType" in stored or result_types is None:
        return stored
    return {**stored, "resultType": result_types[0]}


def _iso_now() -> str:
    """The time now as JavaScript's ``Date.prototype.toISOString`` writes it (milliseconds, ``Z``)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _params_dict(params: object) -> dict[str, Any]:
    if isinstance(params, BaseModel):
        return params.model_dump(mode="json", by_alias=True, exclude_unset=True)
    return _dict(params)


def _task_id_param(method: str, params: object) -> str:
    """The request's ``taskId``, or -32602 naming its pointer."""
    task_id = _params_dict(params).get("taskId")
    if not isinstance(task_id, str):
        raise PeerError(INVALID_PARAMS, f"Invalid params for {method}: /params/taskId: expected a string taskId", {"paths": ["/params/taskId"]})
    return task_id


class _Control:
    """The control of a task's work (TaskControl)."""

    def __init__(self, extension: TasksExtension, task_id: str) -> None:
        self._extension = extension
        self._task_id = task_id
        self._cancelled = asyncio.Event()
        self._waiting: dict[int, tuple[list[str], asyncio.Future[dict[str, Any]]]] = {}
        self._seq = 0
        self._issued: set[str] = set()

    @property
    def task_id(self) -> str:
        return self._task_id

    @property
    def cancelled(self) -> asyncio.Event:
        return self._cancelled

    @property
    def waiting(self) -> bool:
        return bool(self._waiting)

    async def take(self, record: Mapping[str, Any]) -> None:
        """Hand the answers the record holds to the inputs waiting for them (each once every key of it is answered)."""
        answers = _dict(record.get(_ANSWERS))
        for seq, (keys, future) in list(self._waiting.items()):
            # Taken already by a concurrent call (the store's watch and input both take).
            if not all(k in answers for k in keys) or self._waiting.pop(seq, None) is None:
                continue
            mine = {k: answers[k] for k in keys}

            def taken(t: TaskRecord, keys: list[str] = keys) -> TaskRecord:
                left = dict(_dict(t.get(_ANSWERS)))
                for k in keys:
                    left.pop(k, None)
                return {**t, _ANSWERS: left}

            await self._extension.store.update(self._task_id, taken)
            if not future.done():
                future.set_result(mine)

    async def input(self, requests: Mapping[str, TaskInputRequest]) -> dict[str, Any]:
        keys = list(requests)
        reused = [k for k in keys if k in self._issued]
        if reused:
            raise JsonRpcError(
                INTERNAL_ERROR,
                f"Internal error: inputRequests key {', '.join(reused)} was issued before in this task (a key is unique over a task's lifetime)",
            )
        self._issued.update(keys)
        self._seq += 1
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[self._seq] = (keys, future)
        plain = {k: dict(v) for k, v in requests.items()}

        def asking(t: TaskRecord) -> TaskRecord:
            pending = _dict(t.get("inputRequests")) if t.get("status") == "input_required" else {}
            return {**t, "status": "input_required", "inputRequests": {**pending, **plain}, "lastUpdatedAt": _iso_now()}

        stored = await self._extension.store.update(self._task_id, asking)
        if stored is None or stored.get("status") in TERMINAL_STATUSES:
            raise JsonRpcError(INTERNAL_ERROR, "the task is no longer running")
        await self.take(stored)
        return await future

    async def set_status_message(self, message: str) -> None:
        await self._extension.store.update(self._task_id, lambda t: {**t, "statusMessage": message, "lastUpdatedAt": _iso_now()})


class _InlineControl:
    """The control of work run inline, for a request without the extension: no task, no input."""

    def __init__(self) -> None:
        self._cancelled = asyncio.Event()

    @property
    def task_id(self) -> str:
        return ""

    @property
    def cancelled(self) -> asyncio.Event:
        return self._cancelled

    async def input(self, requests: Mapping[str, TaskInputRequest]) -> dict[str, Any]:
        raise JsonRpcError(INTERNAL_ERROR, "Internal error: this request has no task to ask for input (the client did not negotiate tasks)")

    async def set_status_message(self, message: str) -> None:
        return None


OnTaskError = Callable[[BaseException, str], None]
"""``on_error(error, task_id)``: a task's failure that no JSON-RPC error describes, a store failure while settling,
and a result over ``max_result_bytes``."""


class TasksExtension:
    """The Tasks extension for a served version's ``extensions`` (a router ServedExtension), and its store."""

    @property
    def identifier(self) -> str:
        """The extension's identifier, TASKS_EXTENSION."""
        return TASKS_EXTENSION

    def __init__(
        self,
        *,
        store: TaskStore | None = None,
        ttl_ms: int | None = DEFAULT_TTL_MS,
        poll_interval_ms: int = DEFAULT_POLL_INTERVAL_MS,
        handlers: Mapping[str, Handler] | None = None,
        new_task_id: Callable[[], str] | None = None,
        on_error: OnTaskError | None = None,
        max_tasks_per_principal: int = MAX_TASKS_PER_PRINCIPAL,
        max_running_tasks: int = MAX_RUNNING_TASKS,
        max_result_bytes: int = MAX_RESULT_BYTES,
        max_ttl_ms: int = MAX_TTL_MS,
        max_listen_task_ids: int = MAX_LISTEN_TASK_IDS,
    ) -> None:
        self.store: TaskStore = store if store is not None else create_memory_task_store()
        self._ttl_ms = ttl_ms
        self._poll_interval_ms = poll_interval_ms
        self._author = dict(handlers or {})
        self._new_task_id = new_task_id if new_task_id is not None else lambda: str(uuid.uuid4())
        self._on_error = on_error
        self._max_per_principal = max_tasks_per_principal
        self._max_running = max_running_tasks
        self._max_result_bytes = max_result_bytes
        self._max_ttl = max_ttl_ms
        self._max_listen_ids = max_listen_task_ids
        self._running: set[asyncio.Task[None]] = set()
        self._running_by: dict[str, int] = {}
        self._background: set[asyncio.Task[None]] = set()
        own: dict[str, Handler] = {"tasks/get": self._get, "tasks/update": self._update, "tasks/cancel": self._cancel}
        # The author's tasks/* handlers are not replaced: the runtime's call them once its checks pass.
        self.handlers: Mapping[str, Handler] = {**self._author, **own}
        self.capabilities: Mapping[str, Any] = {}

    # --- what the router calls ---

    async def resolve(
        self, method: str, value: object, context: RequestContext, negotiated: bool, result_types: tuple[str, ...] | None
    ) -> object:
        """A task handle becomes a stored task and its CreateTaskResult (negotiated), -32021 (required, not
        negotiated) or its work's result (optional, not negotiated); any other value is the result itself."""
        if not isinstance(value, TaskHandle):
            return value
        if negotiated:
            return await self._start(value, context, result_types)
        if value.support != "optional":
            raise missing_extension(TASKS_EXTENSION)
        return await call_handler(value.work, _InlineControl())

    async def listen(self, notifications: Mapping[str, Any], deliver: Deliver, negotiated: bool, context: RequestContext) -> ListenPart | None:
        """Its part of a ``subscriptions/listen`` filter: the caller's own ``taskIds`` among those asked for, whose
        every change is delivered as ``notifications/tasks`` on the stream."""
        if "taskIds" not in notifications:
            return None
        if not negotiated:
            raise missing_extension(TASKS_EXTENSION)
        requested = notifications["taskIds"]
        listed = cast(list[object], requested) if isinstance(requested, list) else []
        ids = list(dict.fromkeys(i for i in listed if isinstance(i, str)))
        if len(ids) > self._max_listen_ids:
            raise JsonRpcError(INVALID_PARAMS, f"Invalid params: {len(ids)} distinct taskIds, over the server's maxListenTaskIds ({self._max_listen_ids})")
        # One lookup for all (one round trip to a shared store); another principal's tasks are as unknown ones.
        records = await self._get_many(ids)
        agreed = [i for i, r in zip(ids, records, strict=True) if r is not None and _owned_by(r, context.principal)]
        stops = [self.store.watch(i, self._deliverer(deliver)) for i in agreed]

        def stop() -> None:
            for s in stops:
                s()

        return ListenPart(honored={"taskIds": agreed}, stop=stop)

    async def idle(self) -> None:
        """Return when every task this process runs has settled (for tests and graceful shutdown)."""
        while self._running:
            await asyncio.gather(*self._running, return_exceptions=True)

    # --- tasks ---

    def _bounded(self, ttl: int | None) -> int:
        if ttl is None or not ttl <= self._max_ttl:
            return self._max_ttl
        return max(0, math.floor(ttl))

    async def _start(self, handle: TaskHandle, context: RequestContext, result_types: tuple[str, ...] | None) -> dict[str, Any]:
        who = context.principal if context.principal is not None else ""
        if len(self._running) >= self._max_running:
            raise _limit_reached(f"Too many tasks: {self._max_running} are running (maxRunningTasks)")
        if self._running_by.get(who, 0) >= self._max_per_principal:
            raise _limit_reached(f"Too many tasks: {self._max_per_principal} are running for this principal (maxTasksPerPrincipal)")
        created = _iso_now()
        record: TaskRecord = {
            "taskId": self._new_task_id(),
            "status": "working",
            "createdAt": created,
            "lastUpdatedAt": created,
            "ttlMs": self._bounded(self._ttl_ms if handle.ttl_ms is _UNSET else handle.ttl_ms),
            "pollIntervalMs": handle.poll_interval_ms if handle.poll_interval_ms is not None else self._poll_interval_ms,
        }
        if handle.status_message is not None:
            record["statusMessage"] = handle.status_message
        if context.principal is not None:
            record[TASK_OWNER] = context.principal
        # Stored before the CreateTaskResult is sent: a tasks/get for it resolves from now on.
        await self.store.create(record)
        self._running_by[who] = self._running_by.get(who, 0) + 1
        run = asyncio.ensure_future(self._execute(record["taskId"], handle, result_types))
        self._running.add(run)

        def done(_: asyncio.Task[None]) -> None:
            self._running.discard(run)
            left = self._running_by.get(who, 1) - 1
            if left <= 0:
                self._running_by.pop(who, None)
            else:
                self._running_by[who] = left

        run.add_done_callback(done)
        return {**detailed_task(record), "resultType": "task"}

    def _report(self, error: BaseException, task_id: str) -> None:
        if self._on_error is None:
            return
        try:
            self._on_error(error, task_id)
        except Exception:  # noqa: BLE001, S110 - a failing hook must not break the task
            pass

    def _later(self, coroutine: Awaitable[None]) -> None:
        """Run ``coroutine`` in the background, held until it ends."""

        async def run() -> None:
            await coroutine

        t = asyncio.ensure_future(run())
        self._background.add(t)
        t.add_done_callback(self._background.discard)

    async def _execute(self, task_id: str, handle: TaskHandle, result_types: tuple[str, ...] | None) -> None:
        control = _Control(self, task_id)
        work: asyncio.Task[object] = asyncio.ensure_future(call_handler(handle.work, control))

        async def taking(record: TaskRecord) -> None:
            try:
                await control.take(record)
            except Exception as e:  # noqa: BLE001 - a store failure is reported
                self._report(e, task_id)

        def changed(record: TaskRecord) -> None:
            if record.get("status") == "cancelled":
                control.cancelled.set()
                work.cancel()
            elif control.waiting:
                self._later(taking(record))

        unwatch = self.store.watch(task_id, changed)
        try:
            try:
                value = await work
            except asyncio.CancelledError:
                if control.cancelled.is_set():
                    return
                raise
            except Exception as error:  # noqa: BLE001 - the work's failure settles the task
                if control.cancelled.is_set():
                    return
                if not _has_code(error):
                    self._report(error, task_id)
                await self._fail(task_id, error)
                return
            if control.cancelled.is_set():
                return
            try:
                stored = _as_result(value, result_types)
            except (TypeError, ValueError) as e:
                failure = JsonRpcError(INTERNAL_ERROR, f"Internal error: the task's result cannot be sent as JSON ({e})")
                self._report(failure, task_id)
                await self._fail(task_id, failure)
                return
            if stored is None:
                await self._fail(task_id, JsonRpcError(INTERNAL_ERROR, "Internal error: the task's work returned no result object"))
                return
            size = _json_bytes(stored)
            if size > self._max_result_bytes:
                failure = JsonRpcError(
                    INTERNAL_ERROR, f"Internal error: the task's result is {size} bytes, over the server's maxResultBytes ({self._max_result_bytes})"
                )
                self._report(failure, task_id)
                await self._fail(task_id, failure)
                return
            try:
                await self.store.update(task_id, lambda t: self._settle(t, {"status": "completed", "result": stored}))
            except Exception as error:  # noqa: BLE001 - a store failure while settling: reported, then failed if it can be
                self._report(error, task_id)
                await self._fail(task_id, error)
        finally:
            unwatch()

    async def _fail(self, task_id: str, error: BaseException) -> None:
        """Settle the task ``failed`` with ``error`` as its JSON-RPC error; a store failure doing so is reported."""
        outcome = {"status": "failed", "error": _error_object(error)}
        try:
            await self.store.update(task_id, lambda t: self._settle(t, outcome))
        except Exception as e:  # noqa: BLE001 - reported, the task stays as the store has it
            self._report(e, task_id)

    @staticmethod
    def _settle(current: TaskRecord, outcome: Mapping[str, Any]) -> TaskRecord:
        """A terminal record: the runtime's members and the pending inputRequests dropped."""
        rest = {k: v for k, v in current.items() if k not in ("inputRequests", _ANSWERS)}
        return {**rest, **outcome, "lastUpdatedAt": _iso_now()}

    async def _get_many(self, ids: Sequence[str]) -> list[TaskRecord | None]:
        """Tasks by id, in one call when the store can (``get_many``), else one by one."""
        if not ids:
            return []
        many = cast(Callable[[Sequence[str]], Awaitable[list[TaskRecord | None]]] | None, getattr(self.store, "get_many", None))
        if many is not None:
            return await many(ids)
        return list(await asyncio.gather(*(self.store.get(i) for i in ids)))

    def _deliverer(self, deliver: Deliver) -> Listener:
        """A store listener sending each change as ``notifications/tasks``, in order; a failed delivery is dropped."""
        tail: list[asyncio.Task[None]] = []

        def changed(record: TaskRecord) -> None:
            previous = tail[0] if tail else None
            params = detailed_task(record)

            async def send() -> None:
                if previous is not None:
                    await asyncio.gather(previous, return_exceptions=True)
                try:
                    await deliver("notifications/tasks", params)
                except Exception:  # noqa: BLE001, S110 - a stream that is gone takes nothing
                    pass

            future = asyncio.create_task(send())
            tail[:] = [future]
            self._background.add(future)
            future.add_done_callback(self._background.discard)

        return changed

    # --- the extension's methods ---

    async def _known(self, task_id: str, context: RequestContext) -> TaskRecord:
        """The task, when it exists and belongs to the caller; else exactly the unknown-id error (its existence is not revealed)."""
        record = await self.store.get(task_id)
        if record is None or not _owned_by(record, context.principal):
            raise _not_found()
        return record

    async def _author_check(self, method: str, params: object, context: RequestContext) -> None:
        """The author's own handler of a task method, run after the runtime's checks and before its answer: raising refuses the request."""
        handler = self._author.get(method)
        if handler is not None:
            await call_handler(handler, params, context)

    async def _get(self, params: object, context: RequestContext) -> object:
        record = await self._known(_task_id_param("tasks/get", params), context)
        await self._author_check("tasks/get", params, context)
        # resultType: the dispatcher's normalizer adds the method's default (its METHOD_TABLE row's).
        return detailed_task(record)

    async def _update(self, params: object, context: RequestContext) -> object:
        # A server SHOULD ignore responses to keys that are not outstanding, so they are not validated against
        # InputResponse (the schema would refuse the whole request); the rest is checked.
        plain = _params_dict(params)
        paths = [
            *([] if isinstance(plain.get("taskId"), str) else ["/params/taskId"]),
            *([] if _is_dict(plain.get("inputResponses")) else ["/params/inputResponses"]),
        ]
        if paths:
            # Invalid params are the peer's mistake, answered and not reported (as the dispatcher's own -32602).
            raise PeerError(
                INVALID_PARAMS,
                f"Invalid params for tasks/update: {', '.join(paths)}: expected a string taskId and an inputResponses object",
                {"paths": paths},
            )
        task_id = cast(str, plain["taskId"])
        await self._known(task_id, context)
        await self._author_check("tasks/update", params, context)
        responses = _dict(plain["inputResponses"])

        def answering(t: TaskRecord) -> TaskRecord | None:
            pending = _dict(t.get("inputRequests"))
            # Keys not outstanding (never issued, answered already) are ignored, as the specification says.
            answered = [k for k in responses if k in pending]
            if t.get("status") != "input_required" or not answered:
                return None
            left = {k: v for k, v in pending.items() if k not in answered}
            answers = {**_dict(t.get(_ANSWERS)), **{k: responses[k] for k in answered}}
            rest = {k: v for k, v in t.items() if k != "inputRequests"}
            if not left:
                return {**rest, "status": "working", _ANSWERS: answers, "lastUpdatedAt": _iso_now()}
            return {**rest, "inputRequests": left, _ANSWERS: answers, "lastUpdatedAt": _iso_now()}

        await self.store.update(task_id, answering)
        return {}

    async def _cancel(self, params: object, context: RequestContext) -> object:
        task_id = _task_id_param("tasks/cancel", params)
        await self._known(task_id, context)
        await self._author_check("tasks/cancel", params, context)
        await self.store.update(task_id, lambda t: self._settle(t, {"status": "cancelled", "statusMessage": "Cancelled by the client"}))
        return {}


def tasks_extension(
    *,
    store: TaskStore | None = None,
    ttl_ms: int | None = DEFAULT_TTL_MS,
    poll_interval_ms: int = DEFAULT_POLL_INTERVAL_MS,
    handlers: Mapping[str, Handler] | None = None,
    new_task_id: Callable[[], str] | None = None,
    on_error: OnTaskError | None = None,
    max_tasks_per_principal: int = MAX_TASKS_PER_PRINCIPAL,
    max_running_tasks: int = MAX_RUNNING_TASKS,
    max_result_bytes: int = MAX_RESULT_BYTES,
    max_ttl_ms: int = MAX_TTL_MS,
    max_listen_task_ids: int = MAX_LISTEN_TASK_IDS,
) -> TasksExtension:
    """The Tasks extension: ``Served(..., extensions={TASKS_EXTENSION: tasks_extension(handlers={"tools/call": ...})})``.

    - ``store``: where tasks live (default: a new in-memory store);
    - ``ttl_ms``: default time to live of a task from its creation (ms; None: unlimited, i.e. ``max_ttl_ms``);
    - ``poll_interval_ms``: default suggested polling interval (ms);
    - ``handlers``: of task-augmentable core methods (``tools/call``), which may return ``task(work)``, and
      of ``tasks/*``, called after the runtime's checks (raising refuses the request);
    - ``new_task_id``: a new task id (default: a random UUID, 122 random bits);
    - ``on_error``: hears of a task's failure that no JSON-RPC error describes, a store failure while settling,
      and a result over ``max_result_bytes`` (default: none; the task says ``failed``);
    - ``max_tasks_per_principal`` (100) and ``max_running_tasks`` (1,000): most tasks running in this process
      for one principal and in all; more: -32000 naming the limit;
    - ``max_result_bytes`` (1 MiB): largest result a task keeps, in bytes of JSON; a larger one settles the
      task ``failed`` (-32603 naming the limit);
    - ``max_ttl_ms`` (1 hour): longest time to live (a longer or None ``ttl_ms`` gets this one);
    - ``max_listen_task_ids`` (1,000): most distinct ``taskIds`` one ``subscriptions/listen`` may name; more:
      -32602 naming the limit.
    """
    return TasksExtension(
        store=store,
        ttl_ms=ttl_ms,
        poll_interval_ms=poll_interval_ms,
        handlers=handlers,
        new_task_id=new_task_id,
        on_error=on_error,
        max_tasks_per_principal=max_tasks_per_principal,
        max_running_tasks=max_running_tasks,
        max_result_bytes=max_result_bytes,
        max_ttl_ms=max_ttl_ms,
        max_listen_task_ids=max_listen_task_ids,
    )


__all__ = [
    "DEFAULT_MAX_STORED_TASKS",
    "DEFAULT_POLL_INTERVAL_MS",
    "DEFAULT_SWEEP_INTERVAL_MS",
    "DEFAULT_TTL_MS",
    "LIMIT_REACHED",
    "MAX_LISTEN_TASK_IDS",
    "MAX_RESULT_BYTES",
    "MAX_RUNNING_TASKS",
    "MAX_TASKS_PER_PRINCIPAL",
    "MAX_TTL_MS",
    "MIN_RETENTION_MS",
    "TASKS_EXTENSION",
    "TASK_OWNER",
    "TERMINAL_STATUSES",
    "MemoryTaskStore",
    "TaskControl",
    "TaskHandle",
    "TaskRecord",
    "TaskStore",
    "TasksExtension",
    "create_memory_task_store",
    "detailed_task",
    "expires_at",
    "task",
    "tasks_extension",
]
