"""A server made only of the generated Python package, the mirror of server.ts.

The generated router (``mcp_codegen.router``) picks the version and the version's generated dispatcher
answers, with the conformance fixtures (fixtures.py over fixtures.json, the data server.ts reads too) as
handlers, both eras and the Tasks extension, served by the package's own ASGI streamable HTTP app
(``mcp_codegen.http``) under uvicorn on 127.0.0.1, or by its stdio transport (``mcp_codegen.stdio``).

The Skills extension (the ``sep-2640-*`` scenarios), which server.ts serves with custom methods, is left out:
``npm run conformance`` runs the Tasks scenarios against this server, not the Skills ones.

Run: ``python test/conformance/server.py [port]`` prints ``listening http://127.0.0.1:<port>/mcp``;
``python test/conformance/server.py stdio`` serves stdin/stdout. ``generated/python`` must be importable
(PYTHONPATH).
"""

from __future__ import annotations

import asyncio
import inspect
import json
import sys
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, cast

import fixtures as f
from pydantic import BaseModel

from mcp_codegen import http, stdio
from mcp_codegen.dispatcher import Handler, JsonRpcError, RequestContext
from mcp_codegen.http import tool_parameter_headers
from mcp_codegen.router import Router, Served, ServedExtension, create_router
from mcp_codegen.tasks import TASKS_EXTENSION, TaskControl, task, tasks_extension

Json = dict[str, Any]

SERVER_INFO = {"name": "mcp-codegen-conformance", "version": "0.1.0"}
CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities"
CAPABILITIES: Json = {
    "tools": {"listChanged": True},
    "resources": {"subscribe": True, "listChanged": True},
    "prompts": {"listChanged": True},
    "logging": {},
    "completions": {},
}
CACHE: Json = {"ttlMs": 0, "cacheScope": "public"}
"""The cache hints of the modern era's list and read results."""

text = f.text


def wire(params: object) -> Json:
    """A handler's params as their JSON (the params model dumped by wire name, unset members left out)."""
    if isinstance(params, BaseModel):
        return params.model_dump()
    return dict(cast(Mapping[str, Any], params)) if isinstance(params, Mapping) else {}


def is_object(value: object) -> bool:
    return isinstance(value, dict)


def done(t: str) -> Json:
    return {"content": [text(t)]}


async def progress(context: RequestContext) -> str:
    """notifications/progress 0, 50, 100 of 100 when the request asked for progress; what happened, as text."""
    token = None if context.meta is None else context.meta.get("progressToken")
    if isinstance(token, bool) or not isinstance(token, str | int | float):
        return "No progress token given"
    for i, value in enumerate((0, 50, 100)):
        if i > 0:
            await asyncio.sleep(0.05)
        await context.notify("notifications/progress", {"progressToken": token, "progress": value, "total": 100, "message": f"Progress {value}%"})
    return "Progress completed"


# ---------------------------------------------------------------------------------------------
# Handlers, legacy era (written against 2025-11-25, the version the suites' SDK client negotiates;
# older versions serve the same handlers).


def completion(_params: object, _context: RequestContext) -> Json:
    return {"completion": {"values": [], "total": 0, "hasMore": False}}


async def legacy_tools_call(params: object, context: RequestContext) -> Json:
    p = wire(params)
    name = cast(str, p["name"])
    args = cast(Json, p.get("arguments") or {})
    simple = f.simple_tool_result(name)
    if simple is not None:
        return simple
    if name == "test_tool_with_logging":
        for i, data in enumerate(("Tool execution started", "Tool processing data", "Tool execution completed")):
            if i > 0:
                await asyncio.sleep(0.05)
            await context.notify("notifications/message", {"level": "info", "logger": "conformance", "data": data})
        return done("Logging completed")
    if name == "test_tool_with_progress":
        return done(await progress(context))
    if name == "test_sampling":
        sampled = await context.request(
            "sampling/createMessage",
            {"messages": [{"role": "user", "content": text(str(args.get("prompt", "")))}], "maxTokens": 100},
        )
        content = cast(Json, sampled).get("content") if is_object(sampled) else None
        answer = cast(Json, content).get("text") if is_object(content) else None
        return done(f"LLM response: {answer if isinstance(answer, str) else json.dumps(sampled)}")
    if name == "test_elicitation":
        schema = {
            "type": "object",
            "properties": {
                "username": {"type": "string", "description": "User's response"},
                "email": {"type": "string", "description": "User's email address"},
            },
            "required": ["username", "email"],
        }
        result = await context.request("elicitation/create", {"message": str(args.get("message", "")), "requestedSchema": schema})
        return done(f"User response: {_js_json(result)}")
    if name in ("test_elicitation_sep1034_defaults", "test_elicitation_sep1330_enums"):
        schema = f.ELICITATION_DEFAULTS_SCHEMA if name == "test_elicitation_sep1034_defaults" else f.ELICITATION_ENUMS_SCHEMA
        result = cast(Json, await context.request("elicitation/create", {"message": "Please fill in the form", "requestedSchema": schema}))
        return done(f"Elicitation completed: action={result.get('action')}, content={_js_json(result.get('content') or {})}")
    raise JsonRpcError(-32602, f"Unknown tool: {name}")


def _js_json(value: object) -> str:
    """JSON as JavaScript's ``JSON.stringify`` writes it (no spaces), as server.ts answers."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _read(params: object, _context: RequestContext) -> Json:
    return {"contents": f.read_resource(cast(str, wire(params)["uri"]))}


def _prompt(params: object, _context: RequestContext) -> Json:
    p = wire(params)
    return {"messages": f.prompt_messages(cast(str, p["name"]), cast("dict[str, str] | None", p.get("arguments")))}


LEGACY_HANDLERS: Mapping[str, Handler] = {
    "ping": lambda _p, _c: {},
    "logging/setLevel": lambda _p, _c: {},
    "completion/complete": completion,
    "tools/list": lambda _p, _c: {"tools": [*f.COMMON_TOOLS, *f.LEGACY_TOOLS]},
    "tools/call": legacy_tools_call,
    "resources/list": lambda _p, _c: {"resources": f.RESOURCES},
    "resources/templates/list": lambda _p, _c: {"resourceTemplates": f.RESOURCE_TEMPLATES},
    "resources/read": _read,
    "resources/subscribe": lambda _p, _c: f.SUBSCRIBE_RESULT,
    "resources/unsubscribe": lambda _p, _c: {},
    "prompts/list": lambda _p, _c: {"prompts": f.PROMPTS},
    "prompts/get": _prompt,
}


# ---------------------------------------------------------------------------------------------
# Handlers, modern era (2026-07-28): no server→client requests; input_required results instead.


def input_response(params: Json, key: str) -> object:
    responses = params.get("inputResponses")
    return cast(Json, responses).get(key) if is_object(responses) else None


def accepted(value: object) -> Json | None:
    """The content of an accepted elicitation answer, else None."""
    if is_object(value):
        v = cast(Json, value)
        if v.get("action") == "accept" and is_object(v.get("content")):
            return cast(Json, v["content"])
    return None


def sampled(value: object) -> bool:
    return is_object(value) and is_object(cast(Json, value).get("content"))


def rooted(value: object) -> bool:
    return is_object(value) and isinstance(cast(Json, value).get("roots"), list)


def elicit(message: str, properties: Json, required: list[str]) -> Json:
    return {
        "method": "elicitation/create",
        "params": {"mode": "form", "message": message, "requestedSchema": {"type": "object", "properties": properties, "required": required}},
    }


def sample(question: str) -> Json:
    return {"method": "sampling/createMessage", "params": {"messages": [{"role": "user", "content": text(question)}], "maxTokens": 100}}


ROOTS: Json = {"method": "roots/list", "params": {}}


def input_required(input_requests: Json, request_state: str | None = None) -> Json:
    out: Json = {"resultType": "input_required", "inputRequests": input_requests}
    if request_state is not None:
        out["requestState"] = request_state
    return out


def modern_handlers(router: Callable[[], Router]) -> dict[str, Handler]:
    async def tools_call(params: object, context: RequestContext) -> Json:
        p = wire(params)
        name = cast(str, p["name"])
        simple = f.simple_tool_result(name)
        if simple is not None:
            return simple
        capabilities = None if context.meta is None else context.meta.get(CLIENT_CAPABILITIES)

        def has(c: str) -> bool:
            return is_object(capabilities) and is_object(cast(Json, capabilities).get(c))

        if name == "test_tool_with_progress":
            return done(await progress(context))
        if name == "test_missing_capability":
            if not has("sampling"):
                raise JsonRpcError(-32021, "Missing required client capability: sampling", {"requiredCapabilities": {"sampling": {}}})
            return done("The client can sample.")
        if name == "test_logging_tool":
            await context.notify("notifications/message", {"level": "info", "logger": "conformance", "data": "test_logging_tool ran"})
            return done("Logged at info.")
        if name == "test_trigger_tool_change":
            await router().publish("notifications/tools/list_changed")
            return done("Tool list change announced.")
        if name == "test_trigger_prompt_change":
            await router().publish("notifications/prompts/list_changed")
            return done("Prompt list change announced.")
        if name in ("test_streaming_elicitation", "test_input_required_result_elicitation"):
            answer = accepted(input_response(p, "user_name"))
            if answer is not None and isinstance(answer.get("name"), str):
                return done(f"Hello, {answer['name']}!")
            return input_required({"user_name": elicit("What is your name?", {"name": {"type": "string"}}, ["name"])})
        if name == "test_input_required_result_sampling":
            if sampled(input_response(p, "capital_question")):
                return done("Sampling answered.")
            return input_required({"capital_question": sample("What is the capital of France?")})
        if name == "test_input_required_result_list_roots":
            if rooted(input_response(p, "client_roots")):
                return done("Roots received.")
            return input_required({"client_roots": ROOTS})
        if name in ("test_input_required_result_request_state", "test_input_required_result_tampered_state"):
            if p.get("requestState") is not None:
                state = f.open_state(p["requestState"])
                if state.get("tool") == name and accepted(input_response(p, "confirm")) is not None:
                    return done("Confirmed: state-ok")
            return input_required({"confirm": elicit("Please confirm", {"ok": {"type": "boolean"}}, ["ok"])}, f.seal_state({"tool": name}))
        if name == "test_input_required_result_multiple_inputs":
            if p.get("requestState") is not None:
                state = f.open_state(p["requestState"])
                answered = (
                    accepted(input_response(p, "user_name")) is not None
                    and sampled(input_response(p, "greeting"))
                    and rooted(input_response(p, "client_roots"))
                )
                if state.get("tool") == name and answered:
                    return done("All three answers received.")
            return input_required(
                {
                    "user_name": elicit("What is your name?", {"name": {"type": "string"}}, ["name"]),
                    "greeting": sample("Write a greeting."),
                    "client_roots": ROOTS,
                },
                f.seal_state({"tool": name}),
            )
        if name == "test_input_required_result_multi_round":
            round_ = 0 if p.get("requestState") is None else f.open_state(p["requestState"]).get("round")
            if round_ == 1 and accepted(input_response(p, "step1")) is not None:
                return input_required({"step2": elicit("Step 2: your city?", {"city": {"type": "string"}}, ["city"])}, f.seal_state({"tool": name, "round": 2}))
            if round_ == 2 and accepted(input_response(p, "step2")) is not None:
                return done("Both rounds answered.")
            return input_required({"step1": elicit("Step 1: your name?", {"name": {"type": "string"}}, ["name"])}, f.seal_state({"tool": name, "round": 1}))
        if name == "test_input_required_result_capabilities":
            # Ask only for what the client declared in this request's clientCapabilities.
            wanted: Json = {}
            if has("elicitation"):
                wanted["user_name"] = elicit("What is your name?", {"name": {"type": "string"}}, ["name"])
            if has("sampling"):
                wanted["greeting"] = sample("Write a greeting.")
            if has("roots"):
                wanted["client_roots"] = ROOTS
            if all(input_response(p, key) is not None for key in wanted):
                return done("Asked only for declared capabilities.")
            return input_required(wanted)
        raise JsonRpcError(-32602, f"Unknown tool: {name}")

    def prompts_get(params: object, _context: RequestContext) -> Json:
        p = wire(params)
        if p["name"] == "test_input_required_result_prompt":
            answer = accepted(input_response(p, "user_context"))
            if answer is not None and isinstance(answer.get("context"), str):
                return {"messages": [{"role": "user", "content": text(f"Use this context: {answer['context']}")}]}
            return input_required({"user_context": elicit("What context should the prompt use?", {"context": {"type": "string"}}, ["context"])})
        return {"messages": f.prompt_messages(cast(str, p["name"]), cast("dict[str, str] | None", p.get("arguments")))}

    return {
        "completion/complete": completion,
        "tools/list": lambda _p, _c: {"tools": [*f.COMMON_TOOLS, *f.MODERN_TOOLS, *f.TASK_TOOLS], **CACHE},
        "tools/call": tools_call,
        "resources/list": lambda _p, _c: {"resources": f.RESOURCES, **CACHE},
        "resources/templates/list": lambda _p, _c: {"resourceTemplates": f.RESOURCE_TEMPLATES, **CACHE},
        "resources/read": lambda params, _c: {"contents": f.read_resource(cast(str, wire(params)["uri"])), **CACHE},
        "prompts/list": lambda _p, _c: {"prompts": [*f.PROMPTS, *f.MODERN_PROMPTS], **CACHE},
        "prompts/get": prompts_get,
    }


# ---------------------------------------------------------------------------------------------
# The Tasks extension at 2026-07-28: its tools/call answers every modern tools/call (task tools return
# a task handle; the runtime stores the task, answers tasks/*, or refuses with -32021 without the
# extension); the other tools are the modern handlers'.


async def pause(seconds: float, control: TaskControl) -> None:
    """A pause that ends early when the task is cancelled."""
    try:
        await asyncio.wait_for(control.cancelled.wait(), seconds)
    except TimeoutError:
        pass


def js_number(value: float) -> str:
    """A number as JavaScript's ``String`` writes it (1, not 1.0)."""
    return str(int(value)) if value.is_integer() else repr(value)


def task_tool_call(modern: Mapping[str, Handler]) -> Handler:
    async def tools_call(params: object, context: RequestContext) -> object:
        p = wire(params)
        args = cast(Json, p.get("arguments") or {})
        name = p["name"]
        if name == "greet":
            return done(f"Hello, {args.get('name', 'world')}!")
        if name == "slow_compute":
            seconds = float(args.get("seconds") or 0)

            async def compute(t: TaskControl) -> Json:
                await pause(seconds, t)
                return done(f"Computed after {js_number(seconds)} s")

            return task(compute, support="optional", poll_interval_ms=100, ttl_ms=60_000)
        if name == "failing_job":

            async def fail(t: TaskControl) -> Json:
                await pause(1, t)
                return {"content": [text("The job failed")], "isError": True}

            return task(fail, poll_interval_ms=100)
        if name == "protocol_error_job":

            def broken(_t: TaskControl) -> Json:
                raise JsonRpcError(-32603, "The job broke at the protocol level")

            return task(broken, support="optional", poll_interval_ms=100)
        if name == "confirm_delete":

            async def confirm(t: TaskControl) -> Json:
                answers = await t.input({"confirm": elicit("Delete the file?", {"confirm": {"type": "boolean"}}, ["confirm"])})
                return done(f"Deletion {'confirmed' if accepted(answers.get('confirm')) else 'declined'}")

            return task(confirm, support="optional", poll_interval_ms=100)
        if name == "multi_input":

            async def ask(t: TaskControl) -> Json:
                answers = await t.input(
                    {
                        "first_name": elicit("Your first name?", {"name": {"type": "string"}}, ["name"]),
                        "last_name": elicit("Your last name?", {"name": {"type": "string"}}, ["name"]),
                    }
                )
                first, last = accepted(answers.get("first_name")) or {}, accepted(answers.get("last_name")) or {}
                return done(f"Hello, {first.get('name')} {last.get('name')}!")

            return task(ask, support="optional", poll_interval_ms=100)
        if name == "test_tool_with_task":
            answer = accepted(input_response(p, "user_name"))
            if answer is None or not isinstance(answer.get("name"), str):
                return input_required({"user_name": elicit("What is your name?", {"name": {"type": "string"}}, ["name"])})
            user_name = cast(str, answer["name"])

            def greet(_t: TaskControl) -> Json:
                return done(f"Hello, {user_name}! (from the task)")

            return task(greet, poll_interval_ms=100)
        return await _call(modern["tools/call"], params, context)

    return tools_call


async def _call(handler: Handler, params: object, context: RequestContext) -> object:
    value = handler(params, context)
    return await cast(Awaitable[object], value) if inspect.isawaitable(value) else value


def served_extensions(modern: Mapping[str, Handler]) -> dict[str, ServedExtension]:
    """The extensions 2026-07-28 serves, by identifier: Tasks, whose tools/call answers every modern tools/call."""
    return {TASKS_EXTENSION: tasks_extension(handlers={"tools/call": task_tool_call(modern)})}


# ---------------------------------------------------------------------------------------------


def create_conformance_router() -> Router:
    router: Router | None = None

    def current() -> Router:
        assert router is not None
        return router

    older = Served(handlers=LEGACY_HANDLERS, capabilities=CAPABILITIES)
    modern = modern_handlers(current)
    router = create_router(
        server_info=SERVER_INFO,
        versions={
            "2024-11-05": older,
            "2025-03-26": older,
            "2025-06-18": older,
            "2025-11-25": older,
            "2026-07-28": Served(handlers=modern, capabilities=CAPABILITIES, extensions=served_extensions(modern)),
        },
    )
    return router


def parameter_headers(name: str) -> Mapping[str, str] | None:
    """The ``x-mcp-header`` arguments of a modern tool (argument → header name): the HTTP app checks their
    ``Mcp-Param-*`` headers against the body."""
    tool = next((t for t in f.MODERN_TOOLS if t["name"] == name), None)
    return None if tool is None else tool_parameter_headers(tool)


async def serve_http(port: int) -> None:
    """The shipped streamable HTTP transport (``mcp_codegen.http``, both eras on one endpoint) under uvicorn."""
    router = create_conformance_router()
    server = await http.serve_http(router, port=port, parameter_headers=parameter_headers)
    print(f"listening {server.url}", flush=True)
    try:
        await server.wait_closed()
    finally:
        await server.close()
        router.close()


async def serve_stdio() -> None:
    """The shipped stdio transport (``mcp_codegen.stdio``): one client on stdin and stdout, both eras."""
    router = create_conformance_router()
    try:
        await stdio.serve_stdio(router)
    finally:
        router.close()


def main(argv: list[str]) -> None:
    if argv[:1] == ["stdio"]:
        asyncio.run(serve_stdio())
    else:
        asyncio.run(serve_http(int(argv[0]) if argv else 0))


if __name__ == "__main__":
    main(sys.argv[1:])

