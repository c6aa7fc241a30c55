// Running real Ruby from the tests: the generated Ruby tree and the official Ruby SDK (gem `mcp`
// 1.3.0, ../shared/ruby-sdk) on the load path, Debian's Ruby with the standard library only.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { generatedDir, root } from "../../support.js";

export const rubyTree = path.join(generatedDir, "ruby");
export const rubyTestDir = path.join(root, "test", "emit", "ruby");
/** The Ruby SDK's lib/ folder: $RUBY_SDK_DIR/lib, or ../shared/ruby-sdk/lib beside the checkout or the worktrees' folder. */
export const rubySdkLib = path.join(
  path.resolve(
    process.env.RUBY_SDK_DIR ||
      [path.join(root, "..", "shared", "ruby-sdk"), path.join(root, "..", "..", "shared", "ruby-sdk")].find((d) => existsSync(d)) ||
      path.join(root, "..", "shared", "ruby-sdk"),
  ),
  "lib",
);

export interface RubyResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** `ruby -I <generated/ruby> -I <sdk lib> args…`, with `input` on stdin. */
export function ruby(args: string[], options: { input?: string; loadPath?: string[] } = {}): RubyResult {
  const load = (options.loadPath ?? [rubyTree, rubySdkLib]).flatMap((d) => ["-I", d]);
  const r = spawnSync("ruby", [...load, ...args], {
    cwd: root,
    encoding: "utf8",
    input: options.input,
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, LANG: "C.UTF-8", LC_ALL: "C.UTF-8" },
  });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** ../shared (beside the checkout or the worktrees' folder), where the Ruby SDK and its test-only gems are. */
export const sharedDir = path.dirname(path.dirname(rubySdkLib));
/** The Ruby SDK as shipped (read-only: tests work on copies). */
export const rubySdkDir = path.dirname(rubySdkLib);
/** json_schemer 2.4.0 from source: the SDK's suite needs it (Debian's ruby-json-schemer is 0.2). */
export const jsonSchemerLib = path.join(process.env.RUBY_DEPS_DIR || path.join(sharedDir, "ruby-deps"), "json_schemer-2.4.0", "lib");
