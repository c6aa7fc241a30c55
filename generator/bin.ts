#!/usr/bin/env node
// The `mcp-codegen` executable: runs the CLI on this process. Everything else is in cli.ts.
// Run from dist/ inside a checkout of mcp-codegen, it first makes sure dist/ was built from the
// current generator/ sources (rebuilding when not), so `npm run generate` never runs stale code.
import { ensureFreshBuild } from "./build-stamp.js";

let fresh = true;
try {
  const rebuilt = ensureFreshBuild();
  if (rebuilt !== null) process.stderr.write(rebuilt);
} catch (e) {
  process.stderr.write(`mcp-codegen: internal error: ${(e as Error).message}\n`);
  process.exitCode = 3;
  fresh = false;
}
if (fresh) {
  const { main } = await import("./cli.js");
  process.exitCode = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd(), env: process.env });
}
