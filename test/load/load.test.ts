// Verdicts come from the program, never from how busy the machine or the grader is. Each grading
// here is made twice, on an idle machine and beside twelve CPU-bound processes and another grader,
// and gives the same results byte for byte (times aside): the reference, a slow program, a busy
// loop, and programs that allocate without end on the heap and off it (`memory` on every case
// they run, the same cases, then the rest skipped). And the reference graded beside a program
// built to stall the grader that judges it keeps full marks, alone and in a batch.
//
// It loads the machine, so `npm test` does not run it: .ci/run does (`npm run test:load`). Nothing
// is timed: every wait is bounded by a count or by killing the grader this test started.
import { spawn, type ChildProcess } from "node:child_process";
import {
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { variantOfSolution, type ResultsJson } from "../helpers/grader.ts";
import {
  sandboxMode,
  startGrading as startIn,
  verdictsOnly,
  type Graded,
  type GradingSpec,
} from "../helpers/gradings.ts";
import { CASES_DIR, ROOT } from "../helpers/program.ts";
import { run } from "../helpers/shell.ts";

const CASE_IDS = readdirSync(CASES_DIR).sort();
const caseId = (prefix: string) => {
  const id = CASE_IDS.find((c) => c.startsWith(`${prefix}-`));
  if (id === undefined) throw new Error(`no case ${prefix}`);
  return id;
};
/** Assign, decode and bad input. */
const IDS = ["01", "02", "19", "25"].map(caseId);
/** Five cases: three limit verdicts, then the rest skipped. */
const FIVE = ["01", "02", "03", "04", "05"].map(caseId);
const ONE_SECOND = ["--timeout", "1000"];

const BUILD_TMP = mkdtempSync(join(tmpdir(), "kit-load-"));
chmodSync(BUILD_TMP, 0o755);
const REPORTS = mkdtempSync(join(tmpdir(), "kit-load-reports-"));
const startGrading = (spec: GradingSpec) =>
  startIn(spec, { reports: REPORTS, buildTmp: BUILD_TMP, secret: "kit-load-secret" });

/** The reference with a 1.5 s sleep before it starts: slow in wall time, light on CPU. */
const SLEEPY = variantOfSolution([
  {
    file: "main.ts",
    search: "if (isProgram()) {",
    replace:
      "// Sleeps 1.5 s first: wall time, not CPU time.\nawait new Promise((resolve) => setTimeout(resolve, 1500));\nif (isProgram()) {",
  },
]);

const submission = (name: string) => join("test", "submissions", name);
/** Graded idle, then again under load: the results must be the same. */
const COMPARED: readonly GradingSpec[] = [
  { label: "solution", submission: "solution", ids: IDS },
  { label: "sleepy", submission: SLEEPY, ids: IDS },
  { label: "busy-loop", submission: submission("timeout"), ids: IDS, extra: ONE_SECOND },
  { label: "heap-hog", submission: submission("memory"), ids: FIVE },
  { label: "buffer-hog", submission: submission("offheap-memory"), ids: FIVE },
];

/**
 * About 2% of a CPU until its CPU limit or the wall-clock cap (50 x the limit): a case lasts 25 to
 * 50 times its CPU limit (docs/sandbox.md: how long a grading takes). Here because it costs some
 * 50 s of wall time with a 1 s limit; graded while the idle gradings run (one program at a time,
 * so a core stays free), not beside the busy loops, which give its busy moments less CPU so that
 * the idle stop may come first (a time-out all the same, said otherwise).
 */
const LOW_DUTY: GradingSpec = {
  label: "low-duty",
  submission: submission("low-duty"),
  ids: [caseId("01")],
  extra: ONE_SECOND,
};

const idle = new Map<string, Graded>();
const loaded = new Map<string, Graded>();
let beside: Graded | undefined;
const burners: ChildProcess[] = [];

/** Starts `n` CPU-bound processes (each ends by itself after 5 minutes should the test die). */
function burn(n: number): void {
  for (let i = 0; i < n; i++)
    burners.push(
      spawn(
        process.execPath,
        ["-e", "const end = Date.now() + 300000; while (Date.now() < end) {}"],
        {
          stdio: "ignore",
        },
      ),
    );
}

/** Every case of a grading, as `[id, status, reason]`. */
const verdicts = (g: Graded | undefined) =>
  (g?.results?.cases ?? []).map((c) => [c.id, c.status, c.reason]);

describe("verdicts do not depend on the load", () => {
  beforeAll(async () => {
    // The low-duty program beside the idle gradings: at 2% of a CPU it loads nothing, and its
    // ~50 s of wall time overlap theirs.
    const lowDuty = startGrading(LOW_DUTY);
    for (const spec of COMPARED) idle.set(spec.label, await startGrading(spec).done);
    idle.set(LOW_DUTY.label, await lowDuty.done);
    try {
      // Twelve busy loops on a 2-core machine: each program gets a fraction of a core.
      burn(12);
      const besideGrading = startGrading({
        label: "solution-beside",
        submission: "solution",
        ids: ["05", "06", "07", "08"].map(caseId),
      });
      const results = await Promise.all(
        COMPARED.map(
          (spec) =>
            startGrading({ ...spec, label: `${spec.label}-loaded`, killAfterMs: 600_000 }).done,
        ),
      );
      COMPARED.forEach((spec, i) => loaded.set(spec.label, results[i] as Graded));
      beside = await besideGrading.done;
    } finally {
      for (const burner of burners.splice(0)) burner.kill("SIGKILL");
    }
  }, 1_500_000);

  afterAll(() => {
    for (const burner of burners) burner.kill("SIGKILL");
  });

  it.each(COMPARED.map((spec) => spec.label))(
    "%s: the same results, byte for byte, idle and beside twelve busy loops and a grader",
    (label) => {
      const before = idle.get(label);
      const after = loaded.get(label);
      expect(after?.killed, `${label} was still grading at the test's bound`).toBe(false);
      expect(after === undefined ? "" : verdictsOnly(after)).toBe(
        before === undefined ? "" : verdictsOnly(before),
      );
    },
  );

  it.each(["heap-hog", "buffer-hog"])(
    "%s: memory on every case it runs (three), then the rest skipped; idle and loaded",
    (label) => {
      const expected = FIVE.map((id, i) =>
        i < 3 ? [id, "error", "memory"] : [id, "skipped", "skipped-after-timeouts"],
      );
      expect(verdicts(idle.get(label))).toEqual(expected);
      expect(verdicts(loaded.get(label))).toEqual(expected);
    },
  );

  it("every grading ran in the sandbox mode this user allows, loaded too, and wrote its results", () => {
    const mode = process.getuid?.() === 0 ? "root" : "user-namespace";
    for (const g of [...idle.values(), ...loaded.values(), ...(beside ? [beside] : [])]) {
      expect(sandboxMode(g.stderr), `${g.label}: ${g.stderr}`).toBe(mode);
      expect(g.results, `${g.label}: ${g.stderr}`).toBeDefined();
    }
  });

  it("a program at 2% of a CPU is stopped by the wall clock: a time-out", () => {
    const g = idle.get(LOW_DUTY.label);
    expect(verdicts(g), g?.stderr).toEqual([[caseId("01"), "timeout", "timeout"]]);
  });

  it("the reference passes idle and loaded, and so does the grader beside", () => {
    for (const g of [idle.get("solution"), loaded.get("solution"), beside])
      expect(
        g?.results?.cases.every((c) => c.status === "pass"),
        g?.label,
      ).toBe(true);
  });
});

describe("a program that stalls its grader changes no other submission's verdict", () => {
  const CASES = ["01", "02", "03", "19", "25", "31"].map(caseId);
  let alone: Graded | undefined;
  let besideStaller: Graded | undefined;
  let batch: ResultsJson | undefined;
  const batchDir = mkdtempSync(join(tmpdir(), "kit-load-batch-"));
  const out = mkdtempSync(join(tmpdir(), "kit-load-out-"));

  beforeAll(async () => {
    // Graded by two graders at once: the staller's grader and the reference's.
    const staller = startGrading({
      label: "stall-grader",
      submission: submission("stall-grader"),
      ids: CASES,
    });
    alone = await startGrading({ label: "reference-beside", submission: "solution", ids: CASES })
      .done;
    besideStaller = await staller.done;
    // And in one batch: the staller first, then a copy of the reference.
    cpSync(join(ROOT, "test", "submissions", "stall-grader"), join(batchDir, "a-staller"), {
      recursive: true,
    });
    mkdirSync(join(batchDir, "b-reference"));
    cpSync(join(ROOT, "solution", "src"), join(batchDir, "b-reference", "src"), {
      recursive: true,
    });
    const graded = run(
      process.execPath,
      [
        join(ROOT, "grader", "launch.mjs"),
        "--batch",
        batchDir,
        "--report-dir",
        out,
        ...CASES.flatMap((id) => ["--only", id]),
      ],
      ROOT,
      { INIT_CWD: ROOT, TMPDIR: BUILD_TMP },
    );
    expect(graded.status, graded.stderr).toBe(0);
    batch = JSON.parse(
      readFileSync(join(out, "results", "b-reference.json"), "utf8"),
    ) as ResultsJson;
  }, 900_000);

  afterAll(() => {
    for (const dir of [batchDir, out, REPORTS, BUILD_TMP, dirname(SLEEPY)])
      rmSync(dir, { recursive: true, force: true });
  });

  it("the staller gets no credit", () => {
    expect(besideStaller?.results?.score, besideStaller?.stderr).toBe(0);
  });

  it("the reference graded beside it, by another grader, keeps full marks", () => {
    expect(
      alone?.results?.cases.map((c) => c.status),
      alone?.stderr,
    ).toEqual(CASES.map(() => "pass"));
  });

  it("the reference graded after it in one batch keeps full marks", () => {
    expect(batch?.cases.map((c) => [c.id, c.status])).toEqual(CASES.map((id) => [id, "pass"]));
  });
});
