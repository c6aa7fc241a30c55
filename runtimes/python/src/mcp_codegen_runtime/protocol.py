"""The protocol module the runtime's modules import as ``.protocol``.

In a generated tree that is the tree's own protocol.py, printed from the model beside the runtime's copies;
here, for the runtime's own checks (pyright, ruff), it is this module, which re-exports the project's
generated tree's. Not copied into the trees (generator/emit/python/paths.ts).
"""

from mcp_codegen.protocol import *  # noqa: F403
