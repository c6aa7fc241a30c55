"""The resource-server role of the HTTP transport (the specification's Authorization section: OAuth 2.1, RFC 9728
Protected Resource Metadata, RFC 8707 resource indicators, RFC 6750 bearer tokens). Opt-in:
``create_asgi_app(router, auth=ResourceServer(...))``. This module decides, per request, what the
``Authorization`` header is worth, with the same answers as the TypeScript transport's ``auth`` option:

- no bearer token, or one ``verify_access_token`` refuses, expired, or issued for another resource than the
  server's canonical resource URI: 401 with ``WWW-Authenticate: Bearer resource_metadata="..."`` (and
  ``scope="..."`` naming the required scopes, ``error="invalid_token"`` when a token was sent);
- a valid token lacking a required scope: 403 with ``error="insufficient_scope"`` and ``scope="..."``;
- else the caller's ``AuthInfo``, which handlers see as ``context.auth`` (a mapping, ``AuthInfo.as_mapping``) and
  whose principal (the token's subject, else its client) legacy sessions and tasks are bound to.

``/.well-known/oauth-protected-resource`` (and its path-suffixed form) answers the metadata given here. Token
verification is the host's: ``verify_access_token``, or the ready JWT verifier of ``auth_jwt`` (PyJWT).
No dependency beyond the standard library.
"""

from __future__ import annotations

import inspect
import re
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit, urlunsplit

PROTECTED_RESOURCE_WELL_KNOWN = "/.well-known/oauth-protected-resource"

_DEFAULT_PORTS = {"http": 80, "https": 443}
_BEARER = re.compile(r"^Bearer +([A-Za-z0-9\-._~+/]+=*) *$", re.IGNORECASE)


@dataclass(frozen=True)
class AuthInfo:
    """What a verified access token says about its caller."""

    token: str
    """The access token as sent."""
    client_id: str
    """The OAuth client the token was issued to."""
    scopes: tuple[str, ...] = ()
    subject: str | None = None
    """The resource owner (``sub``), when the token names one."""
    expires_at: float | None = None
    """Expiry, in seconds since the epoch (as JWT ``exp``)."""
    resource: str | None = None
    """The resource the token was issued for (RFC 8707); it, or one of ``audience``, must be the server's."""
    audience: str | tuple[str, ...] | None = None
    extra: Mapping[str, Any] | None = None
    """Anything else the verifier wants handlers to see."""

    def as_mapping(self) -> dict[str, Any]:
        """The members that are set, as handlers see them in ``context.auth``."""
        out: dict[str, Any] = {"token": self.token, "client_id": self.client_id, "scopes": list(self.scopes)}
        optional: dict[str, object] = {
            "subject": self.subject,
            "expires_at": self.expires_at,
            "resource": self.resource,
            "audience": list(self.audience) if isinstance(self.audience, tuple) else self.audience,
            "extra": self.extra,
        }
        out.update((name, value) for name, value in optional.items() if value is not None)
        return out


Verifier = Callable[[str, Mapping[str, Any]], "AuthInfo | Awaitable[AuthInfo]"]


@dataclass(frozen=True)
class ResourceServer:
    """The ``auth`` option of ``create_asgi_app`` / ``serve_http``."""

    verify_access_token: Verifier
    """Verify a bearer token (signature, issuer, expiry as the host sees fit), given the token and the ASGI scope;
    raise to refuse it (the exception's message is named in the 401)."""
    resource_metadata: Mapping[str, Any]
    """Served at ``/.well-known/oauth-protected-resource``; its ``resource`` is the canonical resource URI every
    token is checked against."""
    required_scopes: Sequence[str] = ()
    """Scopes every request needs; named in 401's and 403's ``scope=``."""
    resource_metadata_url: str | None = None
    """Where the metadata is advertised (``resource_metadata=``). Default: the well-known path followed by the
    resource's path, on the resource's origin."""
    now: Callable[[], float] = field(default=time.time)
    """The clock (seconds since the epoch), for tests."""


@dataclass(frozen=True)
class AuthRefusal:
    """A request the resource server refuses: status, headers and the OAuth error body (RFC 6750)."""

    status: int
    headers: Mapping[str, str]
    body: Mapping[str, str]


def canonical_resource(uri: str) -> str | None:
    """A resource URI in the form tokens are compared in (as a WHATWG URL prints it for the common cases: scheme and
    host lower-cased, the default port dropped, an empty path as "/"), without its fragment and without the
    trailing slash of an empty path (RFC 8707, the specification's canonical form); None when it is no URL."""
    try:
        parts = urlsplit(uri)
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme == "" or parts.hostname is None:
        return None
    host = parts.hostname.lower()
    if ":" in host:
        host = f"[{host}]"
    netloc = host if port is None or _DEFAULT_PORTS.get(scheme) == port else f"{host}:{port}"
    if parts.username is not None:
        credentials = parts.username if parts.password is None else f"{parts.username}:{parts.password}"
        netloc = f"{credentials}@{netloc}"
    path = parts.path or "/"
    if path == "/" and parts.query == "":
        return f"{scheme}://{netloc}"
    return urlunsplit((scheme, netloc, path, parts.query, ""))


def resource_metadata_url(server: ResourceServer) -> str:
    """The metadata's advertised URL."""
    if server.resource_metadata_url is not None:
        return server.resource_metadata_url
    parts = urlsplit(str(server.resource_metadata["resource"]))
    path = "" if parts.path in ("", "/") else parts.path
    return f"{parts.scheme.lower()}://{parts.netloc}{PROTECTED_RESOURCE_WELL_KNOWN}{path}"


def resource_metadata_paths(server: ResourceServer) -> list[str]:
    """The paths the metadata is served at: the well-known path itself and the advertised form (RFC 9728 §3.1)."""
    paths = [PROTECTED_RESOURCE_WELL_KNOWN]
    advertised = urlsplit(resource_metadata_url(server)).path
    if advertised not in paths:
        paths.append(advertised)
    return paths


def principal_of(auth: AuthInfo | None) -> str | None:
    """The principal a task or session is bound to: the token's subject, else its client."""
    if auth is None:
        return None
    return f"sub:{auth.subject}" if auth.subject is not None else f"client:{auth.client_id}"


def _quoted(value: str) -> str:
    """An auth-param value as a quoted-string without the characters it cannot carry."""
    return '"' + re.sub(r'["\\\r\n]', "", value) + '"'


def _challenge(server: ResourceServer, error: tuple[str, str] | None, scopes: Sequence[str] | None) -> str:
    params: list[str] = []
    if error is not None:
        params += [f"error={_quoted(error[0])}", f"error_description={_quoted(error[1])}"]
    scope = list(scopes if scopes is not None else server.required_scopes)
    if scope:
        params.append(f"scope={_quoted(' '.join(scope))}")
    params.append(f"resource_metadata={_quoted(resource_metadata_url(server))}")
    return "Bearer " + ", ".join(params)


def _refusal(server: ResourceServer, status: int, code: str, description: str, scopes: Sequence[str] | None = None) -> AuthRefusal:
    header = _challenge(server, None, scopes) if status == 401 and code == "" else _challenge(server, (code, description), scopes)
    return AuthRefusal(status, {"www-authenticate": header}, {"error": code or "invalid_request", "error_description": description})


def audience_matches(auth: AuthInfo, resource: str) -> bool:
    """Whether the token was issued for ``resource`` (its ``resource``, or one of its audiences)."""
    wanted = canonical_resource(resource)
    audience = auth.audience
    named = [auth.resource, *([] if audience is None else [audience] if isinstance(audience, str) else audience)]
    return any(isinstance(n, str) and canonical_resource(n) == wanted for n in named)


async def authenticate(authorization: str | None, scope: Mapping[str, Any], server: ResourceServer) -> AuthInfo | AuthRefusal:
    """The caller of a request with this ``Authorization`` header, or why it is refused."""
    match = None if authorization is None else _BEARER.match(authorization)
    if match is None:
        if authorization is None:
            return _refusal(server, 401, "", "Unauthorized: a bearer token is required")
        return _refusal(server, 401, "invalid_request", "Unauthorized: the Authorization header is not a bearer token")
    try:
        verified = server.verify_access_token(match.group(1), scope)
        auth = await verified if inspect.isawaitable(verified) else verified
    except Exception as error:  # noqa: BLE001 - every refusal of the verifier is a 401
        why = str(error) or "the token was refused"
        return _refusal(server, 401, "invalid_token", f"Unauthorized: invalid token ({why})")
    if auth.expires_at is not None and auth.expires_at <= server.now():
        return _refusal(server, 401, "invalid_token", "Unauthorized: the token has expired")
    resource = str(server.resource_metadata["resource"])
    if not audience_matches(auth, resource):
        return _refusal(server, 401, "invalid_token", f"Unauthorized: the token was not issued for this resource ({canonical_resource(resource)})")
    missing = [s for s in server.required_scopes if s not in auth.scopes]
    if missing:
        return _refusal(server, 403, "insufficient_scope", f"Forbidden: the token lacks the scope {' '.join(missing)}", server.required_scopes)
    return auth
