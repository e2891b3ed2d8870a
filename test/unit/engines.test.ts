// The Node.js ranges the kit and the handout claim (package.json's `engines`): true for every
// package they install (each package's own `engines`, as the lockfile records it), and the same
// ranges in the READMEs. Which versions actually grade is proven in CI by .ci/node-smoke.sh.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HANDOUT_ENGINES } from "../../scripts/handout.ts";
import { ROOT } from "../helpers/program.ts";

// semver (npm's own range semantics) ships no types: only its satisfies function is used.
const satisfies = createRequire(import.meta.url)("semver/functions/satisfies.js") as (
  version: string,
  range: string,
) => boolean;

interface LockEntry {
  version?: string;
  dev?: boolean;
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}
const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as {
  packages: Record<string, LockEntry>;
};
const kit = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  engines: { node: string };
};

/** Versions either side of every bound that matters (Node's release list). */
const VERSIONS = [
  "20.18.3",
  "20.19.0",
  "21.7.3",
  "22.11.0",
  "22.12.0",
  "22.13.0",
  "23.11.1",
  "24.0.0",
  "26.12.1",
];

/** The lockfile paths of `names` and everything they depend on (nested copies first, as Node finds them). */
function closure(names: readonly string[]): Set<string> {
  const found = new Set<string>();
  const visit = (name: string, from: string) => {
    // From node_modules/a/node_modules/b, look in b's folder, then a's, then the top.
    for (let dir = from; ;) {
      const path = `${dir === "" ? "" : `${dir}/`}node_modules/${name}`;
      if (lock.packages[path] !== undefined) {
        if (found.has(path)) return;
        found.add(path);
        const entry = lock.packages[path];
        for (const dep of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies }))
          visit(dep, path);
        return;
      }
      if (dir === "") return; // an optional dependency npm did not record
      const parent = dir.lastIndexOf("/node_modules/");
      dir = parent < 0 ? "" : dir.slice(0, parent);
    }
  };
  for (const name of names) visit(name, "");
  return found;
}

/** Whether every package at `paths` accepts Node `version`. */
const allAccept = (paths: Iterable<string>, version: string) =>
  [...paths].every((p) => satisfies(version, lock.packages[p]?.engines?.node ?? "*"));

describe("engines", () => {
  it("the kit's range is exactly the versions every package it installs accepts", () => {
    const every = Object.keys(lock.packages).filter((p) => p !== "");
    // vite 8 (rolldown) needs ^20.19.0 || >=22.12.0, eslint 10 ^20.19.0 || ^22.13.0 || >=24.
    expect(VERSIONS.map((v) => satisfies(v, kit.engines.node))).toEqual([
      false,
      true,
      false,
      false,
      false,
      true,
      false,
      true,
      true,
    ]);
    expect(VERSIONS.map((v) => satisfies(v, kit.engines.node))).toEqual(
      VERSIONS.map((v) => allAccept(every, v)),
    );
  });

  it("the handout's range is accepted by every package the handout installs", () => {
    // The handout installs the kit's dependencies, and typescript and @types/node (handout.ts).
    const runtime = Object.keys(lock.packages).filter(
      (p) => p !== "" && lock.packages[p]?.dev !== true,
    );
    const installed = new Set([...runtime, ...closure(["typescript", "@types/node"])]);
    expect(installed.has("node_modules/esbuild")).toBe(true);
    expect(installed.has("node_modules/vite")).toBe(false);
    expect(VERSIONS.map((v) => satisfies(v, HANDOUT_ENGINES.node))).toEqual([
      false,
      true,
      false,
      false,
      true,
      true,
      false,
      true,
      true,
    ]);
    for (const v of VERSIONS.filter((v) => satisfies(v, HANDOUT_ENGINES.node)))
      expect(allAccept(installed, v), v).toBe(true);
  });

  it("the READMEs state the same ranges", () => {
    expect(readFileSync(join(ROOT, "README.md"), "utf8")).toContain(`\`${kit.engines.node}\``);
    expect(readFileSync(join(ROOT, "handout", "README.md"), "utf8")).toContain(
      `\`${HANDOUT_ENGINES.node}\``,
    );
  });
});
