"""Driver for router.test.ts's start-up test: which generated version and extension modules are imported.

Input on stdin: ``{"initialize": label or null, "modern": label or null, "meta": the modern request's _meta}``. Builds a router serving every
generated version (every extension module of the tree served too, through ``tasks_extension``), then sends a
legacy ``initialize`` at ``initialize`` and a modern ``server/discover`` naming ``modern`` (each left out when
null). Output: ``{"before", "built", "initialized", "modern", "answers"}``, each list the package's version and
extension modules (by module name) in ``sys.modules`` at that point, sorted.

With ``{"import": label, "extensions": bool}`` instead: only imports the version's module (and its extension
modules) with ``importlib`` and prints ``{"imported": [...]}``, what is then in ``sys.modules`` (the oracle:
what importing those modules alone brings in, without the router).
"""

from __future__ import annotations

import asyncio
import importlib
import json
import sys
from typing import Any, cast

import mcp_codegen
from mcp_codegen import router as r
from mcp_codegen.tasks import tasks_extension

GENERATED = [*mcp_codegen.VERSION_MODULES.values(), *(n for m in mcp_codegen.EXTENSION_MODULES.values() for n in m.values())]


def imported() -> list[str]:
    return sorted(name for name in GENERATED if name in sys.modules)


async def main() -> None:
    asked = cast(dict[str, Any], json.loads(sys.stdin.read()))
    if "import" in asked:
        label = cast(str, asked["import"])
        importlib.import_module(mcp_codegen.VERSION_MODULES[label])
        for name in mcp_codegen.EXTENSION_MODULES.get(label, {}).values() if asked["extensions"] else ():
            importlib.import_module(name)
        sys.stdout.write(json.dumps({"imported": imported()}))
        return
    before = imported()
    served = {
        label: r.Served(
            {"tools/list": lambda p, c: {"tools": []}},
            capabilities={"tools": {}},
            extensions={identifier: tasks_extension() for identifier in mcp_codegen.EXTENSION_MODULES.get(label, {})},
        )
        for label in mcp_codegen.VERSION_MODULES
    }
    router = r.create_router(server_info={"name": "lazy", "version": "1"}, versions=served)
    built = imported()

    async def send(message: dict[str, Any]) -> None:
        return None

    answers: list[object] = []
    connection = router.connect(send)
    if asked["initialize"] is not None:
        answers.append(
            await connection.handle(
                {
                    "jsonrpc": "2.0",
                    "id": 1,
                    "method": "initialize",
                    "params": {"protocolVersion": asked["initialize"], "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}},
                }
            )
        )
    initialized = imported()
    # The request's _meta as the test built it from the version's own schema (its required keys).
    meta: dict[str, Any] = asked["meta"]
    if asked["modern"] is not None:
        answers.append(await router.handle({"jsonrpc": "2.0", "id": 2, "method": "server/discover", "params": {"_meta": meta}}))
    modern = imported()
    router.close()
    out = {"before": before, "built": built, "initialized": initialized, "modern": modern, "answers": answers}
    sys.stdout.write(json.dumps(out, separators=(",", ":")))


asyncio.run(main())
