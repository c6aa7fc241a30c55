"""Driver for router.test.ts: a scenario on stdin, what the Python router
answered and sent on stdout.

Scenario: ``{"config": {...}, "steps": [...]}``. ``config``: ``served`` (label → ``{"capabilities"}``; with
``"extension": true`` the stub Tasks extension is served too), ``instructions``, ``discoverCache``,
``maxListenStreamsPerPrincipal``, ``maxListenStreams``; a served entry's ``"custom": true`` serves the custom
methods of ``custom_methods`` (``"collide"``: tools/list among them), ``"validators": true`` the hooks of
``validators``, and ``expectError`` only builds the
router and prints ``{"error": message}`` of the ValueError it raises. Steps (``do``):

- ``connect`` ``as``: open a legacy connection named ``as``;
- ``send`` ``to`` (a connection's name, or ``"modern"``), ``message``, optional ``key`` (start it, await it
  later), ``auth``, ``principal``, ``scope`` (a name; default one scope per ``to``): handle one message;
- ``await`` ``key``; ``cancel`` ``key`` (the transport gives the request up: its task is cancelled);
- ``answer`` ``to``, ``result``: answer the last request the server sent on that connection;
- ``publish`` ``method``, ``params``; ``nameParam`` ``method``, ``version``; ``settle`` (let the loop run); ``close``.

Output: ``answers`` (per send or await: the response, null for none, "cancelled"), ``sent`` (what each
``to`` was sent, in order), ``failures`` (on_error's kind and method), ``callers`` (each failure's ``auth`` and ``principal``), ``events`` (what handlers saw:
factory calls, cancellations), ``inFlight`` at the end.
"""

from __future__ import annotations

import asyncio
import json
import sys
import types
from collections.abc import Mapping
from typing import Any, cast

from pydantic import BaseModel, ConfigDict

import mcp_codegen
from mcp_codegen import dispatcher, runtime
from mcp_codegen import router as r

TASKS = "io.modelcontextprotocol/tasks"

events: list[str] = []


def _name(params: object) -> str:
    if isinstance(params, dict):
        return str(cast(dict[str, Any], params).get("name"))
    return str(getattr(params, "name", None))


def _text(text: str) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": text}]}


async def tools_call(params: object, context: dispatcher.RequestContext) -> object:
    name = _name(params)
    if name == "fail-coded":
        raise dispatcher.JsonRpcError(-32000, "coded failure", {"why": "asked"})
    if name == "fail-plain":
        raise RuntimeError("secret detail")
    if name == "slow":
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            events.append(f"cancelled {json.dumps(context.request_id)}")
            raise
    if name == "sample":
        answer = await context.request("sampling/createMessage", {"messages": [], "maxTokens": 5})
        return _text(json.dumps(answer, separators=(",", ":")))
    if name == "log":
        for level in ("debug", "warning", "error"):
            await context.notify("notifications/message", {"level": level, "data": level})
        return _text("logged")
    if name == "progress":
        await context.progress(1, 2, "half")
        return _text("progressed")
    if name == "who":
        return _text(str(context.principal))
    return _text(name)


def handlers() -> dict[str, dispatcher.Handler]:
    def ping(params: object, context: object) -> object:
        return {}

    def tools_list(params: object, context: object) -> object:
        return {"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]}

    def empty(params: object, context: object) -> object:
        return {}

    def subscribe(params: object, context: object) -> object:
        # The seed rule: an empty-shape result keeps only an object _meta.
        uri = cast(dict[str, Any], params).get("uri") if isinstance(params, dict) else getattr(params, "uri", None)
        if uri == "seed://meta":
            return {"_meta": {"seen": True}, "extra": 1}
        if uri == "seed://bad-meta":
            return {"_meta": 5}
        return {}

    def nothing(params: object, context: object) -> object:
        return None

    return {
        "ping": ping,
        "tools/list": tools_list,
        "tools/call": cast(dispatcher.Handler, tools_call),
        "resources/subscribe": subscribe,
        "resources/unsubscribe": empty,
        "logging/setLevel": empty,
        "notifications/initialized": nothing,
    }


def factory(info: r.ConnectionInfo) -> Mapping[str, dispatcher.Handler]:
    events.append(f"factory {json.dumps(info.protocol_version)}")

    async def call(params: object, context: dispatcher.RequestContext) -> object:
        # The ConnectionInfo kept by the factory reads the connection as it is now.
        if _name(params) == "info":
            return _text(f"{info.protocol_version} {json.dumps(dict(info.initialize_params or {}).get('clientInfo'), separators=(',', ':'))}")
        return await tools_call(params, context)

    return {**handlers(), "tools/call": cast(dispatcher.Handler, call)}


# --- The stub extension: a module of the core version with tasks/get served, and a ServedExtension ---


def stub_module(label: str) -> types.ModuleType:
    """An extension module for the router: the core version's table with ``tasks/get`` present (params
    unchecked, any result), its requests and definitions."""
    core = cast(Any, mcp_codegen.version(label))
    table = dict(core.METHOD_TABLE)
    row = dict(table["tasks/get"])
    row.update({"status": "present", "sender": "client", "receivers": ("server",), "params": None, "results": (), "resultTypes": ("complete",), "nameParam": "taskId"})
    # The gate reads the row's verdicts: the server accepts it (the client keeps the core row's refusal).
    row["verdicts"] = {"server": {"accepted": True}, "client": row["verdicts"]["client"]}
    table["tasks/get"] = row
    requests = dict(core.REQUESTS)
    requests["tasks/get"] = runtime.RequestEntry(
        sender="client",
        params_required=False,
        results=(),
        result_shape="object",
        result_types=("complete",),
        normalizer=lambda value: runtime.object_result(value, "tasks/get", "a result", ("complete",)),
    )
    module = types.ModuleType(f"stub_tasks_{label.replace('-', '_')}")

    def create_server_dispatcher(
        handlers: Mapping[str, dispatcher.Handler], *, on_error: dispatcher.OnError | None = None, validate_results: bool = True
    ) -> dispatcher.Dispatcher:
        return dispatcher.create_dispatcher(
            label, table, requests, core.DEFINITIONS, "server", handlers, on_error=on_error, validate_results=validate_results
        )

    module.METHOD_TABLE = table  # type: ignore[attr-defined]
    module.create_server_dispatcher = create_server_dispatcher  # type: ignore[attr-defined]
    sys.modules[module.__name__] = module
    return module


# --- Custom methods (``"custom": true`` in a served entry; ``"custom": "collide"`` declares tools/list too) ---


class EchoParams(BaseModel):
    model_config = ConfigDict(extra="allow")
    text: str


class EchoResult(BaseModel):
    echoed: str


def custom_methods(collide: bool) -> dispatcher.CustomMethods:
    def echo(params: EchoParams, context: dispatcher.RequestContext) -> object:
        return {"echoed": params.text, "version": context.protocol_version}

    def note(params: object, context: dispatcher.NotificationContext) -> None:
        events.append(f"note {json.dumps(cast(dict[str, Any], params).get('n'))}")

    methods: dict[str, dispatcher.CustomRequest | dispatcher.CustomNotification] = {
        "acme/echo": dispatcher.CustomRequest(cast(dispatcher.Handler, echo), params=EchoParams, result=EchoResult),
        "acme/empty": dispatcher.CustomRequest(lambda p, c: {"_meta": {"a": 1}, "dropped": True}, shape="empty"),
        "acme/bad": dispatcher.CustomRequest(lambda p, c: {"echoed": 5}, result=EchoResult),
        "acme/note": dispatcher.CustomNotification(cast(dispatcher.Handler, note)),
    }
    if collide:
        methods["tools/list"] = dispatcher.CustomRequest(lambda p, c: {})
    return methods


def validators() -> Mapping[str, dispatcher.MethodValidator]:
    """``"validators": true``: tools/call's params hook (a name "coded" refused -32001, "plain" refused without a
    code, any other name passed on with "!" appended) and result hook (a "checked" member added; a name "bad"
    refused); acme/note's params hook (n multiplied by 10, n 0 refused)."""

    def call_params(params: object) -> object:
        name = cast(dict[str, Any], params)["name"]
        if name == "coded":
            raise dispatcher.JsonRpcError(-32001, "refused by the hook")
        if name == "plain":
            raise ValueError("no")
        return {"name": f"{name}!"}

    def call_result(result: dict[str, Any]) -> object:
        if result["content"][0]["text"] == "bad!":
            raise ValueError("bad result")
        return {**result, "checked": True}

    def note_params(params: object) -> object:
        n = cast(dict[str, Any], params)["n"]
        if n == 0:
            raise ValueError("zero")
        return {"n": n * 10}

    return {
        "tools/call": dispatcher.MethodValidator(params=call_params, result=call_result),
        "acme/note": dispatcher.MethodValidator(params=note_params),
    }


class StubTasks:
    """A ServedExtension: ``tasks/get`` answers the task id; ``tools/call`` of "task" returns a marker the
    extension's ``resolve`` turns into a result saying whether the request negotiated it."""

    identifier = TASKS
    capabilities: Mapping[str, Any] = {"stub": True}

    def __init__(self) -> None:
        def tasks_get(params: object, context: object) -> object:
            return {"taskId": cast(dict[str, Any], params).get("taskId"), "stub": True}

        async def call(params: object, context: dispatcher.RequestContext) -> object:
            if _name(params) == "task":
                return ("task", _name(params))
            return await tools_call(params, context)

        self.handlers: Mapping[str, dispatcher.Handler] = {"tasks/get": tasks_get, "tools/call": cast(dispatcher.Handler, call)}

    def resolve(
        self, method: str, value: object, context: dispatcher.RequestContext, negotiated: bool, result_types: tuple[str, ...] | None
    ) -> object:
        if isinstance(value, tuple):
            return _text(f"{method} resolved, negotiated {json.dumps(negotiated)}, resultTypes {json.dumps(result_types)}")
        return value


async def main() -> None:
    scenario = cast(dict[str, Any], json.loads(sys.stdin.read()))
    config = cast(dict[str, Any], scenario["config"])
    failures: list[str] = []
    callers: list[dict[str, object]] = []

    def on_error(failure: dispatcher.Failure) -> None:
        failures.append(f"{failure['kind']} {failure['method']}")
        callers.append({k: v for k, v in (("auth", failure.get("auth")), ("principal", failure.get("principal"))) if v is not None})

    served: dict[str, r.Served] = {}
    extension_modules: dict[str, dict[str, str]] = {}
    for label, entry in cast(dict[str, dict[str, Any]], config["served"]).items():
        extensions: dict[str, r.ServedExtension] = {}
        if entry.get("extension"):
            extension_modules[label] = {TASKS: stub_module(label).__name__}
            extensions[TASKS] = StubTasks()
        served[label] = r.Served(
            handlers=factory if entry.get("factory") else handlers(),
            capabilities=entry["capabilities"],
            extensions=extensions,
            custom=custom_methods(entry["custom"] == "collide") if entry.get("custom") else {},
            validators=validators() if entry.get("validators") else {},
        )
    setattr(mcp_codegen, "EXTENSION_MODULES", extension_modules)  # noqa: B010 - the tree's own has no extension modules yet
    if config.get("expectError"):
        try:
            r.create_router(server_info={"name": "router-test", "version": "1.0.0"}, versions=served)
        except ValueError as e:
            sys.stdout.write(json.dumps({"error": str(e)}))
            return
        raise AssertionError("create_router did not raise")
    router = r.create_router(
        server_info={"name": "router-test", "version": "1.0.0"},
        versions=served,
        instructions=config.get("instructions"),
        on_error=on_error,
        discover_cache=config.get("discoverCache"),
        max_listen_streams_per_principal=config.get("maxListenStreamsPerPrincipal", 16),
        max_listen_streams=config.get("maxListenStreams", 10_000),
    )
    sent: dict[str, list[object]] = {}
    connections: dict[str, r.LegacyConnection] = {}
    scopes: dict[str, object] = {}
    tasks: dict[str, asyncio.Task[dict[str, Any] | None]] = {}
    answers: list[object] = []

    def sender(to: str) -> r.Send:
        async def send(message: dict[str, Any]) -> None:
            sent.setdefault(to, []).append(message)

        return send

    for step in cast(list[dict[str, Any]], scenario["steps"]):
        do = step["do"]
        if do == "connect":
            connections[step["as"]] = router.connect(sender(step["as"]))
        elif do == "send":
            to = cast(str, step["to"])
            scope = scopes.setdefault(cast(str, step.get("scope", to)), object())
            if to == "modern":
                exchange = r.Exchange(send=sender(step.get("stream", to)), scope=scope, auth=step.get("auth"), principal=step.get("principal"))
                work = router.handle(step["message"], exchange)
            else:
                work = connections[to].handle(step["message"], r.Exchange(auth=step.get("auth"), principal=step.get("principal")))
            if "key" in step:
                tasks[step["key"]] = asyncio.ensure_future(work)
            else:
                answers.append(await work)
        elif do == "await":
            task = tasks[step["key"]]
            try:
                answers.append(await task)
            except asyncio.CancelledError:
                answers.append("cancelled")
        elif do == "cancel":
            tasks[step["key"]].cancel()
        elif do == "answer":
            to = cast(str, step["to"])
            request = [m for m in sent.get(to, []) if "id" in cast(dict[str, Any], m)][-1]
            response = {"jsonrpc": "2.0", "id": cast(dict[str, Any], request)["id"], "result": step["result"]}
            answers.append(await connections[to].handle(response))
        elif do == "publish":
            await router.publish(step["method"], step.get("params"))
        elif do == "nameParam":
            answers.append(router.name_param(step["method"], step["version"]))
        elif do == "settle":
            await asyncio.sleep(0.02)
        elif do == "close":
            router.close()
        else:
            raise ValueError(f"unknown step {do}")
    await asyncio.sleep(0)
    out = {"answers": answers, "sent": sent, "failures": failures, "callers": callers, "events": events, "inFlight": router.in_flight}
    sys.stdout.write(json.dumps(out, ensure_ascii=False, separators=(",", ":")))


asyncio.run(main())
