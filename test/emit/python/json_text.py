"""Driver for hostile-input.test.ts: each JSON text of stdin's list read by the dispatcher's ``parse_json`` and by its
iterative reading alone, each answer the value as JSON text, or null where it raised ValueError."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable

from mcp_codegen import dispatcher


def read(parse: Callable[[str], object], text: str) -> str | None:
    try:
        return json.dumps(parse(text))
    except ValueError:
        return None


def main() -> None:
    texts: list[str] = json.loads(sys.stdin.read())
    iteratively = dispatcher._parse_iteratively  # pyright: ignore[reportPrivateUsage]
    sys.stdout.write(json.dumps([[read(dispatcher.parse_json, t), read(iteratively, t)] for t in texts]))


if __name__ == "__main__":
    main()
