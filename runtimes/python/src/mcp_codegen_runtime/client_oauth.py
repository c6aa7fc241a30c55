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
- refresh on 401 when there is a refresh token; at most ``max_attempts`` authorizations per request;
- ``grant="client_credentials"``: no user, the pre-registered client's own credentials (no PKCE, no redirect).
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
from typing import Any, Literal, cast
from urllib.parse import parse_qs, quote, urlencode, urljoin, urlsplit

UserAgent = Callable[[str, str], Awaitable[str]]
"""``user_agent(authorization_url, redirect_uri)``: the URL the user's browser is sent back to (with the code)."""


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


def _resource_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}{parts.path}"


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
        grant: Literal["authorization_code", "client_credentials"] = "authorization_code",
    ) -> None:
        self.redirect_uri = redirect_uri
        self.user_agent = user_agent
        self.client_id = client_id
        self.client_secret = client_secret
        self.client_issuer = client_issuer
        self.client_metadata_url = client_metadata_url
        self.client_name = client_name
        self.max_attempts = max_attempts
        self.grant = grant
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
                if tokens is not None:
                    request.headers["authorization"] = f"Bearer {tokens.access_token}"
                response = yield request
                for _ in range(flow.max_attempts):
                    if response.status_code not in (401, 403):
                        return
                    challenge = _challenge(response.headers.get("www-authenticate"))
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
                    request.headers["authorization"] = f"Bearer {refreshed.access_token}"
                    response = yield request

        return _Auth()

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

    def _client_auth(self, registration: Registration, metadata: dict[str, Any], form: dict[str, str]) -> dict[str, str]:
        """The token request's client authentication: adds to ``form``, returns the headers."""
        method = registration.auth_method
        if method is None:
            supported = metadata.get("token_endpoint_auth_methods_supported")
            supported = cast(list[str], supported) if isinstance(supported, list) else ["client_secret_basic"]
            method = "none" if registration.client_secret is None else "client_secret_basic" if "client_secret_basic" in supported else "client_secret_post"
        if method == "client_secret_basic" and registration.client_secret is not None:
            pair = f"{quote(registration.client_id, safe='')}:{quote(registration.client_secret, safe='')}"
            return {"authorization": "Basic " + base64.b64encode(pair.encode()).decode("ascii")}
        form["client_id"] = registration.client_id
        if method == "client_secret_post" and registration.client_secret is not None:
            form["client_secret"] = registration.client_secret
        return {}

    async def _token(self, client: Any, issuer: str, metadata: dict[str, Any], registration: Registration, form: dict[str, str], scopes: list[str]) -> Tokens:
        endpoint = metadata.get("token_endpoint")
        if not isinstance(endpoint, str):
            raise OAuthFlowError("metadata", f"{issuer} names no token endpoint")
        headers = self._client_auth(registration, metadata, form)
        response = await client.post(endpoint, data=form, headers={**headers, "accept": "application/json"})
        answer = _object(response.json()) if response.headers.get("content-type", "").startswith("application/json") else {}
        token = answer.get("access_token")
        if response.status_code != 200 or not isinstance(token, str):
            raise OAuthFlowError("token", f"the token endpoint answered {response.status_code}: {response.text[:300]}")
        expires = answer.get("expires_in")
        refresh = answer.get("refresh_token")
        return Tokens(token, refresh if isinstance(refresh, str) else None, time.time() + expires if isinstance(expires, (int, float)) else None, scopes, issuer)

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
            supported = metadata.get("scopes_supported")
            if isinstance(supported, list) and "offline_access" in supported and "offline_access" not in scopes and scopes:
                scopes.append("offline_access")
            resource = cast(str, resource_metadata["resource"])
            if self.grant == "client_credentials":
                # No user: the client's own credentials (pre-registered) are the grant.
                if self.client_id is None:
                    raise OAuthFlowError("registration", "the client-credentials grant needs a pre-registered client_id")
                registration = await self._client(client, issuer, metadata)
                form = {"grant_type": "client_credentials", "resource": resource}
                if scopes:
                    form["scope"] = " ".join(scopes)
                tokens = await self._token(client, issuer, metadata, registration, form, scopes)
                self.state.tokens[server] = tokens
                return tokens
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
