// The grader runs from an esbuild bundle in .grader/ (grader/launch.mjs builds it). An error of
// the grader's own must still name the grader/*.ts line it came from, through the bundle's source
// maps. Only the bundled grader shows this, so one spawn: the grader with a preload that makes
// standard output refuse every write, so that `--list-mistakes` throws inside grader/cli.ts.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { grade } from "../helpers/grader.ts";
import { ROOT } from "../helpers/program.ts";

const dir = mkdtempSync(join(tmpdir(), "kit-grader-stack-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a grader error's stack", () => {
  const preload = join(dir, "refuse-stdout.mjs");
  writeFileSync(
    preload,
    'process.stdout.write = () => {\n  throw new Error("standard output refused");\n};\n',
  );
  const run = grade(["--list-mistakes"], {
    NODE_OPTIONS: `--import=${pathToFileURL(preload).href}`,
  });
  const cli = join(ROOT, "grader", "cli.ts");
  // Where cli.ts prints the catalogue: line and column of the call to `write`, 1-based as in stacks.
  const lines = readFileSync(cli, "utf8").split("\n");
  const index = lines.findIndex((text) => text.includes("process.stdout.write(`${listMistakes()}"));
  const column = (lines[index] ?? "").indexOf("write(") + 1;

  it("is reported as the grader's internal error, exit 2", () => {
    expect(index).toBeGreaterThan(0);
    expect(run.status, run.stderr).toBe(2);
    expect(run.stderr).toMatch(
      /^grade: internal error of the grader \(not the submission's fault\):\nError: standard output refused\n/,
    );
  });

  it("names grader/cli.ts at the line that wrote, and no bundle chunk", () => {
    const frames = run.stderr.split("\n").filter((text) => text.startsWith("    at "));
    expect(frames.find((text) => text.includes("/grader/"))).toBe(
      `    at main (${cli}:${index + 1}:${column})`,
    );
    expect(frames.filter((text) => text.includes("/.grader/"))).toEqual([]);
  });
});
