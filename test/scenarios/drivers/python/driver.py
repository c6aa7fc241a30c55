"""The Python driver of the scenario suite (test/scenarios/, docs/scenarios.md): concrete cases on stdin (a JSON
object ``{"cases": [...]}``, as test/scenarios/resolve.ts expands them), what the generated Python tree
(mcp_codegen, copying runtimes/python) answered on stdout::

    {"results": {case id: actual}, "skipped": {case id: why}, "summary": [lines]}

- ``gate``: the version module's (or the extension module's) ``method_error(method, side, policy)``: the error object or null;
- ``normalize``: ``normalize_result(method, input)``: ``{"ok": result}`` or ``{"error": {"code", "message"}}``;
- ``stdio``: each line written to ``serve_stdio`` (in memory), and the messages written in answer to it;
- ``projections``: the same, served by one handler set for every version (``one_set_router``);
- ``http``: each request sent to ``create_asgi_app`` (called in process, as an ASGI 3 server calls it), and its
  status, headers and body (JSON, SSE events' data, or text); a stream a request names kept open, and what
  arrived on it by each later read of it.
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any, cast

import mcp_codegen
from mcp_codegen import auth, dispatcher, runtime, stdio, tasks
from mcp_codegen import router as r
from mcp_codegen.http import create_asgi_app

serving: list[r.Router] = []
"""The router being served, for the "publish" tool."""

aborted = [0]
"""How many ``slow`` calls saw their cancellation, on the server being served (the "aborted" tool)."""

SETTLE = 0.02
"""Seconds to wait, after the messages a line expects, for any it does not."""


def _text(params: object) -> str:
    name = cast(dict[str, Any], params).get("name") if isinstance(params, dict) else getattr(params, "name", None)
    return str(name)


def handlers() -> dict[str, dispatcher.Handler]:
    """The scenario server's handlers (docs/scenarios.md): ping, tools/list (one tool, echo), tools/call (the name as
    text; "log" first sends notifications/message at debug, warning and error; "publish" first publishes
    notifications/tools/list_changed; "slow" waits to be cancelled, after progress 0 for a progressToken; "aborted"
    the number of "slow" calls cancelled)."""

    def ping(params: object, context: object) -> object:
        return {}

    def tools_list(params: object, context: object) -> object:
        return {"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]}

    async def tools_call(params: object, context: dispatcher.RequestContext) -> object:
        name = _text(params)
        arguments = cast(dict[str, Any], (params.get("arguments") if isinstance(params, dict) else getattr(params, "arguments", None)) or {})
        if name == "log":
            for level in ("debug", "warning", "error"):
                await context.notify("notifications/message", {"level": level, "data": level})
        if name == "publish":
            await serving[-1].publish("notifications/tools/list_changed")
        if name == "publish-updated":
            await serving[-1].publish("notifications/resources/updated", {"uri": str(arguments.get("uri"))})
        if name == "slow":
            token = None if context.meta is None else context.meta.get("progressToken")
            if token is not None:
                await context.notify("notifications/progress", {"progressToken": token, "progress": 0})
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                aborted[0] += 1
                raise
        if name == "aborted":
            return _content(str(aborted[0]))
        if name == "fail-coded":
            raise dispatcher.JsonRpcError(-32000, "coded failure", {"why": "asked"})
        if name == "fail-plain":
            raise RuntimeError("secret detail")
        if name == "progress":
            token = None if context.meta is None else context.meta.get("progressToken")
            if token is not None:
                await context.notify("notifications/progress", {"progressToken": token, "progress": 1, "total": 2, "message": "half"})
        if name == "sample":
            answer = await context.request("sampling/createMessage", {"messages": [], "maxTokens": 5})
            return _content(json.dumps(answer, separators=(",", ":"), ensure_ascii=False))
        if name == "elicit":
            answer = await context.request("elicitation/create", {"message": "?", "requestedSchema": {"type": "object", "properties": {}}})
            return _content(json.dumps(answer, separators=(",", ":"), ensure_ascii=False))
        if name == "who":
            return _content(context.principal or "none")
        return _content(name)

    return {
        "ping": ping,
        "logging/setLevel": ping,
        "tools/list": tools_list,
        "tools/call": cast(dispatcher.Handler, tools_call),
        "resources/subscribe": ping,
        "resources/unsubscribe": ping,
    }


def _content(text: str) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": text}]}


CAPABILITIES: dict[str, Any] = {"tools": {"listChanged": True}, "logging": {}}
"""The scenario server's capabilities."""


ELICIT: dict[str, Any] = {"method": "elicitation/create", "params": {"mode": "form", "message": "?", "requestedSchema": {"type": "object", "properties": {}}}}
"""The form elicitation ``task-ask`` asks for."""


def task_tools(params: object, context: object) -> object:
    """The Tasks extension's tools/call: ``task-done``, ``task-slow`` (until cancelled), ``task-ask``, ``task-fail``; any other name at once."""
    name = _text(params)
    if name == "task-done":
        return tasks.task(lambda control: _content("done"))
    if name == "task-slow":

        async def slow(control: tasks.TaskControl) -> object:
            await asyncio.Event().wait()
            return _content("never")

        return tasks.task(slow)
    if name == "task-ask":

        async def ask(control: tasks.TaskControl) -> object:
            answers = await control.input({"q": ELICIT})
            return _content(json.dumps(answers, separators=(",", ":"), ensure_ascii=False))

        return tasks.task(ask)
    if name == "task-fail":

        def fail(control: tasks.TaskControl) -> object:
            raise RuntimeError("secret detail")

        return tasks.task(fail)
    return _content(name)


class _Reader:
    def __init__(self) -> None:
        self.queue: asyncio.Queue[bytes] = asyncio.Queue()

    async def read(self, n: int = -1) -> bytes:
        return await self.queue.get()


class _Writer:
    def __init__(self) -> None:
        self.buffer = b""
        self.messages: list[object] = []

    def write(self, data: bytes) -> None:
        self.buffer += data
        while b"\n" in self.buffer:
            line, self.buffer = self.buffer.split(b"\n", 1)
            self.messages.append(json.loads(line))

    async def drain(self) -> None:
        return None


def _reply(line: str, got: list[object]) -> str:
    """A line as written: ``{"$reply": result}`` becomes the response to the last request the server wrote."""
    if not line.startswith('{"$reply":'):
        return line
    parsed = cast(dict[str, Any], json.loads(line))
    if len(parsed) != 1:
        return line
    requests = [m for m in got if isinstance(m, dict) and "method" in m and "id" in m]
    rid = cast(dict[str, Any], requests[-1])["id"] if requests else None
    return json.dumps({"jsonrpc": "2.0", "id": rid, "result": parsed["$reply"]}, separators=(",", ":"))


LIFTED_KEYS = {"protocolVersion": "io.modelcontextprotocol/protocolVersion", "clientCapabilities": "io.modelcontextprotocol/clientCapabilities"}
"""The ``_meta`` keys of a modern request's envelope that the "lifted" tool reports."""


def one_set_router() -> r.Router:
    """The one-handler-set server of the projections cases (docs/scenarios.md): every generated version served by
    one handler set written for the newest, the capabilities and list-result cache hints given once."""

    def tools_list(params: object, context: object) -> object:
        return {"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]}

    def tools_call(params: object, context: dispatcher.RequestContext) -> object:
        name = _text(params)
        if name == "version":
            return _content(context.protocol_version)
        if name == "structured":
            return {**_content(name), "structuredContent": {"ok": True}}
        if name == "link":
            return {"content": [{"type": "resource_link", "uri": "file:///a.txt", "name": "a"}]}
        if name == "lifted":
            meta = cast(dict[str, Any], (params.get("_meta") if isinstance(params, dict) else getattr(params, "meta", None)) or {})
            return _content(json.dumps({k: meta.get(key) for k, key in LIFTED_KEYS.items()}, separators=(",", ":"), ensure_ascii=False))
        return _content(name)

    return r.create_router(
        server_info={"name": "scenario-server", "version": "1.0.0"},
        versions=list(mcp_codegen.VERSION_MODULES),
        handlers={"tools/list": tools_list, "tools/call": cast(dispatcher.Handler, tools_call)},
        capabilities={"tools": {"listChanged": True}},
        cache_hints={"ttlMs": 60_000, "cacheScope": "public"},
        on_error=lambda failure: None,
    )


async def stdio_case(case: dict[str, Any]) -> list[list[object]]:
    if case["kind"] == "projections":
        router = one_set_router()
    else:
        served = {label: r.Served(handlers=handlers(), capabilities={"tools": {"listChanged": True}, "logging": {}}) for label in mcp_codegen.VERSION_MODULES}
        router = r.create_router(server_info={"name": "scenario-server", "version": "1.0.0"}, versions=served, on_error=lambda failure: None)
    serving.append(router)
    aborted[0] = 0
    reader, writer = _Reader(), _Writer()
    task = asyncio.ensure_future(stdio.serve_stdio(router, reader=reader, writer=writer, on_error=lambda error: None))
    answers: list[list[object]] = []
    for line, expected in zip(cast(list[str], case["lines"]), cast(list[list[object]], case["expect"]), strict=True):
        start = len(writer.messages)
        reader.queue.put_nowait(_reply(line, writer.messages).encode("utf-8") + b"\n")
        for _ in range(2500):
            if len(writer.messages) - start >= len(expected):
                break
            await asyncio.sleep(0.002)
        await asyncio.sleep(SETTLE)
        answers.append(writer.messages[start:])
    reader.queue.put_nowait(b"")
    await task
    return answers


RESOURCE = "https://scenario.invalid/mcp"
TOKENS: dict[str, dict[str, Any]] = {
    "token-alice": {"client_id": "client-a", "subject": "alice", "scopes": ("mcp",), "resource": RESOURCE},
    "token-bob": {"client_id": "client-b", "subject": "bob", "scopes": ("mcp",), "resource": RESOURCE},
    "token-narrow": {"client_id": "client-n", "subject": "narrow", "scopes": (), "resource": RESOURCE},
    "token-elsewhere": {"client_id": "client-e", "subject": "elsewhere", "scopes": ("mcp",), "resource": "https://elsewhere.invalid/mcp"},
    "token-expired": {"client_id": "client-x", "subject": "expired", "scopes": ("mcp",), "resource": RESOURCE, "expires_at": 1},
}
"""The scenario tokens (docs/scenarios.md); any other token is refused."""


def verify(token: str, scope: object) -> auth.AuthInfo:
    info = TOKENS.get(token)
    if info is None:
        raise ValueError("unknown token")
    return auth.AuthInfo(token=token, **info)


def _principal(scope: Any) -> str | None:
    for name, value in scope["headers"]:
        if name == b"x-principal":
            return cast(bytes, value).decode()
    return None


def http_scope(request: dict[str, Any], session: str | None) -> dict[str, Any]:
    method = cast(str, request["method"])
    defaults = {"content-type": "application/json", "accept": "application/json, text/event-stream"} if method == "POST" else {"accept": "text/event-stream"} if method == "GET" else {}
    headers: dict[str, str] = {"host": "127.0.0.1:8000", **defaults}
    if request.get("session") and session is not None:
        headers["mcp-session-id"] = session
    for name, value in cast(dict[str, str | None], request.get("headers", {})).items():
        if value is None:
            headers.pop(name, None)
        else:
            headers[name] = value
    path = cast(str, request.get("path", "/mcp"))
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": [(k.encode(), v.encode()) for k, v in headers.items()],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }


class _Answer:
    """One request to the app (called in process, as an ASGI 3 server calls it) and its answer as it arrives."""

    def __init__(self, app: Any, request: dict[str, Any], session: str | None, heard: list[object]) -> None:
        body = _reply(cast(str, request.get("body", "")), heard).encode()
        self.chunks: list[dict[str, Any]] = [{"type": "http.request", "body": body, "more_body": False}]
        self.gone = asyncio.Event()
        self.start: dict[str, Any] = {}
        self.text = b""
        self.events: list[object] = []
        self.taken = 0
        self.finished = False
        self.heard = heard
        """Every SSE event's data of every stream, in arrival order (for ``$reply``)."""
        self.call = asyncio.ensure_future(app(http_scope(request, session), self.receive, self.send))

    async def receive(self) -> dict[str, Any]:
        if self.chunks:
            return self.chunks.pop(0)
        await self.gone.wait()
        return {"type": "http.disconnect"}

    async def send(self, message: Any) -> None:
        if message["type"] == "http.response.start":
            self.start.update(message)
            return
        self.text += message.get("body", b"")
        while b"\n\n" in self.text:
            event, self.text = self.text.split(b"\n\n", 1)
            data = [line[5:].lstrip() for line in event.split(b"\n") if line.startswith(b"data:")]
            if data:
                parsed = json.loads(b"\n".join(data))
                self.events.append(parsed)
                self.heard.append(parsed)
        if not message.get("more_body", False):
            self.finished = True

    @property
    def ended(self) -> bool:
        return self.finished or self.call.done()

    @property
    def sse(self) -> bool:
        return "text/event-stream" in _header(self.start, "content-type")

    async def until(self, count: int, end: bool) -> None:
        """Wait until ``count`` events arrived since the last read and a settle passed (an SSE answer), or it ended (always, with ``end``)."""
        for _ in range(2500):
            if self.ended or (not end and self.start and self.sse and len(self.events) - self.taken >= count):
                break
            await asyncio.sleep(0.002)
        if not self.ended:
            await asyncio.sleep(SETTLE * 2.5)

    def take(self) -> list[object]:
        """The events since the last read."""
        out = self.events[self.taken :]
        self.taken = len(self.events)
        return out

    def answer(self) -> dict[str, Any]:
        headers = {k.decode().lower(): v.decode() for k, v in self.start.get("headers", [])}
        answer: dict[str, Any] = {"status": self.start["status"], "headers": headers}
        if headers.get("content-type", "").startswith("text/event-stream"):
            answer["events"] = self.take()
        elif headers.get("content-type", "").startswith("application/json") and self.text != b"":
            answer["body"] = json.loads(self.text)
        else:
            answer["text"] = self.text.decode()
        return answer

    async def close(self) -> None:
        self.gone.set()
        await asyncio.wait_for(self.call, 5)


def _header(start: dict[str, Any], name: str) -> str:
    for k, v in start.get("headers", []):
        if k.decode().lower() == name:
            return cast(bytes, v).decode()
    return ""


async def http_case(case: dict[str, Any]) -> list[object]:
    server = cast(dict[str, Any], case["server"])
    served = {label: r.Served(handlers=handlers(), capabilities=CAPABILITIES) for label in mcp_codegen.VERSION_MODULES}
    if server.get("tasks"):
        counter = [0]

        def new_task_id() -> str:
            counter[0] += 1
            return f"task-{counter[0]}"

        extension = tasks.tasks_extension(
            store=tasks.create_memory_task_store(),
            new_task_id=new_task_id,
            ttl_ms=60_000,
            poll_interval_ms=25,
            handlers={"tools/call": task_tools},
            on_error=lambda error, task_id: None,
        )
        own = {k: v for k, v in handlers().items() if k != "tools/call"}
        served[case["version"]] = r.Served(handlers=own, capabilities=CAPABILITIES, extensions={tasks.TASKS_EXTENSION: extension})
    router = r.create_router(server_info={"name": "scenario-server", "version": "1.0.0"}, versions=served, on_error=lambda failure: None)
    serving.append(router)
    aborted[0] = 0
    options: dict[str, Any] = {"on_error": lambda error: None}
    if server.get("auth"):
        options["auth"] = auth.ResourceServer(
            verify_access_token=verify,
            resource_metadata={"resource": RESOURCE, "authorization_servers": ["https://as.scenario.invalid"]},
            required_scopes=["mcp"],
        )
    else:
        options["principal_of"] = _principal
    app = create_asgi_app(router, **options)
    answers: list[object] = []
    session: str | None = None
    streams: dict[str, _Answer] = {}
    heard: list[object] = []
    try:
        for request, expected in zip(cast(list[dict[str, Any]], case["requests"]), cast(list[dict[str, Any]], case["expect"]), strict=True):
            if "read" in request:
                stream = streams[request["read"]]
                await stream.until(len(expected.get("events", [])), expected.get("ended") is True)
                answers.append({"events": stream.take(), "ended": stream.ended})
                continue
            got = _Answer(app, request, session, heard)
            await got.until(len(expected.get("events", [])), False)
            answer = got.answer()
            session = answer["headers"].get("mcp-session-id", session)
            answers.append(answer)
            if "stream" in request:
                streams[request["stream"]] = got
            else:
                await got.close()
    finally:
        for stream in streams.values():
            await stream.close()
        await app.close()
        router.close()
    return answers


async def answer(case: dict[str, Any]) -> object:
    kind = case["kind"]
    if kind == "gate":
        extension = case["extension"]
        module = mcp_codegen.version(case["version"]) if extension is None else mcp_codegen.extension(case["version"], extension)
        return module.method_error(case["method"], case["side"], case["policy"])
    if kind == "normalize":
        module = mcp_codegen.version(case["version"])
        try:
            return {"ok": module.normalize_result(case["method"], case["input"])}
        except runtime.ResultError as e:
            return {"error": e.to_error()}
    if kind in ("stdio", "projections"):
        return await stdio_case(case)
    return await http_case(case)


async def main() -> None:
    cases = cast(list[dict[str, Any]], json.loads(sys.stdin.read())["cases"])
    results: dict[str, object] = {}
    for case in cases:
        results[case["id"]] = await answer(case)
    kinds = sorted({c["kind"] for c in cases})
    summary = [f"python runs {sum(1 for c in cases if c['kind'] == k)} {k} cases" for k in kinds]
    sys.stdout.write(json.dumps({"results": results, "skipped": {}, "summary": summary}, ensure_ascii=False, separators=(",", ":")))


asyncio.run(main())
