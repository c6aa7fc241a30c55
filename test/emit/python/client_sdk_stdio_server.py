"""The official Python SDK's example everything-server (mcp 2.3.0, examples/servers/everything-server, on the
import path) served over the SDK's stdio transport instead of HTTP, for the Python client's tests."""

from mcp_everything_server.server import mcp  # pyright: ignore[reportMissingImports, reportUnknownVariableType]

mcp.run(transport="stdio")  # pyright: ignore[reportUnknownMemberType]
