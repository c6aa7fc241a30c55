import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "runtimes/typescript/test/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // The CLI tests spawn processes; two cores are all there is.
    maxWorkers: 2,
  },
});
