// Shared runs give exactly the verdicts isolated runs give. One `--batch` grades every program of
// test/submissions/shared (the reference with main.ts unchanged, so its cases run shared, and one
// function wrapped: module state, a crash, a global changed, console output, an exit, and hostile
// moves against the harness), once as usual and once with --isolate, on a few cases: the results
// must be the same but for how each case ran (`ran`), and each program's verdicts and `ran` are
// the ones worked out by hand from what it does on which case (test/submissions/shared/README.md).
// Which flag does what inside the harness is grader/run/shared-harness.mjs's; the rules for
// keeping a report and starting again are grader/run/shared-run.ts's.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gradeAsync, sharedSubmission } from "../helpers/grader.ts";
import { ROOT } from "../helpers/program.ts";

const C01 = "01-lesson-7-partitions-3-members";
const C07 = "07-idle-members";
/** The only built-in case with a topic "empty". */
const C10 = "10-zero-partition-topic";
/** The only built-in case with a topic "café"; members m1-m3 as in 07, subscribed otherwise. */
const C16 = "16-multibyte-topic-names";
/** A --decode case: assignRange is not called. */
const C19 = "19-decode-version-0";
/** Bad bytes: exit 1 before assignRange is called. */
const C25 = "25-error-truncated-topic-string";
/** In grading order (visible cases, by id): one group, one shared process to start with. */
const ONLY = [C01, C07, C10, C16, C19, C25];
// Short for the busy loop's sake; 2 s, not 1, so that a shared report is vouched for up to 1 s of
// CPU (sharedRawRun): the first case's count includes the harness's own start.
const TIMEOUT = ["--timeout", "2000"];

/** What a program's cases come to: every case passes but those in `fails` ("status reason"). */
interface Expected {
  fails?: Readonly<Record<string, string>>;
  /** Cases whose report is kept from the shared run. */
  shared: readonly string[];
  /** Cases run again alone. Cases in neither list may run either way (a timer's timing). */
  isolated: readonly string[];
}

const ALL = ONLY;
const EXPECTED: Readonly<Record<string, Expected>> = {
  // Wrong on every second call in a module instance: each case imports its modules anew.
  counter: { shared: ALL, isolated: [] },
  // A cache by member id: 16 would get 07's subscriptions of m1-m3 if the modules were kept.
  "member-cache": { shared: ALL, isolated: [] },
  // Every case's first call throws (exit 70): no report is a pass, so every case runs alone.
  "first-call-crash": {
    fails: Object.fromEntries(ALL.map((id) => [id, "error crash"])),
    shared: [],
    isolated: ALL,
  },
  // Array.prototype changed on 10: that case and the rest of its group run alone.
  "global-change": { shared: [C01, C07], isolated: [C10, C16, C19, C25] },
  // A line before the answer on 16, in 16's output only: every other case passes.
  "console-log": {
    fails: { [C16]: "fail invalid-output" },
    shared: [C01, C07, C10],
    isolated: [C16],
  },
  // process.exit(0) on 16 ends the shared process: 16 alone, the rest in a new one.
  "exit-in-case": {
    fails: { [C16]: "fail invalid-output" },
    shared: [C01, C07, C10, C19, C25],
    isolated: [C16],
  },
  // fd 1 on 10 (a line before the answer), fd 2 on 16 (beside a right answer): each runs alone,
  // the rest in a new process after each (three starts, the most a group has).
  "write-around": {
    fails: { [C10]: "fail invalid-output" },
    shared: [C01, C07, C19, C25],
    isolated: [C10, C16],
  },
  // The heap limit on 10 ends the shared process; on 16, a loop: the shared process is stopped
  // past the time limit (three starts, the most a group has). Each runs alone.
  limits: {
    fails: { [C10]: "error memory", [C16]: "timeout timeout" },
    shared: [C01, C07, C19, C25],
    isolated: [C10, C16],
  },
  // process.exitCode = 5 on 10: alone main.ts sets the exit code after run, so 10 passes (alone).
  // fd 0 read on 16 gives nothing either way (the harness has read its job to the end).
  "process-state": { shared: [C01, C07, C16, C19, C25], isolated: [C10] },
  // A timer on 07 prints after the answer (alone too); an unhandled rejection on 16 ends the
  // process (exit 1). Where the timer's line lands in the shared run depends on its timing.
  "late-output": {
    fails: { [C07]: "fail invalid-output", [C16]: "error crash" },
    shared: [C01],
    isolated: [C07, C16],
  },
  // process.stdout.write replaced on 10 (writing the same): a change to process.
  "patch-stdout": { shared: [C01, C07], isolated: [C10, C16, C19, C25] },
  // JSON.stringify ("{}") and Array.prototype.push replaced on 16: the harness's own are kept.
  "patch-builtins": {
    fails: { [C16]: "fail wrong-output" },
    shared: [C01, C07, C10],
    isolated: [C16, C19, C25],
  },
  // crypto.createHmac replaced and synced into every named import on 10: the harness signs with
  // the one it took first, and the change is seen.
  "sync-builtins": { shared: [C01, C07], isolated: [C10, C16, C19, C25] },
  // A wrong answer on 16 with a forged report that says it passed: the report is refused, 16
  // runs alone and fails, the rest in a new process.
  "forged-report": {
    fails: { [C16]: "fail invalid-output" },
    shared: [C01, C07, C10, C19, C25],
    isolated: [C16],
  },
  // On 16 a wrong answer, and a KeyObject `type` getter and an Object.prototype `_options` setter
  // that would sign a pass with the harness's key or Hmac: the harness made its HMACs before any of
  // the program ran, so 16 runs alone and fails, and the rest of the group alone too (a change).
  "hmac-hooks": {
    fails: { [C16]: "fail wrong-output" },
    shared: [C01, C07, C10],
    isolated: [C16, C19, C25],
  },
  // SIGKILL on 10.
  sigkill: {
    fails: { [C10]: "error crash" },
    shared: [C01, C07, C16, C19, C25],
    isolated: [C10],
  },
  // process.stdout corked on 10: alone the answer is never written.
  "stdout-cork": {
    fails: { [C10]: "fail invalid-output" },
    shared: [C01, C07],
    isolated: [C10, C16, C19, C25],
  },
};

interface CaseResult {
  id: string;
  status: string;
  reason: string | null;
  ran: string | null;
  [field: string]: unknown;
}
interface Results {
  cases: CaseResult[];
  [field: string]: unknown;
}

const NAMES = readdirSync(join(ROOT, "test", "submissions", "shared"), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();

/** A results file's content by submission name (shard.json names each file). */
function readResults(out: string): Map<string, Results> {
  const manifest = JSON.parse(readFileSync(join(out, "shard.json"), "utf8")) as {
    submissions: { name: string; file: string }[];
  };
  return new Map(
    manifest.submissions.map(({ name, file }) => [
      name,
      JSON.parse(readFileSync(join(out, file), "utf8")) as Results,
    ]),
  );
}

/** The results without how each case ran: what the two gradings must agree on. */
function withoutRan(results: Results | undefined): unknown {
  if (results === undefined) return undefined;
  const cases = results.cases.map((c) => {
    const rest: Partial<CaseResult> = { ...c };
    delete rest.ran;
    return rest;
  });
  return { ...results, cases };
}

describe("the programs of test/submissions/shared, graded shared and --isolate", () => {
  let work: string;
  let shared: Map<string, Results>;
  let isolated: Map<string, Results>;
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "kit-shared-runs-"));
    const dir = join(work, "class");
    for (const name of NAMES) sharedSubmission(name, join(dir, name));
    const only = ONLY.flatMap((id) => ["--only", id]);
    // Both at once: neither keeps the two CPUs busy all the time (the loop's wait, the builds).
    const runs = await Promise.all(
      [[], ["--isolate"]].map(async (extra) => {
        const out = join(work, `out${extra.join("")}`);
        const run = await gradeAsync([
          ...["--batch", dir, "--report-dir", out, ...TIMEOUT, ...only, ...extra],
        ]);
        expect(run.status, run.stderr).toBe(0);
        return readResults(out);
      }),
    );
    [shared, isolated] = runs as [Map<string, Results>, Map<string, Results>];
  }, 240_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("has a hand-worked expectation for every program", () => {
    expect(NAMES).toEqual(Object.keys(EXPECTED).sort());
  });

  it("gives every program the same results both ways, but for how each case ran", () => {
    expect([...shared.keys()].sort()).toEqual(NAMES);
    expect([...isolated.keys()].sort()).toEqual(NAMES);
    for (const name of NAMES)
      expect(withoutRan(shared.get(name)), name).toEqual(withoutRan(isolated.get(name)));
  });

  it("runs every case alone with --isolate", () => {
    for (const name of NAMES) {
      const ran = isolated.get(name)?.cases.map((c) => c.ran);
      expect(ran, name).toEqual(ONLY.map(() => "isolated"));
    }
  });

  it.each(NAMES)("%s: the verdicts and how each case ran, as worked out by hand", (name) => {
    const want = EXPECTED[name] as Expected;
    const cases = shared.get(name)?.cases ?? [];
    expect(cases.map((c) => c.id)).toEqual(ONLY);
    const outcome = (c: CaseResult) => (c.status === "pass" ? "pass" : `${c.status} ${c.reason}`);
    expect(Object.fromEntries(cases.map((c) => [c.id, outcome(c)]))).toEqual(
      Object.fromEntries(ONLY.map((id) => [id, want.fails?.[id] ?? "pass"])),
    );
    const ran = new Map(cases.map((c) => [c.id, c.ran]));
    for (const id of want.shared) expect(ran.get(id), `${name} ${id}`).toBe("shared");
    for (const id of want.isolated) expect(ran.get(id), `${name} ${id}`).toBe("isolated");
  });
});
