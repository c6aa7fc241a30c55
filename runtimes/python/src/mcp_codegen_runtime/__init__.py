"""The Python runtime of mcp-codegen, hand-written: the rules, the dispatcher, the router and the transports.

Every generated Python tree carries a copy of each module of this package (all but this file) under the
same module name, beside its version modules and its own ``__init__``, which names the versions (the
router finds them through it). Checked here by ruff and pyright (``ruff.toml``, ``pyrightconfig.json``).
"""
