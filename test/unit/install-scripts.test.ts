// npm 11 runs a dependency's install script with a notice ("not yet covered by allowScripts", then
// `npm install-scripts approve`) unless package.json's allowScripts approves or denies it. The kit
// decides for every package in its lockfile that has one, so `npm ci` leaves nobody to guess; the
// handout copies the decisions (test/e2e/handout.test.ts). npm 10 ignores the field.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/program.ts";

const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as {
  packages: Record<string, { hasInstallScript?: boolean }>;
};
const kit = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  allowScripts?: Record<string, boolean>;
};

/** The package name of a lockfile path (`node_modules/a/node_modules/@s/b` is `@s/b`). */
const packageName = (path: string) => path.slice(path.lastIndexOf("node_modules/") + 13);

describe("install scripts", () => {
  it("esbuild's postinstall is the only one in the lockfile", () => {
    const withScripts = Object.entries(lock.packages)
      .filter(([, entry]) => entry.hasInstallScript === true)
      .map(([path]) => packageName(path));
    expect(withScripts).toEqual(["esbuild"]);
  });

  it("allowScripts approves it by name (the lockfile pins the version) and nothing else", () => {
    expect(kit.allowScripts).toEqual({ esbuild: true });
  });
});
