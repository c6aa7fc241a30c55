#!/usr/bin/env node
// The `mcp-codegen` executable: runs the CLI on this process. Everything else is in cli.ts.
// Run from dist/ inside a checkout of mcp-codegen, it first makes sure dist/ was built from the
// current generator/ sources; when it had to rebuild, it runs the command in a fresh process, since
// this one has already loaded modules of the old build.
import { spawnSync } from "node:child_process";
import { ensureFreshBuild } from "./build-stamp.js";

const rebuilt = ((): string | null => {
  try {
    return ensureFreshBuild();
  } catch (e) {
    process.stderr.write(`mcp-codegen: internal error: ${(e as Error).message}\n`);
    process.exitCode = 3;
    return null;
  }
})();
if (rebuilt !== null) {
  process.stderr.write(rebuilt);
  const again = spawnSync(process.execPath, process.argv.slice(1), { stdio: "inherit" });
  process.exitCode = again.status ?? 3;
} else if (process.exitCode === undefined) {
  const { main } = await import("./cli.js");
  process.exitCode = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd(), env: process.env });
}
