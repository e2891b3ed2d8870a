// Grading in two phases (grader/phases.ts, grade.ts gradeSubmission), in process: a fake runner
// stands for each case's program and records when it starts and ends, a fake diagnosis when a
// case is judged (the diagnosis runs right after the verdict), and a reporter when a result is
// published. No visible case may start, end, be judged or be published after any private case
// started: in one grading, and across the gradings of a batch sharing a PhaseGate. Then the two
// attacks on private cases this rules out: one input bit of a private case (a crash or a pass, a
// 3.5 MB wrong answer or a small one) changes nothing of any visible case's result.
import pLimit from "p-limit";
import { describe, expect, it } from "vitest";
import { FixtureSchemas, isPrivateCase, type Case } from "../../grader/cases/load.ts";
import { confirmNames, FileOutcomes, type OutcomeSource } from "../../grader/diagnose/diagnose.ts";
import { gradeSubmission, type GradeOptions } from "../../grader/grade.ts";
import { SUBMISSIONS_AT_ONCE } from "../../grader/batch/batch.ts";
import { PhaseGate, type Phases } from "../../grader/phases.ts";
import type { CaseResult, GradeResults } from "../../grader/results.ts";
import type { RawRun } from "../../grader/run/run-process.ts";
import { builtInCase, noProgram, privateCase, rawRun, rightRun } from "../helpers/results.ts";

const schemas = new FixtureSchemas();

const LESSON = "01-lesson-7-partitions-3-members";
const SKEW = "03-per-topic-skew";
const IDLE = "07-idle-members";
const DECODE_V0 = "19-decode-version-0";
const TRUNCATED = "25-error-truncated-topic-string";
const STATIC_FIRST = "31-static-members-first";

/** A built-in case as `--random` would add it: visible, id `random/NNN`. */
function randomCase(id: string, n: number): Case {
  return { ...builtInCase(id), id: `random/00${n}`, source: { kind: "random" } };
}

/**
 * A case set in the order context.ts loads its parts (built-in, `--fixtures`, `--random`), with
 * the private cases before the generated visible ones, as they come in.
 */
function caseSet(): Case[] {
  return [
    builtInCase(LESSON),
    builtInCase(SKEW),
    builtInCase(IDLE),
    builtInCase(DECODE_V0),
    builtInCase(TRUNCATED),
    privateCase(IDLE, "secret", "01-idle"),
    privateCase(STATIC_FIRST, "secret", "02-static"),
    privateCase(LESSON, "secret", "03-lesson"),
    randomCase(SKEW, 1),
    randomCase(STATIC_FIRST, 2),
  ];
}

/** A crash: exit 1 with an uncaught TypeError, as a hand-made byte reader that reads past the end. */
const crashRun = (): RawRun =>
  rawRun({
    exitCode: 1,
    stderr: "TypeError: read past the end at 8\n    at topicsOf (src/main.ts:31:38)\n",
  });

/** What the recorded diagnosis data says of a built-in case, for its copies (private, random). */
function diagnosisOf(cases: readonly Case[], judged: (c: Case) => void) {
  const file = new FileOutcomes();
  const builtIn = new Map(
    cases.map((c) => [c.id, builtInCase(c.dir.split("/").pop() ?? c.id)] as const),
  );
  const of = (c: Case) => builtIn.get(c.id) ?? c;
  const source: OutcomeSource = {
    outcomesFor: (c) => {
      judged(c);
      return file.outcomesFor(of(c));
    },
    knownOutcomesFor: (c) => {
      judged(c);
      return file.knownOutcomesFor(of(c));
    },
    offsetsFor: (c) => file.offsetsFor(of(c)),
    layoutsFor: (c) => file.layoutsFor(of(c)),
  };
  return source;
}

interface Event {
  kind: "start" | "end" | "judged" | "published" | "visible-done";
  submission: string;
  id: string;
  private: boolean;
}

/**
 * Options for grading `cases` with a fake runner that gives `behave(c)` after a short wait (a
 * few timer ticks that differ from case to case, so that cases end out of order), every event
 * recorded in `events`.
 */
function fakeGrading(
  submission: string,
  cases: readonly Case[],
  events: Event[],
  behave: (c: Case) => RawRun = rightRun,
): GradeOptions {
  const record = (kind: Event["kind"], c: Pick<Case, "id" | "source">) =>
    events.push({ kind, submission, id: c.id, private: isPrivateCase(c) });
  let started = 0;
  return {
    submission: { kind: "folder", path: `/nowhere/${submission}`, name: submission },
    cases,
    schemas,
    timeoutMs: 2000,
    outputCapBytes: 4 * 1024 * 1024,
    memoryMiB: 512,
    concurrency: 3,
    kit: { version: "1.0.0", fixtures: "0123456789abcdef" },
    visibleFixtures: "fedcba9876543210",
    reporters: [
      {
        onCaseResult: (r) =>
          events.push({ kind: "published", submission, id: r.id, private: r.private }),
      },
    ],
    rerun: { args: [submission] },
    diagnosis: diagnosisOf(cases, (c) => record("judged", c)),
    prepared: Promise.resolve(noProgram),
    runCase: async (_program, c) => {
      record("start", c);
      const ticks = (started++ * 7) % 5;
      for (let i = 0; i <= ticks; i++) await new Promise((resolve) => setTimeout(resolve, 1));
      record("end", c);
      return behave(c);
    },
  };
}

/** Index of the first private case's start, and the last event of a visible case. */
function phaseBoundary(events: readonly Event[]) {
  const firstPrivateStart = events.findIndex((e) => e.private && e.kind === "start");
  const visible = events.map((e, i) => (e.private ? -1 : i)).filter((i) => i >= 0);
  return { firstPrivateStart, lastVisibleEvent: Math.max(...visible) };
}

/** The index of the last event that `matches`, or -1. */
function lastIndex(events: readonly Event[], matches: (e: Event) => boolean): number {
  for (let i = events.length - 1; i >= 0; i--) if (matches(events[i] as Event)) return i;
  return -1;
}

/** The most runs in flight at once among `events` (start and end events). */
function mostAtOnce(events: readonly Event[]): number {
  let running = 0;
  let most = 0;
  for (const e of events) {
    if (e.kind === "start") most = Math.max(most, ++running);
    if (e.kind === "end") running--;
  }
  return most;
}

describe("one grading", () => {
  it("runs, judges and publishes every visible case before any private case starts", async () => {
    const events: Event[] = [];
    const results = await gradeSubmission(fakeGrading("alice", caseSet(), events));
    // Grading order: the visible cases (built-in, then generated), then the private ones.
    expect(results.cases.map((r) => r.id)).toEqual([
      LESSON,
      SKEW,
      IDLE,
      DECODE_V0,
      TRUNCATED,
      "random/001",
      "random/002",
      "secret/01-idle",
      "secret/02-static",
      "secret/03-lesson",
    ]);
    expect(results.cases.every((r) => r.status === "pass")).toBe(true);
    const { firstPrivateStart, lastVisibleEvent } = phaseBoundary(events);
    expect(firstPrivateStart).toBeGreaterThan(0);
    expect(lastVisibleEvent).toBeLessThan(firstPrivateStart);
    // Every case ran, was judged and was published once.
    for (const kind of ["start", "end", "judged", "published"] as const)
      expect(events.filter((e) => e.kind === kind)).toHaveLength(10);
    // Each phase still runs its cases several at once (concurrency 3).
    expect(mostAtOnce(events.slice(0, firstPrivateStart))).toBe(3);
    expect(mostAtOnce(events.slice(firstPrivateStart))).toBe(3);
  });

  it("publishes a case that names a mistake as soon as the cases before it are, not once all have run", async () => {
    const events: Event[] = [];
    const behave = (c: Case) => (c.id === TRUNCATED ? crashRun() : rightRun(c));
    const results = await gradeSubmission(fakeGrading("alice", caseSet(), events, behave));
    expect(results.cases.find((r) => r.id === TRUNCATED)?.mistakes).toEqual(["crash-on-bad-bytes"]);
    const published = events.findIndex((e) => e.kind === "published" && e.id === TRUNCATED);
    const lastVisibleEnd = lastIndex(events, (e) => e.kind === "end" && !e.private);
    expect(published).toBeGreaterThan(0);
    // The generated cases after it were still running when it was published.
    expect(published).toBeLessThan(lastVisibleEnd);
  });

  it("publishes the visible cases before the private phase starts, in grading order", async () => {
    const events: Event[] = [];
    await gradeSubmission(fakeGrading("alice", caseSet(), events));
    const published = events.filter((e) => e.kind === "published").map((e) => e.id);
    expect(published.slice(0, 7)).toEqual([
      LESSON,
      SKEW,
      IDLE,
      DECODE_V0,
      TRUNCATED,
      "random/001",
      "random/002",
    ]);
    const lastVisiblePublished = lastIndex(events, (e) => e.kind === "published" && !e.private);
    expect(lastVisiblePublished).toBeLessThan(phaseBoundary(events).firstPrivateStart);
  });

  it("never skips a visible case for what a private case did (the skip rule runs in grading order)", async () => {
    // Every private case times out; the visible ones pass. Three limit verdicts skip what comes
    // after them, and only private cases come after them.
    const events: Event[] = [];
    const results = await gradeSubmission(
      fakeGrading("alice", caseSet(), events, (c) =>
        isPrivateCase(c) ? rawRun({ timedOut: true, exitCode: null, cpuMs: 2000 }) : rightRun(c),
      ),
    );
    const visible = results.cases.filter((r) => !r.private);
    expect(visible.map((r) => r.status)).toEqual(Array(7).fill("pass"));
    expect(results.cases.slice(7).map((r) => r.status)).toEqual(["timeout", "timeout", "timeout"]);
  });
});

describe("a batch: gradings sharing slots and a PhaseGate, as batch.ts wires them", () => {
  /** Grades `names` as runBatch does: in turn at the gate, in one set of case slots. */
  async function batch(names: readonly string[], events: Event[]): Promise<GradeResults[]> {
    const slots = pLimit(3);
    const gate = new PhaseGate(names.length, SUBMISSIONS_AT_ONCE);
    return Promise.all(
      names.map(async (name) => {
        const entered = await gate.enter();
        const phases: Phases = {
          visibleDone: () => {
            events.push({ kind: "visible-done", submission: name, id: "", private: false });
            entered.visibleDone();
          },
          privateStart: () => entered.privateStart(),
        };
        try {
          return await gradeSubmission({
            ...fakeGrading(name, caseSet(), events),
            slots,
            phases,
          });
        } finally {
          phases.visibleDone();
        }
      }),
    );
  }

  it("no private case of any submission starts before every submission's visible cases are judged", async () => {
    const events: Event[] = [];
    const graded = await batch(["alice", "bob"], events);
    expect(graded.map((g) => g.cases.filter((r) => r.status === "pass").length)).toEqual([10, 10]);
    const { firstPrivateStart, lastVisibleEvent } = phaseBoundary(
      events.filter((e) => e.kind !== "visible-done"),
    );
    expect(lastVisibleEvent).toBeLessThan(firstPrivateStart);
    // Both submissions' private cases run after it, several at once.
    const after = events.filter((e) => e.kind !== "visible-done").slice(firstPrivateStart);
    expect(new Set(after.filter((e) => e.kind === "start").map((e) => e.submission))).toEqual(
      new Set(["alice", "bob"]),
    );
    expect(mostAtOnce(after)).toBe(3);
  });

  it("lets SUBMISSIONS_AT_ONCE in at a time, overlapping one's tail with the next one's cases", async () => {
    expect(SUBMISSIONS_AT_ONCE).toBe(2);
    const events: Event[] = [];
    await batch(["alice", "bob", "carol"], events);
    const first = (submission: string, kind: Event["kind"]) =>
      events.findIndex((e) => e.submission === submission && e.kind === kind);
    const last = (submission: string, kind: Event["kind"], priv: boolean) =>
      lastIndex(
        events,
        (e) => e.submission === submission && e.kind === kind && e.private === priv,
      );
    // bob's visible cases start while alice's last visible ones still run.
    expect(first("bob", "start")).toBeLessThan(last("alice", "end", false));
    // carol waits for a turn: one of the first two has finished its visible phase.
    expect(first("carol", "start")).toBeGreaterThan(
      Math.min(first("alice", "visible-done"), first("bob", "visible-done")),
    );
    // And nobody's private case starts before carol's visible phase is over.
    const firstPrivateStart = events.findIndex((e) => e.private && e.kind === "start");
    expect(firstPrivateStart).toBeGreaterThan(first("carol", "visible-done"));
    for (const name of ["alice", "bob", "carol"])
      expect(last(name, "published", false)).toBeLessThan(firstPrivateStart);
  });

  it("a grading that ends without running (no build) does not hold the gate shut", async () => {
    const events: Event[] = [];
    const slots = pLimit(3);
    const gate = new PhaseGate(2, SUBMISSIONS_AT_ONCE);
    const [broken, working] = await Promise.all([
      gate.enter().then((phases) =>
        gradeSubmission({
          ...fakeGrading("broken", caseSet(), events),
          prepared: Promise.resolve({ errors: ["src/main.ts:1:1: oops"], cleanup: () => {} }),
          slots,
          phases,
        }),
      ),
      gate
        .enter()
        .then((phases) =>
          gradeSubmission({ ...fakeGrading("working", caseSet(), events), slots, phases }),
        ),
    ]);
    expect(broken?.cases.every((r) => r.reason === "build-error")).toBe(true);
    expect(working?.cases.every((r) => r.status === "pass")).toBe(true);
  });

  it("refuses more gradings than it was made for", async () => {
    const gate = new PhaseGate(1, 2);
    (await gate.enter()).visibleDone();
    await expect(gate.enter()).rejects.toThrow("more than the 1 gradings");
  });
});

describe("one bit of a private case's input changes nothing a student sees", () => {
  /** The visible cases' results of a grading of caseSet() whose private case 03 behaves as `bit` says. */
  async function visibleResults(onPrivate: (c: Case) => RawRun): Promise<CaseResult[]> {
    const behave = (c: Case) =>
      c.id === "secret/03-lesson" ? onPrivate(c) : c.id === TRUNCATED ? crashRun() : rightRun(c);
    const results = await gradeSubmission(fakeGrading("alice", caseSet(), [], behave));
    return results.cases.filter((r) => !r.private);
  }

  it("attack 7: a crash on a private case does not drop the crash name on a visible one", async () => {
    const passing = await visibleResults(rightRun);
    const crashing = await visibleResults(crashRun);
    const truncated = passing.find((r) => r.id === TRUNCATED);
    expect(truncated?.mistakes).toEqual(["crash-on-bad-bytes"]);
    expect(crashing).toEqual(passing);
    // The attack is real: confirmed against every case, the private crash (on a case whose
    // answer is an assignment: no mistake explains it) takes the visible crash's name away.
    const visibleCrash = {
      passed: false,
      required: true,
      named: ["crash-on-bad-bytes"],
      fallback: ["crash-on-bad-bytes"],
      diagnosed: true,
      crashed: true,
      crash: "",
      failedByEveryMutantOf: new Set<string>(),
      crashPredictedBy: new Set(["crash-on-bad-bytes"]),
      sameWay: [],
    };
    const privateCrash = {
      ...visibleCrash,
      named: [],
      fallback: [],
      crashPredictedBy: new Set<string>(),
    };
    expect(confirmNames([visibleCrash])).toEqual([["crash-on-bad-bytes"]]);
    expect(confirmNames([visibleCrash, privateCrash])).toEqual([[], []]);
  });

  it("attack 6: a 3.5 MB wrong answer on a private case changes no visible result", async () => {
    const flood = `{"${"m".repeat(3.5 * 1024 * 1024)}":{}}\n`;
    const small = await visibleResults(() => rawRun({ stdout: '{"m":{}}\n' }));
    const huge = await visibleResults(() => rawRun({ stdout: flood }));
    const passing = await visibleResults(rightRun);
    expect(huge).toEqual(small);
    expect(huge).toEqual(passing);
  });
});
