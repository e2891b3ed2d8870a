// A report file is never written into a FIFO: making one needs mkfifo, a process. Links and
// sockets are test/unit/safe-write.test.ts's.
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeReportFile } from "../../grader/safe-write.ts";

describe("writeReportFile", () => {
  it("refuses a FIFO without blocking on it", () => {
    const path = join(mkdtempSync(join(tmpdir(), "kit-safe-write-")), "junit.xml");
    execFileSync("mkfifo", [path]);
    expect(() => writeReportFile(path, "x")).toThrow(/FIFO or socket/);
  });
});
