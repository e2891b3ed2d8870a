import { defineConfig } from "vitest/config";

// Two tiers. unit: everything that runs in this process (decoder, assignor, verdicts, diagnosis,
// every reporter from recorded results, options), under a minute. e2e: what only a process can
// show (the grader's command line, the sandbox, builds, batches, the handout, a browser); it
// grades each shared submission once per run (test/helpers/graded.ts). `npm test` runs both,
// `npm run test:unit` the first.
//
// Files run one at a time: e2e files start many processes, and parallel workers on a 2-core
// machine would only compete for the same cores.
export default defineConfig({
  test: {
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 240_000,
    projects: [
      { extends: true, test: { name: "unit", include: ["test/unit/**/*.test.ts"] } },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          globalSetup: ["test/helpers/graded-setup.ts"],
        },
      },
    ],
  },
});
