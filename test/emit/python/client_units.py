"""The generated Python client's rules on the wire, against a scripted server in memory (client.test.ts).

Each case runs a ``Client`` over ``Scripted``, a transport whose server is a function of each message the client
sends (what it answers, as messages delivered back), and reports what the client did and sent.
stdin: ``{}``; stdout: ``{case: facts}``.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import Callable, Mapping
from typing import Any, cast

import mcp_codegen
from mcp_codegen.client import Client, ClientError, OutgoingInfo, Receiver, RequestId
from mcp_codegen.client_stdio import INHERITED_ENV_VARS, StdioClientTransport
from mcp_codegen.dispatcher import JsonRpcError

Message = dict[str, Any]
Server = Callable[[Message, "Scripted"], list[Message]]

MODERN = sorted((v for v, era in mcp_codegen.VERSION_ERAS.items() if era == "modern" and v[0].isdigit()), reverse=True)
# Published (dated) versions, as MODERN: a legacy draft a bump pins may require result members these scripted
# servers do not write (an early draft's ListToolsResult requires ttl).
LEGACY = sorted((v for v, era in mcp_codegen.VERSION_ERAS.items() if era == "legacy" and v[0].isdigit()), reverse=True)
INFO = {"name": "units", "version": "1.0.0"}


class Scripted:
    """A transport whose server answers each sent message with ``server(message, self)``."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.sent: list[Message] = []
        self.infos: list[OutgoingInfo] = []
        self.receiver: Receiver | None = None
        self.closed = False

    async def start(self, receiver: Receiver) -> None:
        self.receiver = receiver

    async def send(self, message: Mapping[str, Any], info: OutgoingInfo) -> None:
        self.sent.append(json.loads(json.dumps(message)))
        self.infos.append(info)
        for answer in self.server(dict(message), self):
            self.deliver(answer)

    def deliver(self, message: Message, related: RequestId | None = None) -> None:
        assert self.receiver is not None
        self.receiver.message(message, related)

    async def session_started(self, protocol_version: str) -> None:
        return None

    def abandon(self, request_id: RequestId) -> None:
        return None

    async def close(self) -> None:
        self.closed = True

    def methods(self) -> list[str]:
        return [m.get("method", "(response)") for m in self.sent]


def result(message: Message, value: Any) -> list[Message]:
    return [{"jsonrpc": "2.0", "id": message["id"], "result": value}]


def legacy_server(capabilities: dict[str, Any], answer: Callable[[Message], list[Message]] = lambda m: []) -> Server:
    """Refuses server/discover (-32601), initializes at the offered version, then answers with ``answer``."""

    def server(message: Message, _: Scripted) -> list[Message]:
        method = message.get("method")
        if method == "server/discover":
            return [{"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32601, "message": "Method not found"}}]
        if method == "initialize":
            return result(message, {"protocolVersion": message["params"]["protocolVersion"], "capabilities": capabilities, "serverInfo": {"name": "s", "version": "1"}})
        return answer(message) if "id" in message and "method" in message else []

    return server


def modern_server(answer: Callable[[Message], list[Message]]) -> Server:
    def server(message: Message, _: Scripted) -> list[Message]:
        if message.get("method") == "server/discover":
            return result(message, {"supportedVersions": MODERN, "capabilities": {"tools": {}}, "serverInfo": {"name": "m", "version": "1"}, "resultType": "complete", "ttlMs": 0, "cacheScope": "public"})
        return answer(message) if "id" in message and "method" in message else []

    return server


def error_of(error: BaseException) -> dict[str, Any]:
    if isinstance(error, ClientError):
        return {"kind": error.kind, "pointers": sorted(error.pointers)}
    if isinstance(error, JsonRpcError):
        return {"code": error.code}
    return {"type": type(error).__name__}


async def connected(server: Server, **options: Any) -> tuple[Client, Scripted]:
    transport = Scripted(server)
    settings: dict[str, Any] = {"versions": LEGACY[:1], **options}
    client = Client(INFO, **settings)
    await client.connect(transport)
    return client, transport


async def timeout_sends_cancelled() -> dict[str, Any]:
    client, transport = await connected(legacy_server({"tools": {}}))
    try:
        await client.request("tools/call", {"name": "slow", "arguments": {}}, timeout=0.05)
        outcome: Any = "answered"
    except ClientError as error:
        outcome = error_of(error)
    call = next(m for m in transport.sent if m.get("method") == "tools/call")
    cancel = next(m for m in transport.sent if m.get("method") == "notifications/cancelled")
    await client.close()
    return {"outcome": outcome, "cancelsTheCall": cancel["params"]["requestId"] == call["id"]}


async def task_cancel_sends_cancelled() -> dict[str, Any]:
    client, transport = await connected(legacy_server({"tools": {}}))
    task = asyncio.ensure_future(client.request("tools/call", {"name": "slow", "arguments": {}}))
    await asyncio.sleep(0.02)
    task.cancel()
    try:
        await task
        outcome = "answered"
    except asyncio.CancelledError:
        outcome = "cancelled"
    call = next(m for m in transport.sent if m.get("method") == "tools/call")
    cancels = [m["params"]["requestId"] for m in transport.sent if m.get("method") == "notifications/cancelled"]
    await client.close()
    return {"outcome": outcome, "cancelled": cancels == [call["id"]]}


async def invalid_result() -> dict[str, Any]:
    client, _ = await connected(legacy_server({"tools": {}}, lambda m: result(m, {"tools": [{"name": 5}]})))
    try:
        await client.request("tools/list")
        return {"outcome": "accepted"}
    except ClientError as error:
        return {"outcome": error_of(error)}
    finally:
        await client.close()


async def capability_refused() -> dict[str, Any]:
    client, transport = await connected(legacy_server({"tools": {}}))
    before = len(transport.sent)
    try:
        await client.request("resources/list")
        outcome: Any = "sent"
    except ClientError as error:
        outcome = error_of(error)
    sent = len(transport.sent) - before
    await client.close()
    return {"outcome": outcome, "sent": sent}


async def refusals() -> dict[str, Any]:
    client, transport = await connected(legacy_server({"tools": {}}))
    out: dict[str, Any] = {}
    attempts: list[tuple[str, str, Message]] = [("serverSide", "sampling/createMessage", {}), ("unknown", "no/such", {}), ("invalidParams", "tools/call", {"arguments": {}})]
    for name, method, params in attempts:
        try:
            await client.request(method, params)
            out[name] = "sent"
        except ClientError as error:
            out[name] = error_of(error)
    out["sentAfterInitialize"] = transport.methods()[2:]
    await client.close()
    return out


async def invalid_params_every_version() -> dict[str, Any]:
    """tools/call without its required ``name``, at each generated version alone: refused before sending (the
    versions whose schema inlines the params included), or, if sent, answered by nobody (a short timeout)."""
    out: dict[str, Any] = {}
    for label, era in sorted(mcp_codegen.VERSION_ERAS.items()):

        def modern(message: Message, _: Scripted, label: str = label) -> list[Message]:
            if message.get("method") == "server/discover":
                return result(message, {"supportedVersions": [label], "capabilities": {"tools": {}}, "serverInfo": {"name": "m", "version": "1"}, "resultType": "complete", "ttlMs": 0, "cacheScope": "public"})
            return []

        client, transport = await connected(legacy_server({"tools": {}}) if era == "legacy" else modern, versions=[label])
        before = len(transport.sent)
        try:
            await client.request("tools/call", {"arguments": {}}, timeout=0.5)
            out[label] = "answered"
        except ClientError as error:
            out[label] = {**error_of(error), "sent": len(transport.sent) - before}
        await client.close()
    return out


async def fallback_and_envelope() -> dict[str, Any]:
    client, transport = await connected(legacy_server({"tools": {}}, lambda m: result(m, {"tools": []})), versions=[MODERN[0], LEGACY[0]])
    negotiated = client.connection
    assert negotiated is not None
    await client.request("tools/list")
    discover = transport.sent[0]
    listed = transport.sent[-1]
    await client.close()
    return {
        "methods": transport.methods(),
        "era": negotiated.era,
        "version": negotiated.protocol_version,
        "fellBack": negotiated.fell_back is not None,
        "discoverMeta": sorted(discover["params"]["_meta"]),
        "legacyParams": listed.get("params"),
    }


async def modern_envelope_and_retry() -> dict[str, Any]:
    calls: list[Message] = []

    def server(message: Message, _: Scripted) -> list[Message]:
        if message.get("method") == "server/discover":
            calls.append(message)
            asked = message["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"]
            if len(calls) == 1:
                return [{"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32022, "message": "Unsupported protocol version", "data": {"supported": [MODERN[-1]], "requested": asked}}}]
            return result(message, {"supportedVersions": [MODERN[-1]], "capabilities": {"tools": {}}, "serverInfo": {"name": "m", "version": "1"}, "resultType": "complete", "ttlMs": 0, "cacheScope": "public"})
        if message.get("method") == "tools/list":
            return result(message, {"tools": [], "resultType": "complete", "ttlMs": 0, "cacheScope": "public"})
        return []

    transport = Scripted(server)
    client = Client(INFO, versions=MODERN, capabilities={"roots": {}})
    negotiated = await client.connect(transport)
    await client.request("tools/list", {"_meta": {"example.com/mine": 1}})
    listed = transport.sent[-1]
    await client.close()
    return {
        "asked": [c["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] for c in calls],
        "version": negotiated.protocol_version,
        "listMeta": listed["params"]["_meta"],
        "headersInfo": [transport.infos[-1].protocol_version, transport.infos[-1].era],
    }


async def server_cancels_handler() -> dict[str, Any]:
    events: list[str] = []
    started = asyncio.Event()

    async def sampling(params: Any, context: Any) -> dict[str, Any]:
        started.set()
        try:
            await asyncio.sleep(5)
        except asyncio.CancelledError:
            events.append("handler cancelled")
            raise
        return {"role": "assistant", "content": {"type": "text", "text": "late"}, "model": "m"}

    client, transport = await connected(legacy_server({}), handlers={"sampling/createMessage": sampling}, capabilities={"sampling": {}})
    request: Message = {"jsonrpc": "2.0", "id": "s1", "method": "sampling/createMessage", "params": {"messages": [], "maxTokens": 5}}
    transport.deliver(request)
    await asyncio.wait_for(started.wait(), 2)
    transport.deliver({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "s1"}})
    await asyncio.sleep(0.1)
    answered = [m for m in transport.sent if m.get("id") == "s1"]
    await client.close()
    return {"events": events, "answered": answered}


async def close_cancels_handlers() -> dict[str, Any]:
    events: list[str] = []
    started = asyncio.Event()

    async def roots(params: Any, context: Any) -> dict[str, Any]:
        started.set()
        try:
            await asyncio.sleep(5)
        except asyncio.CancelledError:
            events.append("handler cancelled")
            raise
        return {"roots": []}

    client, transport = await connected(legacy_server({}), handlers={"roots/list": roots}, capabilities={"roots": {}})
    transport.deliver({"jsonrpc": "2.0", "id": 9, "method": "roots/list"})
    await asyncio.wait_for(started.wait(), 2)
    await client.close()
    await asyncio.sleep(0.05)
    transport.deliver({"jsonrpc": "2.0", "id": 10, "method": "roots/list"})
    await asyncio.sleep(0.05)
    return {"events": events, "answers": [m for m in transport.sent if "result" in m or "error" in m], "transportClosed": transport.closed}


async def handler_answers_and_missing() -> dict[str, Any]:
    def first(params: Any, context: Any) -> Message:
        return {"roots": [{"uri": "file:///a"}]}

    client, transport = await connected(legacy_server({}), handlers={"roots/list": first}, capabilities={"roots": {}})
    transport.deliver({"jsonrpc": "2.0", "id": 1, "method": "roots/list"})
    transport.deliver({"jsonrpc": "2.0", "id": 2, "method": "sampling/createMessage", "params": {"messages": [], "maxTokens": 1}})
    await asyncio.sleep(0.05)
    def second(params: Any, context: Any) -> Message:
        return {"roots": []}

    client.set_request_handler("roots/list", second)
    transport.deliver({"jsonrpc": "2.0", "id": 3, "method": "roots/list"})
    await asyncio.sleep(0.05)
    answers = {m["id"]: m.get("result", m.get("error", {}).get("code")) for m in transport.sent if "id" in m and "method" not in m}
    await client.close()
    return {"answers": answers}


async def progress_and_pages() -> dict[str, Any]:
    pages: dict[str | None, Message] = {None: {"tools": [{"name": "a", "inputSchema": {"type": "object"}}], "nextCursor": "c1"}, "c1": {"tools": [], "nextCursor": "c1"}}

    def answer(m: Message) -> list[Message]:
        if m["method"] == "tools/list":
            params: Message = m.get("params") or {}
            return result(m, pages[params.get("cursor")])
        token = m["params"]["_meta"]["progressToken"]
        note = {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": token, "progress": 1, "total": 2}}
        return [note, *result(m, {"content": []})]

    client, _ = await connected(legacy_server({"tools": {}}, answer))
    seen: list[dict[str, Any]] = []
    await client.request("tools/call", {"name": "a", "arguments": {}}, on_progress=seen.append)
    walked: list[int] = []
    try:
        async for page in client.pages("tools/list"):
            walked.append(len(page["tools"]))
        stop: Any = "ended"
    except ClientError as error:
        stop = error_of(error)
    try:
        await anext(client.pages("tools/call"))
        unpaged: Any = "paged"
    except ClientError as error:
        unpaged = error_of(error)
    await client.close()
    return {"progress": [{k: v for k, v in p.items() if k != "progressToken"} for p in seen], "pages": walked, "stop": stop, "notPaginated": unpaged}


async def input_rounds() -> dict[str, Any]:
    rounds: list[Message] = []
    ask = {"confirm": {"method": "elicitation/create", "params": {"mode": "form", "message": "ok?", "requestedSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}}}

    def answer(m: Message) -> list[Message]:
        rounds.append(m["params"])
        return result(m, {"resultType": "input_required", "inputRequests": ask, "requestState": f"s{len(rounds)}"})

    transport = Scripted(modern_server(answer))
    client = Client(INFO, versions=MODERN[:1], handlers={"elicitation/create": lambda p, c: {"action": "accept", "content": {"ok": True}}}, max_input_rounds=3)
    await client.connect(transport)
    try:
        await client.request("tools/call", {"name": "t", "arguments": {}})
        outcome: Any = "answered"
    except ClientError as error:
        outcome = error_of(error)
    await client.close()
    return {
        "outcome": outcome,
        "requests": len(rounds),
        "second": {k: v for k, v in rounds[1].items() if k != "_meta"},
    }


async def header_designations() -> dict[str, Any]:
    bad = {"name": "bad", "inputSchema": {"type": "object", "properties": {"r": {"type": "object", "x-mcp-header": "R"}}}}
    good = {"name": "good", "inputSchema": {"type": "object", "properties": {"r": {"type": "string", "x-mcp-header": "Region"}}}}

    def answer(m: Message) -> list[Message]:
        if m["method"] == "tools/list":
            return result(m, {"tools": [bad, good], "resultType": "complete", "ttlMs": 0, "cacheScope": "public"})
        return result(m, {"content": [], "resultType": "complete"})

    problems: list[str] = []
    transport = Scripted(modern_server(answer))
    client = Client(INFO, versions=MODERN[:1], on_error=lambda e: problems.append(str(e)))
    await client.connect(transport)
    listed = await client.request("tools/list")
    await client.request("tools/call", {"name": "good", "arguments": {"r": "eu"}})
    info = transport.infos[-1]
    await client.close()
    return {"tools": [t["name"] for t in listed["tools"]], "problems": len(problems), "nameParam": info.name_param, "inputSchema": info.input_schema == good["inputSchema"]}


async def structured_content() -> dict[str, Any]:
    tool = {"name": "w", "inputSchema": {"type": "object"}, "outputSchema": {"type": "object", "properties": {"t": {"type": "number"}}, "required": ["t"]}}
    answers: list[Message] = [{"content": [], "structuredContent": {"t": 1}}, {"content": [], "structuredContent": {"t": "hot"}}, {"content": []}, {"content": [], "isError": True}]

    def answer(m: Message) -> list[Message]:
        return result(m, {"tools": [tool]} if m["method"] == "tools/list" else answers.pop(0))

    client, _ = await connected(legacy_server({"tools": {}}, answer))
    await client.request("tools/list")
    out: list[Any] = []
    for _ in range(4):
        try:
            out.append(sorted(await client.request("tools/call", {"name": "w", "arguments": {}})))
        except ClientError as error:
            out.append(error_of(error))
    await client.close()
    return {"calls": out}


async def stdio_environment() -> dict[str, Any]:
    os.environ["MCP_CODEGEN_TEST_SECRET"] = "do-not-pass"
    got: list[object] = []
    done = asyncio.Event()

    class Hear:
        def message(self, message: object, related: RequestId | None = None) -> None:
            got.append(message)
            done.set()

        def closed(self, error: BaseException | None = None) -> None:
            done.set()

        def problem(self, error: BaseException) -> None:
            got.append(f"problem: {error}")

        def request_failed(self, request_id: RequestId, error: BaseException) -> None:
            return None

    code = "import json, os; print('not json'); print(json.dumps({'jsonrpc': '2.0', 'method': 'env', 'params': sorted(os.environ)}), flush=True)"
    transport = StdioClientTransport(sys.executable, ["-c", code], stderr="ignore")
    await transport.start(Hear())
    await asyncio.wait_for(done.wait(), 10)
    await transport.close()
    message = next(cast(Message, m) for m in got if isinstance(m, dict))
    names: list[str] = message["params"]
    return {
        "secretPassed": "MCP_CODEGEN_TEST_SECRET" in names,
        "outsideTheList": sorted(set(names) - set(INHERITED_ENV_VARS) - {"LC_CTYPE"}),
        "problems": [g for g in got if isinstance(g, str)],
    }


async def main() -> dict[str, Any]:
    cases = {
        "timeout": timeout_sends_cancelled,
        "taskCancel": task_cancel_sends_cancelled,
        "invalidResult": invalid_result,
        "capability": capability_refused,
        "refusals": refusals,
        "invalidParamsEveryVersion": invalid_params_every_version,
        "fallback": fallback_and_envelope,
        "modern": modern_envelope_and_retry,
        "serverCancels": server_cancels_handler,
        "close": close_cancels_handlers,
        "handlers": handler_answers_and_missing,
        "progressPages": progress_and_pages,
        "inputRounds": input_rounds,
        "headers": header_designations,
        "structured": structured_content,
        "stdioEnvironment": stdio_environment,
    }
    return {name: await case() for name, case in cases.items()}


print(json.dumps({"modern": MODERN, "legacy": LEGACY, "labels": sorted(mcp_codegen.VERSION_ERAS), "cases": asyncio.run(main())}))
