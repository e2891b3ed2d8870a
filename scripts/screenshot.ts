/**
 * `npm run screenshot [-- --out FILE]`: re-records docs/report.png, the class report the docs show.
 *
 * Grades a small class with `--batch` into a temporary folder (alice: the reference; bob: the
 * reference with the `locale-order` mistake, written by writeMutant; dave: the starter), opens its
 * report.html in headless Chromium (the npm package @sparticuz/chromium's, unpacked by chromium.ts;
 * driven by playwright-core, never a browser download) with every request off the machine refused,
 * and saves a full-page screenshot. The temporary folder is removed afterwards.
 *
 * A documentation artefact, not a test: run it after a change to report.html's look or to what the
 * batch grades, and commit the image. test/e2e/report-browser.test.ts checks the report itself.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { writeMutant } from "../grader/instructor/mutants/mutants.ts";
import { launchChromium } from "./chromium.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const MUTANT = "locale-order";

const { values } = parseArgs({
  options: { out: { type: "string", default: join(ROOT, "docs", "report.png") } },
});
const target = resolve(process.env.INIT_CWD ?? process.cwd(), values.out);

const dir = mkdtempSync(join(tmpdir(), "kit-screenshot-"));
const mutant = writeMutant(MUTANT);
try {
  const submissions = join(dir, "class");
  mkdirSync(submissions);
  cpSync(join(ROOT, "solution"), join(submissions, "alice"), { recursive: true });
  cpSync(mutant, join(submissions, "bob"), { recursive: true });
  cpSync(join(ROOT, "starter"), join(submissions, "dave"), { recursive: true });

  // The three are the kit's own code, so they may run where the sandbox has no namespaces.
  const out = join(dir, "out");
  const run = spawnSync(
    process.execPath,
    [
      join(ROOT, "grader", "launch.mjs"),
      "--batch",
      submissions,
      "--report-dir",
      out,
      "--allow-unisolated",
    ],
    { cwd: ROOT, stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, NO_COLOR: "1" } },
  );
  if (run.status !== 0) throw new Error(`the batch did not run (exit ${String(run.status)})`);

  const chromium = await launchChromium();
  try {
    const context = await chromium.browser.newContext({ viewport: { width: 1100, height: 900 } });
    const refused: string[] = [];
    await context.route(
      (url) => url.protocol !== "file:",
      async (route) => {
        refused.push(route.request().url());
        await route.abort();
      },
    );
    const page = await context.newPage();
    await page.goto(pathToFileURL(join(out, "report.html")).href, { waitUntil: "load" });
    if (refused.length > 0) throw new Error(`report.html asked for ${refused.join(", ")}`);
    mkdirSync(dirname(target), { recursive: true });
    await page.screenshot({ path: target, fullPage: true });
  } finally {
    await chromium.close();
  }
  process.stderr.write(`wrote ${target}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
  rmSync(dirname(mutant), { recursive: true, force: true });
}
