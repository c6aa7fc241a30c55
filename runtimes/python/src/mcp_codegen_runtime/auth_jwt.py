"""A ready access-token verifier for the resource-server role (``auth``): JWTs checked by PyJWT (signature against a
JWKS or a key, issuer, audience, expiry, clock tolerance), never by hand. PyJWT is an optional dependency of the
generated package (``pip install "pyjwt[crypto]"``); only this module imports it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from .auth import AuthInfo

ASYMMETRIC_ALGORITHMS = ("RS256", "RS384", "RS512", "ES256", "ES384", "ES512", "PS256", "PS384", "PS512", "EdDSA")
"""What a JWKS verifier accepts unless told otherwise (never "none", never a shared-secret algorithm)."""


def _scopes_of(claims: Mapping[str, Any]) -> tuple[str, ...]:
    scope = claims.get("scope", claims.get("scp"))
    if isinstance(scope, str):
        return tuple(s for s in scope.split(" ") if s)
    if isinstance(scope, list):
        return tuple(s for s in scope if isinstance(s, str))  # pyright: ignore[reportUnknownVariableType]
    return ()


def jwt_verifier(
    *,
    jwks_url: str | None = None,
    key: Any = None,
    issuer: str | Sequence[str] | None = None,
    audience: str | Sequence[str] | None = None,
    algorithms: Sequence[str] | None = None,
    clock_tolerance_seconds: float = 5,
) -> Callable[[str, Mapping[str, Any]], Awaitable[AuthInfo]]:
    """``verify_access_token`` for JWT access tokens (RFC 9068 claims: ``sub``, ``client_id``, ``scope``, ``aud``,
    ``exp``): give exactly one of ``jwks_url`` (the authorization server's ``jwks_uri``, fetched and cached by PyJWT)
    and ``key`` (a public key, a JWK as a mapping, or a PEM)."""
    if (jwks_url is None) == (key is None):
        raise ValueError("jwt_verifier: give exactly one of jwks_url and key")
    try:
        import jwt
    except ImportError as error:
        raise RuntimeError('jwt_verifier needs PyJWT with its crypto extra: pip install "pyjwt[crypto]"') from error
    allowed = list(algorithms) if algorithms is not None else list(ASYMMETRIC_ALGORITHMS)
    jwks = jwt.PyJWKClient(jwks_url) if jwks_url is not None else None
    fixed: Any = jwt.PyJWK(dict(key)).key if isinstance(key, Mapping) else key  # pyright: ignore[reportUnknownArgumentType]
    issuers = None if issuer is None else [issuer] if isinstance(issuer, str) else list(issuer)
    audiences = None if audience is None else [audience] if isinstance(audience, str) else list(audience)

    def verify(token: str) -> AuthInfo:
        signing = jwks.get_signing_key_from_jwt(token).key if jwks is not None else fixed
        claims: dict[str, Any] = jwt.decode(
            token,
            signing,
            algorithms=allowed,
            audience=audiences,
            issuer=issuers,
            leeway=clock_tolerance_seconds,
            options={"verify_aud": audiences is not None, "verify_iss": issuers is not None},
        )
        subject = claims.get("sub")
        client = claims.get("client_id", claims.get("azp", subject))
        aud = claims.get("aud")
        expires = claims.get("exp")
        return AuthInfo(
            token=token,
            client_id=client if isinstance(client, str) else "",
            scopes=_scopes_of(claims),
            subject=subject if isinstance(subject, str) else None,
            expires_at=float(expires) if isinstance(expires, (int, float)) else None,
            audience=aud if isinstance(aud, str) else tuple(a for a in aud if isinstance(a, str)) if isinstance(aud, list) else None,  # pyright: ignore[reportUnknownVariableType]
            extra={"claims": claims},
        )

    async def verify_access_token(token: str, scope: Mapping[str, Any]) -> AuthInfo:
        # A JWKS fetch is blocking I/O: it runs off the event loop.
        return await asyncio.to_thread(verify, token) if jwks is not None else verify(token)

    return verify_access_token
