// What type-checking costs a consumer: a new project (strict, `skipLibCheck: false`) with the built
// generated-code package (`mcp-codegen-generated`, dist/generated-package) installed, one file serving a version through the router, beside one file using the official
// SDK's `Client` alone. Whole `tsc` processes, interleaved; time and peak RSS from /usr/bin/time.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";

const TIME = "/usr/bin/time";

/** The consumer files: the router serving one version with a handler, and the SDK client alone. */
const SOURCES = {
  generated: `import { createServerRouter } from "mcp-codegen-generated/router";
import type { CallToolResult, ServerHandlers } from "mcp-codegen-generated/2025-11-25";

const handlers: ServerHandlers = {
  "tools/call": async (params): Promise<CallToolResult> => ({ content: [{ type: "text", text: params.name }] }),
};
export const router = createServerRouter({
  serverInfo: { name: "consumer", version: "1.0.0" },
  versions: { "2025-11-25": { handlers, capabilities: { tools: {} } } },
});
`,
  sdk: `import { Client } from "@modelcontextprotocol/sdk/client/index.js";

export const client = new Client({ name: "consumer", version: "1.0.0" });
`,
};

/**
 * The options both files are checked with. `DOM` because the SDK's declarations name fetch types
 * (`HeadersInit`) that `@types/node` 20 lacks: without it the SDK file does not type-check at all.
 */
const COMPILER_OPTIONS = {
  target: "ES2022",
  module: "NodeNext",
  moduleResolution: "NodeNext",
  lib: ["ES2022", "DOM"],
  types: ["node"],
  strict: true,
  skipLibCheck: false,
  noEmit: true,
};

export interface TscRun {
  ms: number;
  maxRssKb: number;
}

/**
 * A consumer project in a temporary folder: the generated-code package as `npm run build` makes it
 * (dist/generated-package) installed as `mcp-codegen-generated`, and zod, the SDK and @types/node
 * linked from this checkout.
 */
export function consumerProject(root: string): string {
  const built = path.join(root, "dist", "generated-package");
  if (!existsSync(path.join(built, "package.json"))) throw new Error(`${built} is missing: run npm run build first`);
  const dir = mkdtempSync(path.join(tmpdir(), "mcp-codegen-consumer-"));
  const modules = path.join(dir, "node_modules");
  cpSync(built, path.join(modules, "mcp-codegen-generated"), { recursive: true });
  for (const dep of ["zod", "@modelcontextprotocol/sdk", "@types/node"]) {
    const target = path.join(root, "node_modules", dep);
    mkdirSync(path.dirname(path.join(modules, dep)), { recursive: true });
    symlinkSync(target, path.join(modules, dep), "dir");
  }
  for (const [name, source] of Object.entries(SOURCES)) {
    writeFileSync(path.join(dir, `${name}.ts`), source);
    writeFileSync(path.join(dir, `tsconfig.${name}.json`), JSON.stringify({ compilerOptions: COMPILER_OPTIONS, files: [`${name}.ts`] }, null, 2));
  }
  return dir;
}

/** One whole `tsc -p tsconfig.<name>.json` in the consumer project: wall time and peak RSS. It must pass. */
export function checkConsumer(root: string, dir: string, name: keyof typeof SOURCES): TscRun {
  const tsc = createRequire(path.join(root, "package.json")).resolve("typescript/bin/tsc");
  const r = spawnSync(TIME, ["-f", "%e %M", process.execPath, tsc, "-p", `tsconfig.${name}.json`], { cwd: dir, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`tsc over the consumer's ${name}.ts exited ${r.status}: ${r.stdout}${r.stderr}`);
  const [seconds, kb] = r.stderr.trim().split("\n").at(-1)!.split(" ").map(Number);
  return { ms: seconds * 1000, maxRssKb: kb };
}

export const consumerSources = SOURCES;
export const timeAvailable = () => existsSync(TIME);
export const removeProject = (dir: string) => rmSync(dir, { recursive: true, force: true });
