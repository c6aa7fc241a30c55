"""Driver for client-dpop.test.ts: DPoP proofs (RFC 9449) made by the Python client's ``client_oauth.DPoPKey``.

Input on stdin: ``{"method", "url", "token", "nonce"}``. Makes one key and, in order: a proof for a token request
(``POST`` to ``url``, no token), a proof for ``method`` ``url`` with ``token``, then (after a response of ``url``'s
origin carrying ``DPoP-Nonce: nonce``) the same again. Output: ``{"proofs": [...], "remembered": [...]}``, with what
``remember`` answered for that response and for a second one carrying the same nonce.
"""

from __future__ import annotations

import json
import sys
from typing import Any, cast

from mcp_codegen.client_oauth import DPoPKey


class _Response:
    def __init__(self, headers: dict[str, str]) -> None:
        self.headers = headers


job = cast(dict[str, Any], json.loads(sys.stdin.read()))
key = DPoPKey()
proofs = [key.proof("POST", job["url"]), key.proof(job["method"], job["url"], job["token"])]
remembered = [key.remember(job["url"], _Response({"dpop-nonce": job["nonce"]})), key.remember(job["url"], _Response({"dpop-nonce": job["nonce"]}))]
proofs.append(key.proof(job["method"], job["url"], job["token"]))
sys.stdout.write(json.dumps({"proofs": proofs, "remembered": remembered}))
