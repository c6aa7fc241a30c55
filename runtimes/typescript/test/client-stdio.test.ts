// The stdio client transport's child environment: without `env`, the spawned server gets only the variables
// of INHERITED_ENV_VARS from this process (no secret of the caller's shell reaches a third-party server);
// `env` given is used exactly as given.
import { describe, expect, it } from "vitest";
import { INHERITED_ENV_VARS, inheritedEnvironment, stdioClientTransport, type StdioClientOptions } from "../src/client-stdio.js";

/** A child that writes its whole environment as one JSON line and waits for stdin to end. */
const PRINT_ENV = "process.stdout.write(JSON.stringify(process.env) + '\\n'); process.stdin.resume();";

/** The environment the child of a transport with `options` sees. */
async function childEnvironment(options: Partial<StdioClientOptions>): Promise<Record<string, string>> {
  const transport = stdioClientTransport({ command: process.execPath, args: ["-e", PRINT_ENV], ...options });
  const seen = new Promise<Record<string, string>>((resolve, reject) =>
    transport.start({ message: (m) => resolve(m as Record<string, string>), closed: (e) => reject(e ?? new Error("closed before writing")), problem: reject, requestFailed: reject }).catch(reject),
  );
  try {
    return await seen;
  } finally {
    await transport.close();
  }
}

describe("the stdio client transport's child environment", () => {
  it("without env holds only the inherited variables, none of this process's others", async () => {
    const secret = "MCP_CODEGEN_TEST_SECRET";
    process.env[secret] = "s3cret";
    try {
      const env = await childEnvironment({});
      // Node may add nothing of its own; what the child has beyond the list came from us.
      const own = Object.keys(env).filter((k) => !INHERITED_ENV_VARS.includes(k));
      expect(own).toEqual([]);
      expect(env[secret]).toBeUndefined();
      expect(env.PATH).toBe(process.env.PATH);
    } finally {
      delete process.env[secret];
    }
  });

  it("with env uses it as given, adding nothing", async () => {
    const env = await childEnvironment({ env: { ONLY: "this" } });
    expect(env).toEqual({ ONLY: "this" });
  });

  it("inheritedEnvironment takes the listed variables alone and leaves out exported shell functions", () => {
    const from = { PATH: "/usr/bin", HOME: "/home/a", SHELL: "() { echo pwned; }", AWS_SECRET_ACCESS_KEY: "k", GITHUB_TOKEN: "t" };
    const expected = process.platform === "win32" ? { PATH: "/usr/bin" } : { PATH: "/usr/bin", HOME: "/home/a" };
    expect(inheritedEnvironment(from)).toEqual(expected);
  });
});
