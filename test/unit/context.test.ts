// How many cases run at once (context.ts availableCpus): the CPUs the process may use, from its
// affinity mask and its cgroup's CPU quota, read from files given here as a map.
import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import { availableCpus } from "../../grader/context.ts";

/** A reader over `files`; a missing file throws, as readFileSync does. */
function files(entries: Record<string, string>): (path: string) => string {
  return (path) => {
    const text = entries[path];
    if (text === undefined) throw new Error(`ENOENT: ${path}`);
    return text;
  };
}

const mask = availableParallelism();

describe("availableCpus", () => {
  it("cgroup v2: a quota of one CPU's time gives 1, of 1.5 CPUs 2 (within the mask), max none", () => {
    const v2 = (cpuMax: string) =>
      files({ "/proc/self/cgroup": "0::/runner\n", "/sys/fs/cgroup/runner/cpu.max": cpuMax });
    expect(availableCpus(v2("100000 100000\n"))).toBe(1);
    expect(availableCpus(v2("50000 100000\n"))).toBe(1);
    expect(availableCpus(v2("150000 100000\n"))).toBe(Math.min(2, mask));
    expect(availableCpus(v2("max 100000\n"))).toBe(mask);
  });

  it("cgroup v1: cpu.cfs_quota_us over cpu.cfs_period_us; -1 is no quota", () => {
    const v1 = (quota: string) =>
      files({
        "/proc/self/cgroup": "4:memory:/x\n2:cpu,cpuacct:/docker/abc\n0::/\n",
        "/sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_quota_us": quota,
        "/sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_period_us": "100000\n",
      });
    expect(availableCpus(v1("100000\n"))).toBe(1);
    expect(availableCpus(v1("-1\n"))).toBe(mask);
  });

  it("no cgroup files (not Linux, or not mounted): the affinity mask alone", () => {
    expect(availableCpus(files({}))).toBe(mask);
    expect(availableCpus(files({ "/proc/self/cgroup": "0::/\n" }))).toBe(mask);
  });
});
