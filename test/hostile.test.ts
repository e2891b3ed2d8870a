// Hostile submissions: each gets the verdict it must get, and afterwards the fixtures are
// byte-for-byte unchanged, nothing was written, no process is left, the grader finished, and
// the probe could signal no process but its own. Signals are sent only by the submissions the
// test starts (to their own parent, the grader this test started) or with signal 0.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grade, type ResultsJson } from "./helpers/grader.ts";
import { ROOT } from "./helpers/program.ts";

const ONE = "01-lesson-7-partitions-3-members";
const BAD_INPUT = "25-error-truncated-topic-string";
const SECRET = "kit-test-secret-3f9a1c";
const isRoot = process.getuid?.() === 0;

/** SHA-256 over every file under a folder, in path order. */
function treeHash(dir: string): string {
  const hash = createHash("sha256");
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else hash.update(path).update(readFileSync(path));
    }
  };
  walk(dir);
  return hash.digest("hex");
}

/** This test's graders build into their own temporary folder, so their programs are findable. */
const TMP = mkdtempSync(join(tmpdir(), "kit-hostile-"));
chmodSync(TMP, 0o755);

/** Processes started from this test's bundles, or the sleep a hostile child would have left. */
function leftovers(): string[] {
  return execFileSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" })
    .split("\n")
    .filter((line) => line.includes(TMP) || / sleep 1234$/.test(line));
}

const hostileTmpFiles = () =>
  readdirSync("/tmp").filter((name) => name.startsWith("hostile-was-here"));

function run(name: string, ids: string[], extra: string[] = []) {
  const out = grade(
    [
      join("test", "submissions", name),
      ...ids.flatMap((id) => ["--only", id]),
      "--format",
      "json",
      ...extra,
    ],
    { KIT_SECRET_TOKEN: SECRET, TMPDIR: TMP },
  );
  expect(out.status, `${name}: the grader finished (${out.stderr})`).toBe(1);
  const results = JSON.parse(out.stdout) as ResultsJson;
  return { results, byId: new Map(results.cases.map((c) => [c.id, c])) };
}

/** The text report of one case, where the last lines of standard error show. */
const textReport = (name: string, id: string, extra: string[] = []) =>
  grade([join("test", "submissions", name), "--only", id, ...extra], {
    KIT_SECRET_TOKEN: SECRET,
    TMPDIR: TMP,
  }).stdout;

describe("hostile submissions", () => {
  let fixturesBefore: string;
  beforeAll(() => {
    fixturesBefore = treeHash(join(ROOT, "fixtures"));
    expect(leftovers()).toEqual([]);
  });

  it.each([
    ["timeout", ONE, "timeout", "timeout", ["--timeout", "1500"]],
    ["idle-timer", ONE, "timeout", "timeout", ["--timeout", "1500"]],
    ["print-then-hang", ONE, "timeout", "timeout", ["--timeout", "1500"]],
    ["output-flood", ONE, "error", "output-cap", []],
    ["stderr-flood", ONE, "error", "output-cap", []],
    ["memory", ONE, "error", "memory", []],
    ["crash", ONE, "error", "crash", []],
    ["uncaught", ONE, "error", "crash", []],
    ["silent-exit", ONE, "fail", "invalid-output", []],
    ["invalid-output", ONE, "fail", "invalid-output", []],
    ["wrong-shape", ONE, "fail", "invalid-output", []],
    ["proto-pollution", ONE, "fail", "wrong-output", []],
    ["search-disk", ONE, "error", "crash", []],
    ["rewrite-answers", ONE, "error", "crash", []],
    ["write-files", ONE, "error", "crash", []],
    ["detached-child", ONE, "error", "crash", []],
    ["import-answers", ONE, "error", "build-error", []],
    ["symlink-answers", ONE, "error", "build-error", []],
    ["template-import", ONE, "error", "build-error", []],
    ["tsconfig-paths", ONE, "error", "build-error", []],
    ["ansi-stderr", ONE, "error", "crash", []],
    ["reject-everyone", BAD_INPUT, "fail", "wrong-error", []],
  ] as const)("%s on %s: %s / %s", (name, id, status, reason, extra) => {
    const { byId } = run(name, [id], [...extra]);
    expect(byId.get(id)).toMatchObject({ status, reason, points: 0 });
  });

  it("a program that searches the disk is denied every read", () => {
    expect(textReport("search-disk", ONE)).toMatch(
      /search of \/work failed: Access to this API has been restricted/,
    );
  });

  it("a program that rewrites the answers is denied every write", () => {
    expect(textReport("rewrite-answers", ONE)).toContain("writes denied: 3 of 3");
  });

  it("terminal escapes from a program are shown as text, never acted on", () => {
    const report = textReport("ansi-stderr", ONE);
    expect(report.includes("\u001b")).toBe(false);
    expect(report.includes("\u202e")).toBe(false);
    expect(report).toContain("\\u001b[1A\\u001b[2K\\u000d");
  });

  it("the build refuses a link in src/, a computed import and an import from outside", () => {
    expect(textReport("symlink-answers", ONE)).toMatch(/src\/answers\.json is a symbolic link/);
    expect(textReport("template-import", ONE)).toMatch(/import\(\) with a computed path/);
    expect(textReport("import-answers", ONE)).toMatch(/reaches outside the submission folder/);
  });

  it("the environment holds none of the grader's variables", () => {
    const report = textReport("print-env", ONE);
    expect(report).toContain('"LANG":"C.UTF-8"');
    expect(report).toContain('"TZ":"UTC"');
    expect(report).not.toContain(SECRET);
    expect(report).not.toContain("KIT_SECRET_TOKEN");
  });

  it.runIf(isRoot)("signalling the grader is not allowed (each slot runs as its own user)", () => {
    const report = textReport("signal-parent", ONE);
    expect(report).toMatch(/could not signal parent \d+: EPERM/);
  });

  it.runIf(isRoot)("the probe can signal no process but its own", () => {
    const report = textReport("signal-probe", ONE, ["--timeout", "20000"]);
    const match = /probe (\d+) \(parent (\d+)\) could signal: (\[[\d,]*\])/.exec(report);
    expect(match, report).not.toBeNull();
    const probe = Number(match?.[1]);
    const signalable = JSON.parse(match?.[3] ?? "[]") as number[];
    expect(signalable).toContain(probe);
    expect(signalable).not.toContain(Number(match?.[2]));
    expect(signalable).not.toContain(process.pid);
    // kill(tid, 0) also succeeds for the probe's own threads, which Node starts right after it.
    for (const pid of signalable) expect(pid - probe, `pid ${pid}`).toBeGreaterThanOrEqual(0);
    for (const pid of signalable) expect(pid - probe, `pid ${pid}`).toBeLessThan(64);
  });

  it("after three timeouts in a row the cases not yet started are skipped", () => {
    const ids = [
      "01-lesson-7-partitions-3-members",
      "02-one-member-takes-all",
      "03-per-topic-skew",
      "04-string-order-not-numeric",
      "05-input-order-is-not-member-order",
      "06-uppercase-before-lowercase",
      "07-idle-members",
    ];
    const { results } = run("timeout", ids, ["--timeout", "1000"]);
    const statuses = results.cases.map((c) => c.status);
    expect(statuses.slice(0, 3)).toEqual(["timeout", "timeout", "timeout"]);
    const firstSkipped = statuses.indexOf("skipped");
    expect(firstSkipped).toBeGreaterThanOrEqual(3);
    expect(statuses.slice(firstSkipped).every((s) => s === "skipped")).toBe(true);
    expect(
      results.cases
        .filter((c) => c.status === "skipped")
        .every((c) => c.reason === "skipped-after-timeouts"),
    ).toBe(true);
  });

  afterAll(() => {
    // The fixtures are byte-for-byte what they were, nothing was written, nothing is left running.
    expect(treeHash(join(ROOT, "fixtures"))).toBe(fixturesBefore);
    expect(hostileTmpFiles()).toEqual([]);
    expect(existsSync(join(ROOT, "left-behind.txt"))).toBe(false);
    expect(leftovers()).toEqual([]);
    // Every grading run removed what it built (tsx keeps its own cache there).
    expect(readdirSync(TMP).filter((name) => name.startsWith("kit-"))).toEqual([]);
  });
});
