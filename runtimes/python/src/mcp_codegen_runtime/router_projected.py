"""One handler set for every served version (issue 41): ``create_router(handlers=..., versions=[...])``.

Hand-written Python, the mirror of the TypeScript runtime's ``router-projected.ts``. The handlers are written
for the newest version served (the last of ``versions`` in the protocol order the generator decides,
``projections.ORDER``: legacy before modern, dated labels by date, labels that are no date after them) and see the negotiated version as
``context.protocol_version`` (each served version keeps its own dispatcher). Around each handler, per served
version: params are lifted to the newest version's shape (the version's params model as JSON: the handler
of an older version's request gets a dict) (a legacy session's request gets the modern ``_meta``
envelope from the session: its version, and the capabilities and client info declared at ``initialize``), -32602 naming the
pointer when they cannot be; the cache hints given once are put on an object result that carries none; the
result is projected onto the negotiated version before its normalizer and validator, -32603 naming the
pointer when it has no faithful value there. The capabilities, given once, are projected onto each version's
ServerCapabilities. The extensions (Tasks), given once, are served at every served modern version the tree has
a module of each for (never at a legacy version), their handlers wrapped as the core ones, except that a value
that is no result (a task handle) goes to the extension's ``resolve`` unprojected. Which members each version
declares is the generator's data (``projections.py``).
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from pydantic import BaseModel

from . import protocol
from .dispatcher import INTERNAL_ERROR, INVALID_PARAMS, Handler, JsonRpcError
from .projection import Refused, project_params, project_result, project_shape
from .router import (
    META_CLIENT_CAPABILITIES,
    META_PROTOCOL_VERSION,
    ConnectionInfo,
    Served,
    ServedExtension,
    _extension_module_name,  # pyright: ignore[reportPrivateUsage]
)

HandlerSet = Mapping[str, Handler] | Callable[[ConnectionInfo], Mapping[str, Handler]]


def _projections() -> tuple[Mapping[str, Mapping[str, Any]], Sequence[str]]:
    """The tree's projection data and its versions in protocol order."""
    module = importlib.import_module(f"{__package__ or __name__.rpartition('.')[0]}.projections")
    return cast(Mapping[str, Mapping[str, Any]], module.PROJECTIONS), cast(Sequence[str], module.ORDER)


Envelope = Callable[[], Mapping[str, Any]] | None
"""The modern ``_meta`` envelope of a lifted request, read from the connection when the request arrives (None: none)."""


def _wrap(method: str, handler: Handler, at: Mapping[str, Any], newest: Mapping[str, Any], hints: Mapping[str, Any] | None, envelope: Envelope) -> Handler:
    async def wrapped(params: Any, context: Any) -> Any:
        lifted = params
        if at is not newest and method in newest["results"]:
            # The dispatcher hands the version's params model: lifted as its JSON, the handler gets a dict.
            if isinstance(params, BaseModel):
                params = params.model_dump(mode="json", by_alias=True, exclude_unset=True)
            if envelope is not None:
                given: Mapping[str, Any] = cast(Mapping[str, Any], params) if isinstance(params, Mapping) else {}
                raw_meta: object = given.get("_meta")
                meta: Mapping[str, Any] = cast(Mapping[str, Any], raw_meta) if isinstance(raw_meta, Mapping) else {}
                params = {**given, "_meta": {**envelope(), **meta}}
            p = project_params(newest, method, params)
            if isinstance(p, Refused):
                raise JsonRpcError(INVALID_PARAMS, f"Invalid params: {method} of version {at['label']} has no faithful value at {newest['label']} (at {p.pointer or '(root)'}: {p.reason})")
            lifted = p.value
        result = handler(lifted, context)
        if inspect.isawaitable(result):
            result = await result
        if isinstance(result, BaseModel):
            result = result.model_dump(mode="json", by_alias=True, exclude_unset=True)
        elif result is not None and not isinstance(result, Mapping):
            # No result (a task handle): a served extension's ``resolve`` makes the result of it.
            return result
        if hints is not None and isinstance(result, Mapping):
            result = {**hints, **cast(Mapping[str, Any], result)}
        r = project_result(at, method, result if result is not None else {})
        if isinstance(r, Refused):
            raise JsonRpcError(INTERNAL_ERROR, f"Internal error: the {method} result has no faithful value at version {at['label']} (at {r.pointer or '(root)'}: {r.reason})")
        return r.value

    return wrapped


def _handlers_at(handlers: Mapping[str, Handler], at: Mapping[str, Any], newest: Mapping[str, Any], hints: Mapping[str, Any] | None, envelope: Envelope) -> dict[str, Handler]:
    return {method: (_wrap(method, h, at, newest, hints, envelope) if method in at["results"] else h) for method, h in handlers.items()}


class _ProjectedExtension:
    """A served extension as given, its handlers wrapped for one served version (the rest is the extension's)."""

    def __init__(self, inner: ServedExtension, handlers: Mapping[str, Handler]) -> None:
        self._inner = inner
        self.handlers = handlers

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


def served_from_one_set(
    versions: Sequence[str],
    eras: Mapping[str, str],
    handlers: HandlerSet,
    capabilities: Mapping[str, Any],
    cache_hints: Mapping[str, Any] | None = None,
    extensions: Mapping[str, ServedExtension] | None = None,
) -> dict[str, Served]:
    """The per-version ``Served`` of one handler set, written for the newest of ``versions`` (protocol order);
    ``extensions`` served at every modern one of them the tree has a module of each for."""
    projections, order = _projections()
    missing = [label for label in versions if label not in projections]
    if not versions or missing:
        raise ValueError(f"create_router: no generated version {', '.join(missing)}" if missing else "create_router: versions names no version")
    newest_label = max(versions, key=order.index)
    newest = projections[newest_label]
    given_extensions = dict(extensions or {})
    unserved = [i for i in given_extensions if not any(eras[label] == "modern" and _extension_module_name(label, i) is not None for label in versions)]
    if unserved:
        raise ValueError(f"create_router: no served modern version has extension {', '.join(unserved)} in the generated tree")
    served: dict[str, Served] = {}
    for label in versions:
        at = projections[label]
        caps: Any = capabilities
        if at.get("serverCapabilities") is not None:
            c = project_shape(at, at["serverCapabilities"], capabilities)
            if isinstance(c, Refused):
                raise ValueError(f"create_router: the capabilities have no faithful value at version {label} (at {c.pointer or '(root)'}: {c.reason})")
            caps = c.value
        lifts = eras[label] == "legacy" and eras[newest_label] == "modern"

        def factory(info: ConnectionInfo, at: Mapping[str, Any] = at, label: str = label, lifts: bool = lifts) -> Mapping[str, Handler]:
            # Read when a request arrives: the factory is called before the session's initialize is answered.
            def read_envelope(info: ConnectionInfo = info, label: str = label) -> Mapping[str, Any]:
                initialize = info.initialize_params or {}
                out: dict[str, Any] = {META_PROTOCOL_VERSION: label, META_CLIENT_CAPABILITIES: dict(initialize.get("capabilities") or {})}
                if initialize.get("clientInfo") is not None:
                    out[protocol.META_CLIENT_INFO] = initialize["clientInfo"]
                return out

            envelope: Envelope = read_envelope if lifts else None
            given = handlers(info) if callable(handlers) else handlers
            return _handlers_at(given, at, newest, cache_hints, envelope)

        if eras[label] == "legacy":
            served[label] = Served(handlers=factory, capabilities=caps)
        else:
            given = handlers if not callable(handlers) else handlers(ConnectionInfo())
            # The extensions this version has a module of, their handlers wrapped as the core ones.
            own = {
                i: cast(ServedExtension, _ProjectedExtension(e, _handlers_at(e.handlers, at, newest, cache_hints, None)))
                for i, e in given_extensions.items()
                if _extension_module_name(label, i) is not None
            }
            served[label] = Served(handlers=_handlers_at(given, at, newest, cache_hints, None), capabilities=caps, extensions=own)
    return served


__all__ = ["served_from_one_set"]
