// The class report in a real browser: a batch of ten named submissions (the reference, the
// starter, mutants, a crashing program) is graded on eight cases, and its report.html is opened in
// headless Chromium (the npm package @sparticuz/chromium's binary with its own libraries and
// fonts, unpacked by scripts/chromium.ts and driven by playwright-core; never a browser
// download). Both SVG charts must render with bars of the right relative sizes, and the page
// must ask for nothing over the network. Its screenshot goes to a temporary folder; docs/report.png,
// which the docs show, is re-recorded by `npm run screenshot` (scripts/screenshot.ts).
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeMutant } from "../../grader/instructor/mutants/mutants.ts";
import { launchChromium, type KitChromium } from "../../scripts/chromium.ts";
import { grade } from "../helpers/grader.ts";
import { ROOT } from "../helpers/program.ts";

/** Cases that tell the class's mutants apart (each named on one), a decode case, an extension one. */
const ONLY = [
  "01-lesson-7-partitions-3-members",
  "03-per-topic-skew",
  "04-string-order-not-numeric",
  "05-input-order-is-not-member-order",
  "06-uppercase-before-lowercase",
  "07-idle-members",
  "19-decode-version-0",
  "31-static-members-first",
];

/** Folder name and what it holds: a copy of solution/ or starter/, a mutant, or a hostile program. */
const CLASS: readonly (readonly [string, string])[] = [
  ["alice", "solution"],
  ["bob", "mutant:locale-order"],
  ["carol", "mutant:global-assignment"],
  ["dave", "starter"],
  ["erin", "mutant:numeric-order"],
  ["frank", "mutant:idle-members-dropped"],
  ["grace", "mutant:little-endian"],
  ["heidi", "solution"],
  ["ivan", "mutant:arrival-order"],
  ["judy", "hostile:crash"],
];

describe("report.html in headless Chromium", () => {
  let dir: string;
  let out: string;
  let chromium: KitChromium | undefined;
  let page: Page;
  const offNetwork: string[] = [];
  const failed: string[] = [];
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "kit-report-"));
    const submissions = join(dir, "class");
    mkdirSync(submissions);
    for (const [name, source] of CLASS) {
      const [kind, what = ""] = source.split(":");
      const from =
        kind === "mutant"
          ? writeMutant(what)
          : kind === "hostile"
            ? join(ROOT, "test", "submissions", what)
            : join(ROOT, source);
      cpSync(from, join(submissions, name), { recursive: true });
      if (kind === "mutant") rmSync(dirname(from), { recursive: true, force: true });
    }
    out = join(dir, "out");
    const run = grade([
      "--batch",
      submissions,
      "--report-dir",
      out,
      ...ONLY.flatMap((id) => ["--only", id]),
    ]);
    if (run.status !== 0) throw new Error(`the batch failed: ${run.stderr}`);
    chromium = await launchChromium();
    const context = await chromium.browser.newContext({ viewport: { width: 1100, height: 900 } });
    await context.route(
      (url) => url.protocol !== "file:",
      async (route) => {
        offNetwork.push(route.request().url());
        await route.abort();
      },
    );
    page = await context.newPage();
    page.on("requestfailed", (request) => failed.push(request.url()));
    page.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(message.text());
    });
    await page.goto(pathToFileURL(join(out, "report.html")).href, { waitUntil: "load" });
  }, 240_000);

  afterAll(async () => {
    await chromium?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it("runs the Chromium that @sparticuz/chromium ships (its major version is the package's)", () => {
    const pinned = (
      JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
        devDependencies: Record<string, string>;
      }
    ).devDependencies["@sparticuz/chromium"];
    expect(chromium?.version).toMatch(/^Chromium \d+\.\d+\.\d+\.\d+$/);
    expect(chromium?.version.split(" ")[1]?.split(".")[0]).toBe(pinned?.split(".")[0]);
  });

  it("renders both charts, with bars sized by their share", async () => {
    const charts = await page.$$eval("svg.chart", (svgs) =>
      svgs.map((svg) => {
        const box = svg.getBoundingClientRect();
        const bars = [...svg.querySelectorAll("rect.bar")].map((bar) => ({
          share: Number(bar.getAttribute("data-share")),
          width: bar.getBoundingClientRect().width,
          height: bar.getBoundingClientRect().height,
        }));
        const track = svg.querySelector("rect.track")?.getBoundingClientRect().width ?? 0;
        return { id: svg.id, width: box.width, height: box.height, bars, track };
      }),
    );
    expect(charts.map((c) => c.id)).toEqual(["pass-rate", "mistakes"]);
    for (const chart of charts) {
      expect(chart.width, chart.id).toBeGreaterThan(300);
      expect(chart.height, chart.id).toBeGreaterThan(100);
      expect(chart.track, chart.id).toBeGreaterThan(100);
      const drawn = chart.bars.filter((b) => b.share > 0);
      expect(drawn.length, chart.id).toBeGreaterThan(0);
      for (const bar of chart.bars) {
        expect(bar.height).toBeGreaterThan(5);
        // A bar's rendered length is its share of the track (to a pixel).
        expect(Math.abs(bar.width - bar.share * chart.track)).toBeLessThan(1.5);
      }
    }
    const passRate = charts[0];
    // Two of ten submissions are the reference, so no case is under 20%.
    expect(passRate?.bars.every((b) => b.share >= 0.2)).toBe(true);
    const mistakes = await page.$$eval("#mistakes g.row", (rows) =>
      rows.map((row) => ({
        label: row.querySelector("text.label")?.textContent ?? "",
        width: row.querySelector("rect.bar")?.getBoundingClientRect().width ?? 0,
      })),
    );
    for (const id of [
      "locale-order",
      "global-assignment",
      "numeric-order",
      "idle-members-dropped",
      "arrival-order",
    ]) {
      expect(mistakes.find((m) => m.label === id)?.width, id).toBeGreaterThan(10);
    }
  });

  it("lists every submission with its own table", async () => {
    const names = await page.$$eval("#submissions tbody tr td:first-child", (cells) =>
      cells.map((c) => c.textContent),
    );
    expect(names).toEqual(CLASS.map(([name]) => name));
    expect(await page.locator("details table").count()).toBe(CLASS.length);
    expect(await page.locator("script, link, img, iframe").count()).toBe(0);
  });

  it("asks for nothing over the network, and saves a screenshot", async () => {
    expect(offNetwork).toEqual([]);
    expect(failed).toEqual([]);
    expect(consoleErrors).toEqual([]);
    // Never docs/report.png: `npm run screenshot` re-records that one, on purpose.
    const target = join(dir, "report.png");
    const png = await page.screenshot({ path: target, fullPage: true });
    expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
    expect(png.length).toBeGreaterThan(20_000);
  });
});
