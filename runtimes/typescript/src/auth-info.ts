// Who called: what the resource-server role (auth.ts) hands to handlers, the router, the Tasks extension and
// onError. Types only and no platform names (no URL, no Node types), so report.ts, which consumers
// type-check without @types/node, can name it.

/** What a verified access token says about its caller. */
export interface AuthInfo {
  /** The access token as sent. */
  readonly token: string;
  /** The OAuth client the token was issued to. */
  readonly clientId: string;
  /** The resource owner (`sub`), when the token names one. */
  readonly subject?: string;
  /** The token's scopes. */
  readonly scopes: readonly string[];
  /** Expiry, in seconds since the epoch (as JWT `exp`). */
  readonly expiresAt?: number;
  /** The resource the token was issued for (RFC 8707), or its audience (`aud`): one must be the server's canonical resource URI. */
  readonly resource?: string;
  readonly audience?: string | readonly string[];
  /** Anything else the verifier wants handlers to see. */
  readonly extra?: Readonly<Record<string, unknown>>;
}
