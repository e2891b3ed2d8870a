// Report files are written without following a planted link and never into a FIFO or socket (a
// FIFO needs mkfifo, a process: test/e2e/report-fifo.test.ts).
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { prepareReportDir } from "../../grader/batch/output.ts";
import { SetupError } from "../../grader/errors.ts";
import { writeReportFile } from "../../grader/safe-write.ts";

const dir = () => mkdtempSync(join(tmpdir(), "kit-safe-write-"));

describe("writeReportFile", () => {
  it("creates a file and replaces a regular file's contents", () => {
    const path = join(dir(), "results.json");
    writeReportFile(path, "first, longer text\n");
    writeReportFile(path, "second\n");
    expect(readFileSync(path, "utf8")).toBe("second\n");
  });

  it("ownerOnly: a new file is 0600, and an existing 0644 one is made 0600 before it is written", () => {
    const d = dir();
    const fresh = join(d, "private-view.txt");
    writeReportFile(fresh, "secret\n", { ownerOnly: true });
    expect(statSync(fresh).mode & 0o777).toBe(0o600);
    const old = join(d, "old-view.txt");
    writeFileSync(old, "before");
    chmodSync(old, 0o644);
    writeReportFile(old, "secret\n", { ownerOnly: true });
    expect(statSync(old).mode & 0o777).toBe(0o600);
    expect(readFileSync(old, "utf8")).toBe("secret\n");
  });

  it("refuses a symbolic link and leaves its target untouched", () => {
    const d = dir();
    const target = join(d, "elsewhere.txt");
    writeFileSync(target, "precious");
    symlinkSync(target, join(d, "results.json"));
    expect(() => writeReportFile(join(d, "results.json"), "x")).toThrow(/symbolic link/);
    expect(readFileSync(target, "utf8")).toBe("precious");
    // A link to nothing is refused too (it would create its target).
    symlinkSync(join(d, "nothing-yet"), join(d, "dangling.json"));
    expect(() => writeReportFile(join(d, "dangling.json"), "x")).toThrow(SetupError);
    expect(existsSync(join(d, "nothing-yet"))).toBe(false);
  });

  it("refuses a socket file", async () => {
    const path = join(dir(), "report.html");
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(path, resolve));
    try {
      expect(() => writeReportFile(path, "x")).toThrow(SetupError);
    } finally {
      server.close();
    }
  });
});

describe("prepareReportDir", () => {
  it("refuses a --report-dir that is a symbolic link", () => {
    const d = dir();
    symlinkSync(dir(), join(d, "out"));
    expect(() => prepareReportDir(join(d, "out"))).toThrow(/symbolic link/);
  });
});
