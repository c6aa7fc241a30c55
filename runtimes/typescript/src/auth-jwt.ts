// A ready access-token verifier for the resource-server role (./auth.ts): JWTs checked by `jose` (signature
// against a JWKS or a key, issuer, audience, expiry, clock tolerance), never by hand. An optional entry
// point (`runtime/auth-jwt`): it imports `jose`, an optional peer dependency of the generated package.
import { createRemoteJWKSet, jwtVerify, type JWTPayload, type JWTVerifyGetKey, type CryptoKey, type KeyObject } from "jose";
import type { AuthInfo } from "./auth.js";

export interface JwtVerifierOptions {
  /** The authorization server's JWKS (`jwks_uri`), fetched and cached by jose; or `key`. */
  jwksUrl?: string | URL;
  /** A verification key (or jose's key resolver) instead of a JWKS URL. */
  key?: CryptoKey | KeyObject | Uint8Array | JWTVerifyGetKey;
  /** Expected `iss`. */
  issuer?: string | string[];
  /** Expected `aud` (the canonical resource URI); the transport checks it again against `resourceMetadata.resource`. */
  audience?: string | string[];
  /** Accepted algorithms (default: what the key allows, as jose decides). */
  algorithms?: string[];
  /** Seconds of clock skew tolerated (default 5). */
  clockToleranceSeconds?: number;
}

function scopesOf(payload: JWTPayload): string[] {
  const scope = payload.scope ?? payload.scp;
  if (typeof scope === "string") return scope.split(" ").filter((s) => s !== "");
  if (Array.isArray(scope)) return scope.filter((s): s is string => typeof s === "string");
  return [];
}

/** `verifyAccessToken` for JWT access tokens (RFC 9068 claims: `sub`, `client_id`, `scope`, `aud`, `exp`). */
export function jwtVerifier(options: JwtVerifierOptions): (token: string) => Promise<AuthInfo> {
  if ((options.jwksUrl === undefined) === (options.key === undefined)) throw new Error("jwtVerifier: give exactly one of jwksUrl and key");
  const key = options.jwksUrl !== undefined ? createRemoteJWKSet(new URL(options.jwksUrl)) : options.key!;
  return async (token) => {
    const verified = await jwtVerify(token, key as Parameters<typeof jwtVerify>[1], {
      ...(options.issuer === undefined ? {} : { issuer: options.issuer }),
      ...(options.audience === undefined ? {} : { audience: options.audience }),
      ...(options.algorithms === undefined ? {} : { algorithms: options.algorithms }),
      clockTolerance: options.clockToleranceSeconds ?? 5,
    });
    const p = verified.payload;
    const clientId = typeof p.client_id === "string" ? p.client_id : typeof p.azp === "string" ? p.azp : typeof p.sub === "string" ? p.sub : "";
    return {
      token,
      clientId,
      ...(typeof p.sub === "string" ? { subject: p.sub } : {}),
      scopes: scopesOf(p),
      ...(typeof p.exp === "number" ? { expiresAt: p.exp } : {}),
      ...(p.aud === undefined ? {} : { audience: p.aud }),
      extra: { claims: p },
    };
  };
}
