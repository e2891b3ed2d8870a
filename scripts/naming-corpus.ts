/**
 * `npm run measure:naming -- [CORPUS] [--kit DIR]`: how precisely the grader names mistakes, on a
 * corpus of realistic wrong submissions written by someone who did not write the catalogue
 * (test/naming-corpus/ by default; its README says who wrote it and how). Each variant folder has
 * the two student files (subscription.ts, range-assignor.ts) and label.json: the bug in words and
 * the mistake ids that would name it correctly (`acceptable`, [] when none does).
 *
 * Every variant is put into a copy of the kit's starter and the lot graded as one batch by the
 * kit in --kit (default: this kit; point it at a checkout of an older commit to measure "before").
 * Then, over the variants that lost points:
 *   precision = named ids that are acceptable / all ids named (a wrong name is worse than none),
 *   recall    = variants with an acceptable name / variants that have one (acceptable non-empty).
 * The corpus is measured, never used to tune the catalogue: keep new variants out of the tests.
 *
 * Exit 0 with the table on standard output; 2 for bad arguments.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";

const ROOT = resolve(import.meta.dirname, "..");

interface Label {
  bug: string;
  acceptable: string[];
}

interface CaseJson {
  status: string;
  required: boolean;
  mistakes: string[];
}

interface ResultsJson {
  score: number;
  maxScore: number;
  extensionScore: number;
  extensionMaxScore: number;
  cases: CaseJson[];
}

const { values, positionals } = parseArgs({
  options: { kit: { type: "string", default: ROOT } },
  allowPositionals: true,
});
if (positionals.length > 1) {
  console.error("usage: npm run measure:naming -- [CORPUS] [--kit DIR]");
  process.exit(2);
}
const corpus = resolve(positionals[0] ?? join(ROOT, "test", "naming-corpus"));
const kit = resolve(values.kit);

const variants = readdirSync(corpus, { withFileTypes: true })
  .filter((d) => d.isDirectory() && /^\d\d-/.test(d.name) && d.name !== "00-correct")
  .map((d) => d.name)
  .sort();

// One batch folder: the kit's starter with each variant's two files.
const work = mkdtempSync(join(tmpdir(), "kit-naming-"));
const batch = join(work, "batch");
const out = join(work, "out");
for (const name of variants) {
  const dir = join(batch, name);
  cpSync(join(kit, "starter"), dir, { recursive: true });
  for (const file of ["subscription.ts", "range-assignor.ts"])
    cpSync(join(corpus, name, file), join(dir, "src", file));
}
const run = spawnSync(
  process.execPath,
  [join(kit, "grader", "launch.mjs"), "--batch", batch, "--report-dir", out],
  { cwd: kit, encoding: "utf8", stdio: ["ignore", "ignore", "inherit"] },
);
if (run.status !== 0 && run.status !== 1) {
  console.error(`the batch failed (exit ${run.status})`);
  process.exit(1);
}

let namedTotal = 0;
let namedRight = 0;
let recallable = 0;
let recalled = 0;
let caught = 0;
const rows: string[] = [];
for (const name of variants) {
  const label = JSON.parse(readFileSync(join(corpus, name, "label.json"), "utf8")) as Label;
  const results = JSON.parse(
    readFileSync(join(out, "results", `${name}.json`), "utf8"),
  ) as ResultsJson;
  const lost =
    results.score < results.maxScore || results.extensionScore < results.extensionMaxScore;
  const named = [
    ...new Set(results.cases.filter((c) => c.status !== "pass").flatMap((c) => c.mistakes)),
  ];
  const wrong = named.filter((id) => !label.acceptable.includes(id));
  let verdict: string;
  if (!lost) verdict = "not caught";
  else {
    caught++;
    namedTotal += named.length;
    namedRight += named.length - wrong.length;
    if (label.acceptable.length > 0) recallable++;
    const right = named.some((id) => label.acceptable.includes(id));
    if (right) recalled++;
    verdict =
      wrong.length > 0
        ? `WRONG NAME ${wrong.join(" ")}`
        : right
          ? "named"
          : label.acceptable.length > 0
            ? "unnamed"
            : "unnamed (no id fits)";
  }
  rows.push(
    [
      name,
      `${results.score}/${results.maxScore}`,
      `${results.extensionScore}/${results.extensionMaxScore}`,
      verdict,
      named.join(" ") || "-",
      label.acceptable.join(" ") || "-",
    ].join("\t"),
  );
}
rmSync(work, { recursive: true, force: true });

const percent = (a: number, b: number) => (b === 0 ? "n/a" : `${((100 * a) / b).toFixed(0)}%`);
console.log(["variant", "required", "extension", "verdict", "named", "acceptable"].join("\t"));
for (const row of rows) console.log(row);
console.log(
  `\n${variants.length} variants, ${caught} lost points; precision ${percent(namedRight, namedTotal)} ` +
    `(${namedRight} of ${namedTotal} names right); recall ${percent(recalled, recallable)} ` +
    `(${recalled} of ${recallable} variants with a fitting id named)`,
);
