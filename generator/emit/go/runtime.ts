// The Go runtime (runtimes/go/, a module checked by gofmt and go vet): its .go files (not its tests) are
// copied into the tree's mcpruntime/ package by the one copier (emit/runtime-copy.ts), behind the header
// naming their source, as written but for the protocol module's import path: the source imports the
// project's generated tree's (mcpcodegen/protocol, see runtimes/go/go.mod), a copy its own tree's.
import { filesIn } from "../runtime-copy.js";
import type { TargetRuntime } from "../target.js";
import { DEFAULT_GO_PACKAGE, goPackageOption } from "./options.js";
import { GO_PROTOCOL_PACKAGE, GO_RUNTIME_PACKAGE, goRuntimeDir } from "./paths.js";

/** runtimes/go/<file>.go → mcpruntime/<file>.go of the tree. */
export const goRuntime: TargetRuntime = {
  dir: goRuntimeDir,
  files: () => filesIn(goRuntimeDir, (name) => name.endsWith(".go") && !name.endsWith("_test.go")),
  destination: (file) => `${GO_RUNTIME_PACKAGE}/${file}`,
  wrap: (source, header, options) =>
    header.map((line) => `// ${line}\n`).join("") +
    "\n" +
    source.replaceAll(`"${DEFAULT_GO_PACKAGE}/${GO_PROTOCOL_PACKAGE}"`, `"${options[goPackageOption.flag] ?? DEFAULT_GO_PACKAGE}/${GO_PROTOCOL_PACKAGE}"`),
};
