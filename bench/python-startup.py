"""Cold start to first answer of a Python stdio server made of the generated package (issue 40, item 6).

Starts ``python bench/python-startup.py serve`` (a stdio server serving every generated version, with one
tool) or ``python test/conformance/server.py stdio`` as a fresh process, writes one request and measures the
wall-clock time from spawning the process to reading its answer; prints the median of ``runs`` starts.

Run from the repository root: ``.venv/bin/python bench/python-startup.py [runs] [tree]``; ``tree`` (default
``generated/python``) is the folder holding the package, to compare another build of it.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "0"}},
}
DISCOVER = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "server/discover",
    "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}},
}


def serve() -> None:
    """A stdio server serving every generated version with one tool."""
    import asyncio

    from mcp_codegen import VERSION_MODULES
    from mcp_codegen.router import Served, create_router
    from mcp_codegen.stdio import serve_stdio

    tools = [{"name": "greet", "inputSchema": {"type": "object"}}]

    def greet(params: Any, context: object) -> dict[str, Any]:
        return {"content": [{"type": "text", "text": "Hello!"}]}

    served = Served({"tools/list": lambda p, c: {"tools": tools}, "tools/call": greet}, capabilities={"tools": {}})
    router = create_router(server_info={"name": "bench", "version": "0"}, versions=dict.fromkeys(VERSION_MODULES, served))
    asyncio.run(serve_stdio(router))


def first_answer(command: list[str], request: dict[str, Any], tree: str) -> float:
    env = {**os.environ, "PYTHONPATH": tree}
    start = time.perf_counter()
    child = subprocess.Popen(command, cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write((json.dumps(request) + "\n").encode())
    child.stdin.flush()
    line = child.stdout.readline()
    elapsed = time.perf_counter() - start
    child.stdin.close()
    child.wait()
    answer = json.loads(line)
    if "result" not in answer:
        raise SystemExit(f"no result: {line!r}")
    return elapsed


def main(argv: list[str]) -> None:
    if argv[:1] == ["serve"]:
        serve()
        return
    runs = int(argv[0]) if argv else 5
    tree = os.path.abspath(argv[1]) if len(argv) > 1 else os.path.join(ROOT, "generated", "python")
    python = sys.executable
    rows = [
        ("every version, legacy initialize", [python, "bench/python-startup.py", "serve"], INITIALIZE),
        ("every version, 2026-07-28 server/discover", [python, "bench/python-startup.py", "serve"], DISCOVER),
        ("conformance server, legacy initialize", [python, "test/conformance/server.py", "stdio"], INITIALIZE),
        ("conformance server, 2026-07-28 server/discover", [python, "test/conformance/server.py", "stdio"], DISCOVER),
    ]
    for name, command, request in rows:
        times = [first_answer(command, request, tree) for _ in range(runs)]
        print(f"{name}: median {statistics.median(times) * 1000:.0f} ms of {runs} (min {min(times) * 1000:.0f} ms)")


if __name__ == "__main__":
    main(sys.argv[1:])
