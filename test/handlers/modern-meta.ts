// What every 2026-07-28 request must carry in params._meta (RequestMetaObject's required keys).
export const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
} as const;
