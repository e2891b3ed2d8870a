// The sandbox wrapper's report as runProcess reads it (parseReport), in process. Running programs
// through the wrapper (a process) is test/e2e/run-process.test.ts's.
import { describe, expect, it } from "vitest";
import { parseReport } from "../../grader/run/run-process.ts";

describe("parseReport", () => {
  it("reads status, CPU time and the wrapper's wall time (seconds since boot)", () => {
    const report = parseReport(
      "start 100.25\nstatus 0\nend 100.75\n0m0.010000s 0m0.000000s\n0m0.120000s 0m0.030000s\n",
    );
    expect(report).toEqual({
      ended: true,
      exitCode: 0,
      signal: null,
      cpuMs: 150,
      wallMs: 500,
      sandboxError: null,
    });
  });

  it("a status above 128 is the signal that ended the program; no status, not ended", () => {
    expect(parseReport("start 1.00\nstatus 153\nend 1.10\n").signal).toBe("SIGXFSZ");
    expect(parseReport("start 1.00\n")).toMatchObject({
      ended: false,
      exitCode: null,
      wallMs: null,
    });
  });
});
