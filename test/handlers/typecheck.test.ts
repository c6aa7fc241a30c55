// The type tests in types.test.ts only mean something when tsc checks them: run it here, so a
// failing expectTypeOf or an unused @ts-expect-error fails `npm test`.
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const here = path.dirname(fileURLToPath(import.meta.url));
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

function typecheck(project: string): { ok: boolean; output: string } {
  try {
    execFileSync(process.execPath, [tsc, "-p", project], { encoding: "utf8", stdio: "pipe" });
    return { ok: true, output: "" };
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${e.stdout ?? ""}${e.stderr ?? ""}` };
  }
}

it("the handler type tests compile, every @ts-expect-error included", () => {
  const result = typecheck(path.join(here, "tsconfig.types.json"));
  expect(result.output).toBe("");
  expect(result.ok).toBe(true);
});
