"""The tools, resources and prompts the conformance suites' server scenarios call, for server.py.

The mirror of fixtures.ts: the pure data is fixtures.json, which both read; the few functions over it are
written once per language here. Nothing here is protocol logic: that is the generated router's.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import secrets
from pathlib import Path
from typing import Any, cast

from mcp_codegen.dispatcher import JsonRpcError

Json = dict[str, Any]

DATA: Json = json.loads((Path(__file__).parent / "fixtures.json").read_text("utf-8"))

PNG: str = DATA["png"]
WAV: str = DATA["wav"]

COMMON_TOOLS: list[Json] = DATA["tools"]["common"]
"""Tools of both eras: name, description, inputSchema."""
LEGACY_TOOLS: list[Json] = DATA["tools"]["legacy"]
"""Tools only a legacy connection has: they need server→client requests or logging/setLevel."""
MODERN_TOOLS: list[Json] = DATA["tools"]["modern"]
"""Tools only the modern era has (2026-07-28 scenarios)."""
TASK_TOOLS: list[Json] = DATA["tools"]["tasks"]
"""Tools of the Tasks extension's scenarios (tasks-*, 0.2.0-alpha.12), listed at 2026-07-28."""

RESOURCES: list[Json] = DATA["resources"]
RESOURCE_TEMPLATES: list[Json] = DATA["resourceTemplates"]
SUBSCRIBE_RESULT: Json = DATA["subscribeResult"]
"""What resources/subscribe's handler returns: a seed ``_meta`` beside members an empty result does not have."""
PROMPTS: list[Json] = DATA["prompts"]
MODERN_PROMPTS: list[Json] = DATA["modernPrompts"]
ELICITATION_DEFAULTS_SCHEMA: Json = DATA["elicitation"]["defaults"]
ELICITATION_ENUMS_SCHEMA: Json = DATA["elicitation"]["enums"]

RESOURCE_NOT_FOUND_CODE = -32602
_TEMPLATE = re.compile(r"^test://template/([^/]+)/data$")


def text(t: str) -> Json:
    return {"type": "text", "text": t}


def _compact(value: object) -> str:
    """JSON as JavaScript's ``JSON.stringify`` writes it (no spaces)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def read_resource(uri: str) -> list[Json]:
    """resources/read contents; an unknown URI is -32602 with the URI in data (SEP-2164)."""
    contents = cast(dict[str, list[Json]], DATA["resourceContents"])
    if uri in contents:
        return contents[uri]
    m = _TEMPLATE.match(uri)
    if m:
        body = _compact({"id": m[1], "templateTest": True, "data": f"Data for ID: {m[1]}"})
        return [{"uri": uri, "mimeType": "application/json", "text": body}]
    raise JsonRpcError(RESOURCE_NOT_FOUND_CODE, f"Resource not found: {uri}", {"uri": uri})


def prompt_messages(name: str, args: dict[str, str] | None) -> list[Json]:
    """prompts/get messages of the prompts both eras have."""
    a = args or {}
    if name == "test_simple_prompt":
        return [{"role": "user", "content": text("This is a simple prompt for testing.")}]
    if name == "test_prompt_with_arguments":
        return [{"role": "user", "content": text(f"Prompt with arguments: arg1='{a.get('arg1', '')}', arg2='{a.get('arg2', '')}'")}]
    if name == "test_prompt_with_embedded_resource":
        resource = {"uri": a.get("resourceUri", "test://example-resource"), "mimeType": "text/plain", "text": "Embedded resource content for testing."}
        return [
            {"role": "user", "content": {"type": "resource", "resource": resource}},
            {"role": "user", "content": text("Please process the embedded resource above.")},
        ]
    if name == "test_prompt_with_image":
        return [
            {"role": "user", "content": {"type": "image", "data": PNG, "mimeType": "image/png"}},
            {"role": "user", "content": text("Please analyze the image above.")},
        ]
    raise JsonRpcError(-32602, f"Unknown prompt: {name}")


def simple_tool_result(name: str) -> Json | None:
    """tools/call content of the tools that need nothing from the client."""
    return cast(dict[str, Json], DATA["simpleToolResults"]).get(name)


# requestState that the client cannot forge: JSON payload, base64url, HMAC-SHA256 signed with a per-process key.
_STATE_KEY = secrets.token_bytes(32)


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _mac(body: str) -> str:
    return _b64url(hmac.new(_STATE_KEY, body.encode("utf-8"), hashlib.sha256).digest())


def seal_state(payload: Json) -> str:
    body = _b64url(_compact(payload).encode("utf-8"))
    return f"{body}.{_mac(body)}"


def open_state(state: object) -> Json:
    """The payload of a sealed state, or a -32602 error when it was altered."""
    if not isinstance(state, str):
        raise JsonRpcError(-32602, "Invalid params: requestState is missing")
    parts = state.split(".")
    if len(parts) != 2 or not hmac.compare_digest(parts[1], _mac(parts[0])):
        raise JsonRpcError(-32602, "Invalid params: requestState was altered")
    padded = parts[0] + "=" * (-len(parts[0]) % 4)
    return cast(Json, json.loads(base64.urlsafe_b64decode(padded)))
