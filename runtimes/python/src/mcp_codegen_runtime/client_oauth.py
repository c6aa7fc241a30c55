"""OAuth 2.1 for the Python client, as the MCP specification's Authorization section requires: ``OAuth``, given to
the HTTP transport (``HttpClientTransport(url, auth=OAuth(...))``, an ``httpx2.Auth`` there), that puts the bearer token on every request the HTTP transport sends and, when the server answers 401
(or 403 ``insufficient_scope``), runs the flow and sends the request again. The mirror of TypeScript's
client-oauth.ts; the generator copies it as ``client_oauth.py`` of the Python tree (httpx2, the ``client``
extra, imported where a function needs it).

- Protected Resource Metadata (RFC 9728): the challenge's ``resource_metadata`` URL, else the well-known URLs
  (path-inserted, then root); its ``resource`` must be the server's URL or a prefix of it on the same origin;
- authorization-server metadata (RFC 8414, then OpenID discovery, in the specification's order), its ``issuer``
  checked against the issuer the URL was built from;
- the client: pre-registered (optionally bound to one issuer), a Client ID Metadata Document URL when the server
  supports it, else Dynamic Client Registration; registrations are kept per issuer;
- PKCE (S256), ``state``, the ``resource`` parameter (RFC 8707) as the metadata publishes it, the ``iss``
  authorization-response parameter (RFC 9207);
- scopes: the challenge's ``scope``, else the resource's ``scopes_supported``, else none; on step-up the union with
  what was asked before; ``offline_access`` added when the authorization server lists it;
- ``client_secret_basic`` / ``client_secret_post`` / ``none`` at the token endpoint, as registered or advertised;
  ``private_key_jwt`` (RFC 7523 §2.2) when the pre-registered client is given a ``client_key`` (signed by PyJWT);
- refresh on 401 when there is a refresh token; at most ``max_attempts`` authorizations per request;
- ``grant="client_credentials"``: no user, the pre-registered client's own credentials (no PKCE, no redirect);
- ``grant="jwt_bearer"`` (RFC 7523) with an ``assertion`` the caller supplies: a workload identity token
  (workload identity federation), or an Identity Assertion JWT Authorization Grant that ``enterprise_assertion``
  obtains from an enterprise IdP by token exchange (RFC 8693); a refused grant is reported, never retried or
  replaced by another grant;
- DPoP (RFC 9449) where the authorization server lists ES256 in ``dpop_signing_alg_values_supported`` (or
  ``dpop=True``): every token request carries a proof, a DPoP-bound token is presented with the ``DPoP`` scheme
  and a fresh proof per request (``ath`` binds it to the token), and a ``use_dpop_nonce`` answer (authorization
  server or MCP server) is retried once with the nonce it gave. Proofs are JWTs signed by PyJWT with an ES256
  key of ``cryptography`` (the ``jwt`` extra), imported when DPoP is used.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import secrets
import time
from collections.abc import AsyncGenerator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Final, Literal, cast
from urllib.parse import parse_qs, quote, urlencode, urljoin, urlsplit

UserAgent = Callable[[str, str], Awaitable[str]]
"""``user_agent(authorization_url, redirect_uri)``: the URL the user's browser is sent back to (with the code)."""

JWT_BEARER: Final = "urn:ietf:params:oauth:grant-type:jwt-bearer"
CLIENT_ASSERTION_TYPE: Final = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
TOKEN_EXCHANGE: Final = "urn:ietf:params:oauth:grant-type:token-exchange"
ID_TOKEN_TYPE: Final = "urn:ietf:params:oauth:token-type:id_token"
ID_JAG_TYPE: Final = "urn:ietf:params:oauth:token-type:id-jag"
DPOP_NONCE_ERROR: Final = "use_dpop_nonce"


@dataclass(frozen=True)
class AssertionTarget:
    """Who a JWT-bearer assertion is made for."""

    issuer: str
    """The authorization server's issuer identifier (the assertion's audience)."""
    resource: str
    """The protected resource, as its metadata publishes it."""
    scopes: tuple[str, ...]
    """The scopes the client asks for (empty for none)."""


Assertion = str | Callable[[AssertionTarget], Awaitable[str]]
"""The ``jwt_bearer`` grant's assertion (RFC 7523 §2.1): a JWT, or a function making one for its target."""


class OAuthFlowError(Exception):
    """The flow could not give a token: ``kind`` says where (resource_metadata, resource_mismatch, metadata,
    issuer, registration, authorization, state, token)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


@dataclass
class Tokens:
    access_token: str
    refresh_token: str | None
    expires_at: float | None
    scopes: list[str]
    issuer: str
    token_type: str = "Bearer"
    """``Bearer`` or ``DPoP``, as the token endpoint said it (case kept); a ``DPoP`` token is sent with proofs."""


@dataclass
class Registration:
    client_id: str
    client_secret: str | None = None
    auth_method: str | None = None


@dataclass
class _State:
    tokens: dict[str, Tokens] = field(default_factory=lambda: {})
    clients: dict[str, Registration] = field(default_factory=lambda: {})


_LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1"})


class _Unhelpful(Exception):
    """A step-up that would ask for nothing new: the 403 is the answer."""


def _object(value: object) -> dict[str, Any]:
    return cast(dict[str, Any], value) if isinstance(value, dict) else {}


def _challenge(header: str | None) -> dict[str, str]:
    """The Bearer challenge's parameters (RFC 6750) of a WWW-Authenticate header."""
    if header is None:
        return {}
    at = re.search(r"(?i)\b(?:bearer|dpop)\b", header)
    if at is None:
        return {}
    return {k.lower(): v if v is not None and v != "" else w for k, v, w in re.findall(r'([A-Za-z_]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))', header[at.end() :])}


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _basic(client_id: str, secret: str) -> str:
    """``client_secret_basic``'s Authorization header value."""
    pair = f"{quote(client_id, safe='')}:{quote(secret, safe='')}"
    return "Basic " + base64.b64encode(pair.encode()).decode("ascii")


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def _error_code(response: Any) -> str | None:
    """The OAuth ``error`` of a JSON error answer (RFC 6749 §5.2), else None."""
    try:
        error = _object(json.loads(response.text)).get("error")
    except ValueError:
        return None
    return error if isinstance(error, str) else None


class DPoPKey:
    """The ES256 key DPoP proofs (RFC 9449) are signed with, and the nonces servers asked for (per origin).

    ``private_key``: a P-256 private key of ``cryptography`` (a token is bound to it); default: one made here."""

    def __init__(self, private_key: Any = None) -> None:
        from cryptography.hazmat.primitives.asymmetric import ec
        from jwt.algorithms import ECAlgorithm

        self._key: Any = private_key if private_key is not None else ec.generate_private_key(ec.SECP256R1())
        self.jwk: dict[str, Any] = dict(ECAlgorithm.to_jwk(self._key.public_key(), as_dict=True))
        """The public key, as the proofs' ``jwk`` header carries it."""
        self.nonces: dict[str, str] = {}
        """The last ``DPoP-Nonce`` each origin gave."""

    def proof(self, method: str, url: str, access_token: str | None = None) -> str:
        """A fresh proof for one request: ``htm``, ``htu`` (no query or fragment), ``iat``, a new ``jti``, the
        origin's nonce if it gave one, and ``ath`` (the token's SHA-256) when a token goes with it."""
        import jwt

        claims: dict[str, Any] = {"jti": _b64url(secrets.token_bytes(16)), "htm": method.upper(), "htu": _resource_of(url), "iat": int(time.time())}
        nonce = self.nonces.get(_origin(url))
        if nonce is not None:
            claims["nonce"] = nonce
        if access_token is not None:
            claims["ath"] = _b64url(hashlib.sha256(access_token.encode("ascii")).digest())
        return jwt.encode(claims, self._key, algorithm="ES256", headers={"typ": "dpop+jwt", "jwk": self.jwk})

    def remember(self, url: str, response: Any) -> bool:
        """Keep the ``DPoP-Nonce`` a response of ``url``'s origin carries; True when it is a new one."""
        nonce = response.headers.get("dpop-nonce")
        if not isinstance(nonce, str) or nonce == "" or self.nonces.get(_origin(url)) == nonce:
            return False
        self.nonces[_origin(url)] = nonce
        return True


def _resource_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}{parts.path}"


def enterprise_assertion(
    *, token_endpoint: str, id_token: str | Callable[[], Awaitable[str]], client_id: str, client_secret: str | None = None
) -> Callable[[AssertionTarget], Awaitable[str]]:
    """Enterprise-managed authorization: an ``assertion`` for the ``jwt_bearer`` grant that exchanges the user's ID
    token at the enterprise IdP's ``token_endpoint`` (RFC 8693) for an Identity Assertion JWT Authorization Grant
    (ID-JAG) whose audience is the MCP server's authorization server and whose resource is the MCP server.
    ``client_id`` (and ``client_secret`` for a confidential client) is this client at the IdP."""

    async def make(target: AssertionTarget) -> str:
        import httpx2

        subject = id_token if isinstance(id_token, str) else await id_token()
        form = {
            "grant_type": TOKEN_EXCHANGE,
            "requested_token_type": ID_JAG_TYPE,
            "audience": target.issuer,
            "resource": target.resource,
            "subject_token": subject,
            "subject_token_type": ID_TOKEN_TYPE,
        }
        if target.scopes:
            form["scope"] = " ".join(target.scopes)
        headers = {"accept": "application/json"}
        if client_secret is None:
            form["client_id"] = client_id
        else:
            headers["authorization"] = _basic(client_id, client_secret)
        async with httpx2.AsyncClient() as client:
            response = await client.post(token_endpoint, data=form, headers=headers)
        try:
            answer = _object(json.loads(response.text))
        except ValueError:
            answer = {}
        token = answer.get("access_token")
        if response.status_code != 200 or not isinstance(token, str):
            raise OAuthFlowError("token", f"the IdP token endpoint {token_endpoint} refused the token exchange: {response.status_code} {response.text[:300]}")
        # An ID-JAG is not an access token: its token_type is "N_A" (RFC 8693 §2.2.1).
        if answer.get("issued_token_type") != ID_JAG_TYPE:
            raise OAuthFlowError("token", f"the IdP issued {answer.get('issued_token_type')!r}, not an ID-JAG ({ID_JAG_TYPE})")
        return token

    return make


def _covers(resource: str, server: str) -> bool:
    a, b = urlsplit(resource), urlsplit(server)
    if (a.scheme, a.netloc) != (b.scheme, b.netloc):
        return False
    path = a.path.rstrip("/")
    return b.path == a.path or b.path.startswith(path + "/") or path == ""


async def follow_redirects(authorization_url: str, redirect_uri: str) -> str:
    """A headless user agent: fetch the authorization URL, following redirects until one goes to ``redirect_uri``."""
    import httpx2

    url = authorization_url
    async with httpx2.AsyncClient() as client:
        for _ in range(5):
            response = await client.get(url, follow_redirects=False)
            location = response.headers.get("location")
            if location is None:
                raise OAuthFlowError("authorization", f"the authorization endpoint answered {response.status_code} without a redirect")
            location = str(httpx2.URL(url).join(location))
            if location.startswith(redirect_uri):
                return location
            url = location
    raise OAuthFlowError("authorization", "too many redirects before the redirect URI")


class OAuth:
    """Bearer tokens for the HTTP transport: ``HttpClientTransport(url, auth=OAuth(...))`` (or
    ``httpx2.AsyncClient(auth=oauth.httpx_auth())`` for a client of one's own)."""

    def __init__(
        self,
        *,
        redirect_uri: str,
        user_agent: UserAgent = follow_redirects,
        client_id: str | None = None,
        client_secret: str | None = None,
        client_issuer: str | None = None,
        client_metadata_url: str | None = None,
        client_name: str = "mcp-codegen client",
        max_attempts: int = 3,
        grant: Literal["authorization_code", "client_credentials", "jwt_bearer"] = "authorization_code",
        assertion: Assertion | None = None,
        dpop: bool | None = None,
        dpop_key: Any = None,
        client_key: Any = None,
        client_key_alg: str = "ES256",
    ) -> None:
        """``grant``: ``authorization_code`` (a user authorizes through ``user_agent``), ``client_credentials`` (the
        pre-registered client on its own behalf) or ``jwt_bearer`` (with ``assertion``). ``dpop``: True always asks
        for DPoP-bound tokens, False never, None when the authorization server lists ES256. ``dpop_key``: the P-256
        private key (``cryptography``) proofs are signed with; default: one made on first use, for this object's life.
        ``client_key``: the pre-registered client's private key (``cryptography``, or PEM text) for ``private_key_jwt``
        at the token endpoint, signed with ``client_key_alg``; its assertion's audience is the issuer."""
        self.redirect_uri = redirect_uri
        self.user_agent = user_agent
        self.client_id = client_id
        self.client_secret = client_secret
        self.client_issuer = client_issuer
        self.client_metadata_url = client_metadata_url
        self.client_name = client_name
        self.max_attempts = max_attempts
        self.grant = grant
        self.assertion = assertion
        self.dpop = dpop
        self.dpop_key = dpop_key
        self.client_key = client_key
        self.client_key_alg = client_key_alg
        self._dpop: DPoPKey | None = None
        self.state = _State()
        """The tokens (per protected resource) and registrations (per issuer) obtained, in this process's memory."""

    def httpx_auth(self) -> Any:
        """This flow as an ``httpx2.Auth`` (httpx2 imported here)."""
        import httpx2

        flow = self

        class _Auth(httpx2.Auth):
            async def async_auth_flow(self, request: httpx2.Request) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
                server = _resource_of(str(request.url))
                tokens = flow.state.tokens.get(server)
                flow._present(request, tokens)
                response = yield request
                nonce_retried = False
                attempts = 0
                while True:
                    if flow._dpop is not None:
                        flow._dpop.remember(str(request.url), response)
                    if response.status_code not in (401, 403):
                        return
                    challenge = _challenge(response.headers.get("www-authenticate"))
                    sent = flow.state.tokens.get(server)
                    if challenge.get("error") == DPOP_NONCE_ERROR and sent is not None and sent.token_type.lower() == "dpop" and not nonce_retried:
                        # The MCP server asks for its nonce (now kept): the same request once more with a proof carrying it.
                        nonce_retried = True
                        await response.aread()
                        flow._present(request, sent)
                        response = yield request
                        continue
                    if attempts >= flow.max_attempts:
                        return
                    attempts += 1
                    if response.status_code == 403 and challenge.get("error") != "insufficient_scope":
                        return
                    await response.aread()
                    tokens = flow.state.tokens.get(server)
                    refreshed = None
                    if response.status_code == 401 and tokens is not None and tokens.refresh_token is not None:
                        refreshed = await flow.refresh(server, tokens)
                    if refreshed is None:
                        try:
                            refreshed = await flow.authorize(server, challenge, step_up=response.status_code == 403)
                        except _Unhelpful:
                            return
                    flow._present(request, refreshed)
                    response = yield request

        return _Auth()

    def _dpop_for(self, metadata: dict[str, Any]) -> DPoPKey | None:
        """The DPoP key (made once) when tokens from this authorization server are to be DPoP-bound, else None."""
        if self.dpop is False:
            return None
        algorithms = metadata.get("dpop_signing_alg_values_supported")
        if self.dpop is not True and not (isinstance(algorithms, list) and "ES256" in algorithms):
            return None
        if self._dpop is None:
            self._dpop = DPoPKey(self.dpop_key)
        return self._dpop

    def _present(self, request: Any, tokens: Tokens | None) -> None:
        """Put ``tokens`` on ``request``: a bearer token as is, a DPoP-bound one with a fresh proof."""
        if tokens is None:
            return
        if tokens.token_type.lower() != "dpop":
            request.headers["authorization"] = f"Bearer {tokens.access_token}"
            return
        if self._dpop is None:
            raise OAuthFlowError("token", "a DPoP-bound token is stored but this OAuth has no DPoP key (pass the key it is bound to as dpop_key)")
        request.headers["authorization"] = f"DPoP {tokens.access_token}"
        request.headers["dpop"] = self._dpop.proof(request.method, str(request.url), tokens.access_token)

    async def _get_json(self, client: Any, url: str) -> tuple[int, dict[str, Any]]:
        response = await client.get(url, headers={"accept": "application/json"}, follow_redirects=False)
        if response.status_code != 200:
            return response.status_code, {}
        try:
            return 200, _object(json.loads(response.text))
        except ValueError:
            return response.status_code, {}

    async def _protected_resource(self, client: Any, server: str, challenge: dict[str, str]) -> dict[str, Any]:
        parts = urlsplit(server)
        origin = f"{parts.scheme}://{parts.netloc}"
        candidates: list[str] = []
        if "resource_metadata" in challenge:
            candidates.append(urljoin(server, challenge["resource_metadata"]))
        if parts.path not in ("", "/"):
            candidates.append(f"{origin}/.well-known/oauth-protected-resource{parts.path}")
        candidates.append(f"{origin}/.well-known/oauth-protected-resource")
        for url in candidates:
            status, document = await self._get_json(client, url)
            if status != 200:
                continue
            resource = document.get("resource")
            if not isinstance(resource, str):
                raise OAuthFlowError("resource_metadata", f"the protected resource metadata at {url} names no resource")
            if not _covers(resource, server):
                raise OAuthFlowError("resource_mismatch", f"the protected resource metadata names {resource}, not this server ({server})")
            return document
        raise OAuthFlowError("resource_metadata", f"no protected resource metadata for {server} (tried {', '.join(candidates)})")

    async def _authorization_server(self, client: Any, issuer: str) -> dict[str, Any]:
        parts = urlsplit(issuer)
        origin = f"{parts.scheme}://{parts.netloc}"
        path = parts.path.rstrip("/")
        if path:
            urls = [f"{origin}/.well-known/oauth-authorization-server{path}", f"{origin}/.well-known/openid-configuration{path}", f"{origin}{path}/.well-known/openid-configuration"]
        else:
            urls = [f"{origin}/.well-known/oauth-authorization-server", f"{origin}/.well-known/openid-configuration"]
        for url in urls:
            status, document = await self._get_json(client, url)
            if status != 200:
                continue
            if document.get("issuer") != issuer:
                raise OAuthFlowError("issuer", f"the authorization server metadata at {url} names issuer {document.get('issuer')!r}, not {issuer}")
            return document
        raise OAuthFlowError("metadata", f"no authorization server metadata for {issuer} (tried {', '.join(urls)})")

    async def _client(self, client: Any, issuer: str, metadata: dict[str, Any]) -> Registration:
        known = self.state.clients.get(issuer)
        if known is not None:
            return known
        if self.client_id is not None and (self.client_issuer is None or self.client_issuer == issuer):
            registration = Registration(self.client_id, self.client_secret)
        elif self.client_metadata_url is not None and metadata.get("client_id_metadata_document_supported") is True:
            registration = Registration(self.client_metadata_url, None, "none")
        else:
            endpoint = metadata.get("registration_endpoint")
            if not isinstance(endpoint, str):
                raise OAuthFlowError("registration", f"{issuer} offers no dynamic client registration and no client is registered for it")
            supported = metadata.get("token_endpoint_auth_methods_supported")
            offered = cast(list[object], supported) if isinstance(supported, list) else ["client_secret_basic"]
            method = next((m for m in ("client_secret_basic", "client_secret_post", "none") if m in offered), offered[0] if offered else "client_secret_basic")
            body = {
                "redirect_uris": [self.redirect_uri],
                "client_name": self.client_name,
                "grant_types": ["authorization_code", "refresh_token"],
                "response_types": ["code"],
                "token_endpoint_auth_method": method,
                # SEP-837: a loopback redirect is a native application's.
                "application_type": "native" if urlsplit(self.redirect_uri).hostname in _LOOPBACK else "web",
            }
            response = await client.post(endpoint, json=body)
            if response.status_code not in (200, 201):
                raise OAuthFlowError("registration", f"dynamic client registration at {endpoint} answered {response.status_code}")
            answer = _object(response.json())
            registration = Registration(str(answer["client_id"]), cast(str | None, answer.get("client_secret")), cast(str | None, answer.get("token_endpoint_auth_method")))
        self.state.clients[issuer] = registration
        return registration

    def _client_auth(self, issuer: str, registration: Registration, metadata: dict[str, Any], form: dict[str, str]) -> dict[str, str]:
        """The token request's client authentication: adds to ``form``, returns the headers."""
        if self.client_key is not None and registration.client_id == self.client_id:
            # private_key_jwt (RFC 7523 §2.2): a short-lived assertion by the client about itself, for this issuer.
            import jwt

            now = int(time.time())
            claims = {"iss": registration.client_id, "sub": registration.client_id, "aud": issuer, "jti": _b64url(secrets.token_bytes(16)), "iat": now, "exp": now + 60}
            form["client_id"] = registration.client_id
            form["client_assertion_type"] = CLIENT_ASSERTION_TYPE
            form["client_assertion"] = jwt.encode(claims, self.client_key, algorithm=self.client_key_alg)
            return {}
        method = registration.auth_method
        if method is None:
            supported = metadata.get("token_endpoint_auth_methods_supported")
            supported = cast(list[str], supported) if isinstance(supported, list) else ["client_secret_basic"]
            method = "none" if registration.client_secret is None else "client_secret_basic" if "client_secret_basic" in supported else "client_secret_post"
        if method == "client_secret_basic" and registration.client_secret is not None:
            return {"authorization": _basic(registration.client_id, registration.client_secret)}
        form["client_id"] = registration.client_id
        if method == "client_secret_post" and registration.client_secret is not None:
            form["client_secret"] = registration.client_secret
        return {}

    async def _token(self, client: Any, issuer: str, metadata: dict[str, Any], registration: Registration, form: dict[str, str], scopes: list[str]) -> Tokens:
        endpoint = metadata.get("token_endpoint")
        if not isinstance(endpoint, str):
            raise OAuthFlowError("metadata", f"{issuer} names no token endpoint")
        headers = {**self._client_auth(issuer, registration, metadata, form), "accept": "application/json"}
        dpop = self._dpop_for(metadata)
        response = await client.post(endpoint, data=form, headers=headers if dpop is None else {**headers, "dpop": dpop.proof("POST", endpoint)})
        if dpop is not None and dpop.remember(endpoint, response) and response.status_code in (400, 401) and _error_code(response) == DPOP_NONCE_ERROR:
            # The authorization server asks for its nonce (now kept): the request once more with a proof carrying it.
            response = await client.post(endpoint, data=form, headers={**headers, "dpop": dpop.proof("POST", endpoint)})
            dpop.remember(endpoint, response)
        answer = _object(response.json()) if response.headers.get("content-type", "").startswith("application/json") else {}
        token = answer.get("access_token")
        if response.status_code != 200 or not isinstance(token, str):
            raise OAuthFlowError("token", f"the token endpoint answered {response.status_code}: {response.text[:300]}")
        expires = answer.get("expires_in")
        refresh = answer.get("refresh_token")
        token_type = answer.get("token_type")
        return Tokens(
            token,
            refresh if isinstance(refresh, str) else None,
            time.time() + expires if isinstance(expires, (int, float)) else None,
            scopes,
            issuer,
            token_type if isinstance(token_type, str) else "Bearer",
        )

    async def _without_user(
        self, client: Any, issuer: str, metadata: dict[str, Any], registration: Registration, server: str, form: dict[str, str], scopes: list[str]
    ) -> Tokens:
        """A grant no user takes part in (client credentials, JWT bearer): one token request asking ``scopes``, kept for ``server``."""
        if scopes:
            form["scope"] = " ".join(scopes)
        tokens = await self._token(client, issuer, metadata, registration, form, scopes)
        self.state.tokens[server] = tokens
        return tokens

    async def refresh(self, server: str, tokens: Tokens) -> Tokens | None:
        """New tokens from the refresh token, else None."""
        import httpx2

        async with httpx2.AsyncClient() as client:
            try:
                metadata = await self._authorization_server(client, tokens.issuer)
                registration = await self._client(client, tokens.issuer, metadata)
                form = {"grant_type": "refresh_token", "refresh_token": cast(str, tokens.refresh_token), "resource": server}
                fresh = await self._token(client, tokens.issuer, metadata, registration, form, tokens.scopes)
            except (OAuthFlowError, ValueError, KeyError):
                return None
        if fresh.refresh_token is None:
            fresh.refresh_token = tokens.refresh_token
        self.state.tokens[server] = fresh
        return fresh

    async def authorize(self, server: str, challenge: dict[str, str], *, step_up: bool) -> Tokens:
        """New tokens for ``server`` by the whole flow (``challenge``: the WWW-Authenticate parameters)."""
        import httpx2

        async with httpx2.AsyncClient() as client:
            resource_metadata = await self._protected_resource(client, server, challenge)
            servers = resource_metadata.get("authorization_servers")
            if not isinstance(servers, list) or not servers or not isinstance(servers[0], str):
                raise OAuthFlowError("resource_metadata", "the protected resource metadata names no authorization server")
            issuer = servers[0]
            metadata = await self._authorization_server(client, issuer)
            previous = self.state.tokens.get(server)
            if "scope" in challenge:
                scopes = challenge["scope"].split()
            elif isinstance(resource_metadata.get("scopes_supported"), list):
                scopes = [str(s) for s in cast(list[object], resource_metadata["scopes_supported"])]
            else:
                scopes = []
            if step_up and previous is not None:
                if all(s in previous.scopes for s in scopes):
                    raise _Unhelpful
                scopes = list(dict.fromkeys([*previous.scopes, *scopes]))
            resource = cast(str, resource_metadata["resource"])
            if self.grant == "jwt_bearer":
                # The caller's assertion is the grant (RFC 7523); a refusal is final (raised, not retried).
                if self.assertion is None:
                    raise OAuthFlowError("registration", "the jwt_bearer grant needs an assertion")
                registration = await self._client(client, issuer, metadata)
                assertion = self.assertion if isinstance(self.assertion, str) else await self.assertion(AssertionTarget(issuer, resource, tuple(scopes)))
                return await self._without_user(client, issuer, metadata, registration, server, {"grant_type": JWT_BEARER, "assertion": assertion, "resource": resource}, scopes)
            supported = metadata.get("scopes_supported")
            if isinstance(supported, list) and "offline_access" in supported and "offline_access" not in scopes and scopes:
                scopes.append("offline_access")
            if self.grant == "client_credentials":
                # No user: the client's own credentials (pre-registered) are the grant.
                if self.client_id is None:
                    raise OAuthFlowError("registration", "the client-credentials grant needs a pre-registered client_id")
                registration = await self._client(client, issuer, metadata)
                return await self._without_user(client, issuer, metadata, registration, server, {"grant_type": "client_credentials", "resource": resource}, scopes)
            methods = metadata.get("code_challenge_methods_supported")
            if not isinstance(methods, list) or "S256" not in methods:
                raise OAuthFlowError("metadata", f"the authorization server {issuer} does not advertise PKCE S256 (code_challenge_methods_supported: {methods!r})")
            registration = await self._client(client, issuer, metadata)
            verifier = _b64url(secrets.token_bytes(32))
            state = _b64url(secrets.token_bytes(16))
            endpoint = metadata.get("authorization_endpoint")
            if not isinstance(endpoint, str):
                raise OAuthFlowError("metadata", f"{issuer} names no authorization endpoint")
            query = {
                "response_type": "code",
                "client_id": registration.client_id,
                "redirect_uri": self.redirect_uri,
                "code_challenge": _b64url(hashlib.new("SHA256", verifier.encode("ascii")).digest()),  # S256
                "code_challenge_method": "S256",
                "state": state,
                "resource": resource,
            }
            if scopes:
                query["scope"] = " ".join(scopes)
            callback = await self.user_agent(endpoint + ("&" if "?" in endpoint else "?") + urlencode(query), self.redirect_uri)
            params = {k: v[0] for k, v in parse_qs(urlsplit(callback).query).items()}
            if params.get("state") != state:
                raise OAuthFlowError("state", "the authorization response's state is not the one sent")
            iss = params.get("iss")
            if metadata.get("authorization_response_iss_parameter_supported") is True and iss is None:
                raise OAuthFlowError("issuer", "the authorization server promises an iss parameter, and the response has none")
            if iss is not None and iss != issuer:
                raise OAuthFlowError("issuer", f"the authorization response names issuer {iss!r}, not {issuer}")
            if "error" in params or "code" not in params:
                raise OAuthFlowError("authorization", f"the authorization failed: {params.get('error', 'no code')}")
            form = {"grant_type": "authorization_code", "code": params["code"], "redirect_uri": self.redirect_uri, "code_verifier": verifier, "resource": resource}
            tokens = await self._token(client, issuer, metadata, registration, form, scopes)
        self.state.tokens[server] = tokens
        return tokens
