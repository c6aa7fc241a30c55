"""The Python conformance client: made only of the generated Python client (generated/python, ``client.py`` and
``client_http.py``), the mirror of test/conformance/client.ts. The official runner
(``conformance client --command "python client.py" --scenario …``) starts it with the scenario server's URL as its
last argument and MCP_CONFORMANCE_SCENARIO / MCP_CONFORMANCE_CONTEXT / MCP_CONFORMANCE_PROTOCOL_VERSION in its
environment. It connects at the scenario's wire version and uses whatever the server offers: every tool is
called (a JSON-RPC error answer noted, not fatal; arguments from the context's ``toolCalls`` when it names them,
else from the tool's inputSchema), every resource read, every prompt got; the server's elicitations are accepted
with the requested schema's defaults, sampling answered with a fixed text. Exit 0 when nothing failed.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from typing import Any, cast

import mcp_codegen
from mcp_codegen.client import Client
from mcp_codegen.client_http import HttpClientTransport
from mcp_codegen.client_oauth import OAuth, enterprise_assertion
from mcp_codegen.dispatcher import JsonRpcError

CONFORMANCE_CIMD_URL = "https://conformance-test.local/client-metadata.json"
"""The Client ID Metadata Document URL the conformance authorization servers expect (``auth/basic-cimd``)."""
CONFORMANCE_REDIRECT_URI = "http://localhost:3000/callback"
"""Registered with the authorization server and never served: the headless user agent stops at it."""

Json = dict[str, Any]


def _object(value: object) -> Json:
    return cast(Json, value) if isinstance(value, dict) else {}


def arguments_for(input_schema: object) -> Json:
    """A value of each property the schema requires, by its type."""
    schema = _object(input_schema)
    properties = _object(schema.get("properties"))
    required = schema.get("required")
    out: Json = {}
    for name in cast(list[object], required) if isinstance(required, list) else []:
        if not isinstance(name, str):
            continue
        kind = _object(properties.get(name)).get("type")
        out[name] = 1 if kind in ("number", "integer") else True if kind == "boolean" else {} if kind == "object" else [] if kind == "array" else "test"
    return out


def accept_with_defaults(params: Any, context: Any) -> Json:
    """An elicitation accepted with every default the requested schema gives."""
    dumped = _object(params.model_dump(by_alias=True, exclude_none=True, mode="json") if hasattr(params, "model_dump") else params)
    properties = _object(_object(dumped.get("requestedSchema")).get("properties"))
    content = {name: _object(p)["default"] for name, p in properties.items() if "default" in _object(p)}
    return {"action": "accept", "content": content}


def sample(params: Any, context: Any) -> Json:
    return {"role": "assistant", "content": {"type": "text", "text": "conformance sample"}, "model": "conformance-model"}


def no_roots(params: Any, context: Any) -> Json:
    return {"roots": []}


def report(error: BaseException) -> None:
    sys.stderr.write(f"client: {error}\n")


def transport_for(url: str, scenario: str, context: Json) -> HttpClientTransport:
    """The HTTP transport; for an ``auth/*`` scenario through an httpx2 client with OAuth configured from the context
    alone (a pre-registered client id and secret or key, the issuer they belong to; a workload's JWT; an enterprise IdP's
    token endpoint and the user's ID token there). DPoP needs nothing here: the client asks for it where the
    authorization server lists ES256."""
    if not scenario.startswith("auth/"):
        return HttpClientTransport(url)

    def text(key: str) -> str | None:
        value = context.get(key)
        return value if isinstance(value, str) else None

    if scenario.startswith("auth/client-credentials-"):
        # The Client Credentials extension: no user; the pre-registered client's secret, or its key (private_key_jwt).
        return HttpClientTransport(
            url,
            auth=OAuth(
                redirect_uri=CONFORMANCE_REDIRECT_URI,
                grant="client_credentials",
                client_id=text("client_id"),
                client_secret=text("client_secret"),
                client_key=text("private_key_pem"),
                client_key_alg=text("signing_algorithm") or "ES256",
            ),
        )
    idp_token_endpoint = text("idp_token_endpoint")
    workload_token = text("valid_jwt")
    if idp_token_endpoint is not None:
        # Enterprise-managed authorization: the IdP's ID token exchanged for an ID-JAG, presented in the JWT-bearer grant.
        assertion = enterprise_assertion(
            token_endpoint=idp_token_endpoint, id_token=text("idp_id_token") or "", client_id=text("idp_client_id") or ""
        )
        grant = OAuth(
            redirect_uri=CONFORMANCE_REDIRECT_URI, grant="jwt_bearer", assertion=assertion, client_id=text("client_id"), client_secret=text("client_secret")
        )
        return HttpClientTransport(url, auth=grant)
    if workload_token is not None:
        # Workload identity federation: the workload's JWT is the JWT-bearer grant's assertion.
        return HttpClientTransport(url, auth=OAuth(redirect_uri=CONFORMANCE_REDIRECT_URI, grant="jwt_bearer", assertion=workload_token, client_id=text("client_id")))
    auth = OAuth(
        redirect_uri=text("redirect_uri") or CONFORMANCE_REDIRECT_URI,
        client_id=text("client_id"),
        client_secret=text("client_secret"),
        client_issuer=text("issuer"),
        client_metadata_url=text("client_metadata_url") or CONFORMANCE_CIMD_URL,
        client_name="mcp-codegen python conformance client",
    )
    return HttpClientTransport(url, auth=auth)


def offered(wire: str) -> list[str]:
    """The versions the client offers at the scenario's wire version: that modern one alone, else every legacy one up to it."""
    eras = mcp_codegen.VERSION_ERAS
    if eras.get(wire) == "modern":
        return [wire]
    return [v for v, era in eras.items() if era == "legacy" and v <= wire]


async def main() -> int:
    url = sys.argv[-1]
    scenario = os.environ.get("MCP_CONFORMANCE_SCENARIO", "")
    raw_context = os.environ.get("MCP_CONFORMANCE_CONTEXT")
    context = _object(json.loads(raw_context)) if raw_context is not None else {}
    wire = os.environ.get("MCP_CONFORMANCE_PROTOCOL_VERSION", "2025-11-25")
    client = Client(
        {"name": "mcp-codegen-python-conformance-client", "version": "1.0.0"},
        capabilities={"sampling": {}, "elicitation": {"form": {}}, "roots": {"listChanged": True}},
        versions=offered(wire),
        handlers={"elicitation/create": accept_with_defaults, "sampling/createMessage": sample, "roots/list": no_roots},
        on_error=report,
    )
    tool_calls = context.get("toolCalls")
    try:
        negotiated = await client.connect(transport_for(url, scenario, context))
        caps = negotiated.server_capabilities
        if "tools" in caps:
            tools = cast(list[Json], (await client.request("tools/list", {}))["tools"])
            calls: list[Json] = cast(list[Json], tool_calls) if isinstance(tool_calls, list) else [{"name": t["name"], "arguments": arguments_for(t.get("inputSchema"))} for t in tools]
            echo = next((t for t in tools if t["name"] == "json_schema_echo"), None)
            for call in calls:
                if echo is not None and call["name"] == echo["name"]:
                    # The scenario asks for another tool's inputSchema back, exactly as received.
                    focal = next((t for t in tools if t["name"] != echo["name"]), None)
                    await client.request("tools/call", {"name": call["name"], "arguments": {"schema": None if focal is None else focal.get("inputSchema")}})
                    continue
                try:
                    await client.request("tools/call", {"name": call["name"], "arguments": call.get("arguments", {})})
                except JsonRpcError as error:
                    # A server's error answer is the server's business; the scenario's checks judge.
                    sys.stderr.write(f"tools/call {call['name']}: the server answered {error.code} {error.message}\n")
        if "resources" in caps:
            resources = cast(list[Json], (await client.request("resources/list", {}))["resources"])
            for resource in resources:
                await client.request("resources/read", {"uri": resource["uri"]})
        if "prompts" in caps:
            prompts = cast(list[Json], (await client.request("prompts/list", {}))["prompts"])
            for prompt in prompts:
                arguments = {a["name"]: "test" for a in cast(list[Json], prompt.get("arguments", [])) if a.get("required") is True}
                await client.request("prompts/get", {"name": prompt["name"], "arguments": arguments})
        await client.close()
        return 0
    except Exception as error:  # noqa: BLE001 - reported, exit 1
        sys.stderr.write(f"conformance client ({scenario}): {type(error).__name__}: {error}\n")
        await client.close()
        return 1


sys.exit(asyncio.run(main()))
