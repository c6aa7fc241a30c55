// DPoP proofs (RFC 9449 §4) of the Python client (client_oauth.py's `DPoPKey`, made by dpop_proof.py), checked
// by an independent implementation: `jose` verifies each proof's signature with the public key its own `jwk` header
// carries, and the claims are compared with values computed here (the `ath` is node's SHA-256 of the token). The
// whole flow (token request proofs, the DPoP scheme, nonces from the authorization server and the MCP server) runs in
// the conformance suite's auth/dpop and auth/dpop-nonce scenarios against test/conformance/client.py
// (test/conformance/run.ts holds the Python client to them).
import { createHash } from "node:crypto";
import { decodeProtectedHeader, importJWK, jwtVerify, type JWK } from "jose";
import { describe, expect, it } from "vitest";
import { pythonJson } from "./support.js";

const job = { method: "get", url: "http://127.0.0.1:8123/mcp?session=1#part", token: "an.access.token", nonce: "n-42" };
const out = pythonJson<{ proofs: string[]; remembered: boolean[] }>("dpop_proof.py", job);
const ath = createHash("sha256").update(job.token, "ascii").digest("base64url");

async function verified(proof: string): Promise<{ header: ReturnType<typeof decodeProtectedHeader>; claims: Record<string, unknown> }> {
  const header = decodeProtectedHeader(proof);
  const { payload } = await jwtVerify(proof, await importJWK(header.jwk as JWK, "ES256"), { algorithms: ["ES256"], typ: "dpop+jwt" });
  return { header, claims: payload as Record<string, unknown> };
}

describe("a DPoP proof of the Python client", () => {
  it("is an ES256 JWT of type dpop+jwt, signed by the key its jwk header carries (public: no d)", async () => {
    for (const proof of out.proofs) {
      const { header } = await verified(proof);
      expect(header.alg).toBe("ES256");
      expect(header.typ).toBe("dpop+jwt");
      expect(Object.keys(header.jwk!).sort()).toEqual(["crv", "kty", "x", "y"]);
      expect(header.jwk).toMatchObject({ kty: "EC", crv: "P-256" });
    }
    // One key for all of them (a token is bound to it).
    expect(new Set(out.proofs.map((p) => JSON.stringify(decodeProtectedHeader(p).jwk))).size).toBe(1);
  });

  it("a token request's proof: htm POST, htu without query or fragment, iat now, no ath, no nonce", async () => {
    const { claims } = await verified(out.proofs[0]);
    expect(claims.htm).toBe("POST");
    expect(claims.htu).toBe("http://127.0.0.1:8123/mcp");
    expect(Math.abs((claims.iat as number) - Date.now() / 1000)).toBeLessThan(120);
    expect(claims).not.toHaveProperty("ath");
    expect(claims).not.toHaveProperty("nonce");
  });

  it("a request's proof: the method upper-cased and ath, the base64url SHA-256 of the access token", async () => {
    const { claims } = await verified(out.proofs[1]);
    expect(claims).toMatchObject({ htm: "GET", htu: "http://127.0.0.1:8123/mcp", ath });
    expect(claims).not.toHaveProperty("nonce");
  });

  it("carries the nonce the origin gave once remembered (a new nonce is news, the same one again is not)", async () => {
    expect(out.remembered).toEqual([true, false]);
    const { claims } = await verified(out.proofs[2]);
    expect(claims).toMatchObject({ htm: "GET", ath, nonce: job.nonce });
  });

  it("has a fresh jti each time", async () => {
    const jtis = await Promise.all(out.proofs.map(async (p) => (await verified(p)).claims.jti));
    for (const jti of jtis) expect(typeof jti).toBe("string");
    expect(new Set(jtis).size).toBe(out.proofs.length);
  });
});
