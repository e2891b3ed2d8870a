import { defineConfig } from "vitest/config";

// Test files run one at a time: several of them start many processes, and parallel workers on a
// 2-core machine make per-test timeouts fire spuriously.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
