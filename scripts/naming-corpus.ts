/**
 * `npm run measure:naming -- [CORPUS] [--kit DIR]`: how precisely the grader names mistakes, on a
 * corpus of realistic wrong submissions written by someone who did not write the catalogue
 * (test/naming-corpus/ by default; its README says who wrote it and how). Each variant folder has
 * the student files it changes (subscription.ts, range-assignor.ts, assignment.ts; a file it does
 * not hold is the reference's, a stage done right) and label.json: the bug in words and
 * the mistake ids that would name it correctly (`acceptable`, [] when none does).
 *
 * A label may also give a `state` and several mistakes (the corpora of issue-style measurement,
 * test/naming-corpus-dev and -test): `{ state: "one" | "partial" | "two", mistakes: [{ bug, file,
 * acceptable }], unstarted?: [{ what, acceptable }] }`; the older `{ bug, acceptable }` is state
 * `one` with that one mistake. Variant folders are `NN-slug` or `<author>-NN-slug`; `00-correct`
 * and `<author>-00-correct` are each author's own correct solution, not measured.
 *
 * Every variant is put into a copy of the kit's starter and the lot graded as one batch by the
 * kit in --kit (default: this kit; point it at a checkout of an older commit to measure "before").
 * Then, over the variants that lost points:
 *   precision = named ids that are acceptable / all ids named (a wrong name is worse than none),
 *   recall    = variants with an acceptable name / variants that have one (acceptable non-empty);
 * and per state, over every variant of that state (caught or not):
 *   recall    = variants each of whose mistakes has an acceptable id named / all variants,
 *   precision = names shown that fit a mistake or an unstarted stage / all names shown;
 * and, where the corpus has ids-at-labelling.txt (the ids `--list-mistakes` listed when its labels
 * were written), the same precision over the names with one of those ids: a name added to the
 * catalogue since is one no label could choose, right or wrong.
 * A corpus is data, never a test: keep its variants out of the tests. Only a development corpus
 * (test/naming-corpus-dev) may be tuned on; a frozen one (test/naming-corpus-test) is only measured.
 *
 * Exit 0 with the table on standard output; 2 for bad arguments.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";

const ROOT = resolve(import.meta.dirname, "..");

/** One mistake of a variant, and the ids that would name it correctly ([] when none fits). */
interface Mistake {
  bug: string;
  acceptable: string[];
}

/** label.json: the older single-mistake form, or a state with its mistakes. */
type LabelFile =
  | Mistake
  | {
      state: "one" | "partial" | "two";
      mistakes: Mistake[];
      unstarted?: { what: string; acceptable: string[] }[];
    };

interface Label {
  state: string;
  mistakes: Mistake[];
  /** Every id that fits: a mistake's or an unstarted stage's. */
  fitting: string[];
}

/** A label.json read into one shape. */
function readLabel(file: string): Label {
  const raw = JSON.parse(readFileSync(file, "utf8")) as LabelFile;
  if ("mistakes" in raw) {
    const fitting = [
      ...raw.mistakes.flatMap((m) => m.acceptable),
      ...(raw.unstarted ?? []).flatMap((u) => u.acceptable),
    ];
    return { state: raw.state, mistakes: raw.mistakes, fitting };
  }
  return { state: "one", mistakes: [raw], fitting: [...raw.acceptable] };
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
  .filter(
    (d) =>
      d.isDirectory() &&
      /^(?:[a-z]+-)?\d\d-/.test(d.name) &&
      !/^(?:[a-z]+-)?00-correct$/.test(d.name),
  )
  .map((d) => d.name)
  .sort();

// One batch folder: the kit's starter with each variant's files.
const work = mkdtempSync(join(tmpdir(), "kit-naming-"));
const batch = join(work, "batch");
const out = join(work, "out");
for (const name of variants) {
  const dir = join(batch, name);
  cpSync(join(kit, "starter"), dir, { recursive: true });
  // A student file the variant does not hold is the reference's: a stage done right (the sync
  // corpora hold assignment.ts alone; the older ones have no assignment.ts).
  for (const file of ["subscription.ts", "range-assignor.ts", "assignment.ts"]) {
    const own = join(corpus, name, file);
    cpSync(existsSync(own) ? own : join(kit, "solution", "src", file), join(dir, "src", file));
  }
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
/**
 * The ids a label could name (ids-at-labelling.txt in the corpus: `--list-mistakes` when the
 * labels were written), or undefined when the corpus does not say. A name added to the catalogue
 * since is one no label can call right or wrong.
 */
const labelIdsFile = join(corpus, "ids-at-labelling.txt");
const labelIds = existsSync(labelIdsFile)
  ? new Set(
      readFileSync(labelIdsFile, "utf8")
        .split("\n")
        .map((line) => line.trim())
        .filter((line) => line !== "" && !line.startsWith("#")),
    )
  : undefined;
/**
 * Per state: variants, those with every mistake named, names shown, names that fit; and among
 * the names shown, those whose id a label could name, and how many of them fit.
 */
const states = new Map<
  string,
  {
    variants: number;
    recalled: number;
    shown: number;
    fit: number;
    judgeable: number;
    judgedFit: number;
  }
>();
for (const name of variants) {
  const label = readLabel(join(corpus, name, "label.json"));
  const acceptable = label.fitting;
  const results = JSON.parse(
    readFileSync(join(out, "results", `${name}.json`), "utf8"),
  ) as ResultsJson;
  const lost =
    results.score < results.maxScore || results.extensionScore < results.extensionMaxScore;
  const named = [
    ...new Set(results.cases.filter((c) => c.status !== "pass").flatMap((c) => c.mistakes)),
  ];
  const wrong = named.filter((id) => !acceptable.includes(id));
  const state = states.get(label.state) ?? {
    variants: 0,
    recalled: 0,
    shown: 0,
    fit: 0,
    judgeable: 0,
    judgedFit: 0,
  };
  states.set(label.state, state);
  state.variants++;
  state.shown += named.length;
  state.fit += named.length - wrong.length;
  const judgeable = named.filter((id) => labelIds === undefined || labelIds.has(id));
  state.judgeable += judgeable.length;
  state.judgedFit += judgeable.filter((id) => acceptable.includes(id)).length;
  if (lost && label.mistakes.every((m) => m.acceptable.some((id) => named.includes(id))))
    state.recalled++;
  let verdict: string;
  if (!lost) verdict = "not caught";
  else {
    caught++;
    namedTotal += named.length;
    namedRight += named.length - wrong.length;
    if (acceptable.length > 0) recallable++;
    const right = named.some((id) => acceptable.includes(id));
    if (right) recalled++;
    verdict =
      wrong.length > 0
        ? `WRONG NAME ${wrong.join(" ")}`
        : right
          ? "named"
          : acceptable.length > 0
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
      acceptable.join(" ") || "-",
      label.state,
    ].join("\t"),
  );
}
rmSync(work, { recursive: true, force: true });

const percent = (a: number, b: number) => (b === 0 ? "n/a" : `${((100 * a) / b).toFixed(0)}%`);
console.log(
  ["variant", "required", "extension", "verdict", "named", "acceptable", "state"].join("\t"),
);
for (const row of rows) console.log(row);
console.log(
  `\n${variants.length} variants, ${caught} lost points; precision ${percent(namedRight, namedTotal)} ` +
    `(${namedRight} of ${namedTotal} names right); recall ${percent(recalled, recallable)} ` +
    `(${recalled} of ${recallable} variants with a fitting id named)`,
);
for (const [state, m] of [...states].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
  console.log(
    `state ${state}: ${m.variants} variants; recall ${percent(m.recalled, m.variants)} ` +
      `(${m.recalled} with every mistake named); precision ${percent(m.fit, m.shown)} ` +
      `(${m.fit} of ${m.shown} names shown fit)` +
      (labelIds === undefined || m.judgeable === m.shown
        ? ""
        : `; over the ids the labels could name, ${percent(m.judgedFit, m.judgeable)} ` +
          `(${m.judgedFit} of ${m.judgeable}; ${m.shown - m.judgeable} names of ids added since)`),
  );
}
