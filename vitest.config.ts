import { defineConfig } from "vitest/config";

// Two tiers. unit: everything that runs in process, starting no child process (decoder, assignor,
// verdicts, diagnosis, every reporter from recorded results, options). e2e: what only a process can
// show (the grader's command line, the sandbox, builds, batches, the handout, a browser); it
// grades each shared submission once per run (test/helpers/graded.ts). `npm test` runs both,
// `npm run test:unit` the first. A third project, load, grades with the machine loaded on purpose
// (test/load/): .ci/run runs it (`npm run test:load`), `npm test` does not.
//
// Two files at a time: e2e files spend much of their time waiting on processes (builds, idle
// programs, the sandbox's backstops), so two overlap well on 2 cores; no verdict depends on the
// load (test/e2e/hostile.test.ts proves it), and no test asserts a time.
export default defineConfig({
  test: {
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 240_000,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.ts"],
          // One module graph per worker thread for all its files, not one per file: importing
          // the kit's modules (TypeScript's compiler among them) again for each file was most of
          // the tier's time. Safe because unit tests restore what they change (environment
          // variables, timers); threads measured as fast as processes here, and lighter.
          pool: "threads",
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          globalSetup: ["test/helpers/graded-setup.ts"],
          // One module graph per worker process for all its files, as in unit: the tier's CPU
          // time fell from about 508 s to 413 s. Each file's gradings run in processes of their
          // own, and no e2e file changes the environment, the working folder or a module.
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: "load", include: ["test/load/**/*.test.ts"], hookTimeout: 1_500_000 },
      },
    ],
  },
});
