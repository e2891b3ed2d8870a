// The figures the kit's pages print (stamps, scores, maxima, case counts, per-case points, the
// handout's and the Gradescope bundle's file counts, the gradebook's columns, a batch's time) are
// checked against the kit itself, computed in process: the case set from fixtures/, the handout's
// files from scripts/handout.ts's own listing and its own summary, the bundle's from the folders
// it copies. A page that shows a figure in one of these forms and gets it wrong fails here.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { globSync } from "tinyglobby";
import { afterAll, describe, expect, it } from "vitest";
import { gradebookHeader } from "../../grader/batch/gradebook.ts";
import { fixtureHash } from "../../grader/cases/hash.ts";
import { FixtureSchemas, loadCases } from "../../grader/cases/load.ts";
import { BUILT_IN_CASES_DIR, kitVersion } from "../../grader/kit.ts";
import { handoutFiles, summary } from "../../scripts/handout.ts";
import { parseExtensionPolicy, policyTotal } from "../../grader/totals.ts";
import { run } from "../../solution/src/main.ts";
import { MEMORY_MIB, OUTPUT_CAP_BYTES, STDERR_MAX_BYTES } from "../../grader/limits.ts";
import { DATA_BEYOND_HEAP_MIB, PROGRAM_OPEN_FILES } from "../../grader/run/program.ts";
import { PROCESS_LIMIT } from "../../grader/run/sandbox.ts";
import { STAGE_LIMITS } from "../../grader/run/stage.ts";
import { ANSWER_SIZE_FACTOR } from "../../grader/verdict/answer-size.ts";
import { LINE_MAX_BYTES, STDERR_MAX_LINES } from "../../grader/verdict/capped-text.ts";
import { ROOT } from "../helpers/program.ts";

const PAGES = [
  "README.md",
  "handout/README.md", // its {{placeholders}} are filled from the kit; its other figures are checked here
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
  ...readdirSync(join(ROOT, "templates"))
    .map((dir) => `templates/${dir}/README.md`)
    .filter((page) => globSync(page, { cwd: ROOT }).length > 0),
];
const text = (page: string) => readFileSync(join(ROOT, page), "utf8");

const version = kitVersion();
const cases = loadCases(BUILT_IN_CASES_DIR, [], new FixtureSchemas());
const byId = new Map(cases.map((c) => [c.id, c]));
const required = cases.filter((c) => c.required);
const extension = cases.filter((c) => !c.required);
const sum = (list: typeof cases) => list.reduce((total, c) => total + c.points, 0);
const REQUIRED_POINTS = sum(required);
const EXTENSION_POINTS = sum(extension);

/**
 * The private case the pages' examples grade with, `private-cases/01-idle-again`: a copy of
 * 07-idle-members, as test/e2e/templates.test.ts makes it for the Gradescope bundle.
 */
const work = mkdtempSync(join(tmpdir(), "kit-docs-figures-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
cpSync(join(BUILT_IN_CASES_DIR, "07-idle-members"), join(work, "private-cases", "01-idle-again"), {
  recursive: true,
  filter: (source) => !source.endsWith("recipe.ts"),
});
const withPrivate = loadCases(
  BUILT_IN_CASES_DIR,
  [join(work, "private-cases")],
  new FixtureSchemas(),
);
const PRIVATE_ID = "private-cases/01-idle-again";
const privateCase = withPrivate.find((c) => c.id === PRIVATE_ID);

/** A fenced code block of a page, and whether it grades the example's private case too. */
interface Block {
  page: string;
  body: string;
  withPrivate: boolean;
}

/** Every fenced block of every page, and each page's prose as one more block. */
function blocks(): Block[] {
  const out: Block[] = [];
  for (const page of PAGES) {
    const markdown = text(page);
    for (const m of markdown.matchAll(/^```[^\n]*\n([\s\S]*?)^```$/gm)) {
      const body = m[1] ?? "";
      out.push({ page, body, withPrivate: body.includes(PRIVATE_ID) });
    }
    const prose = markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "");
    out.push({ page, body: prose, withPrivate: false });
  }
  return out;
}

describe("the figures the docs print are the kit's", () => {
  it("the example's private case loads: 2 required points, as the examples show", () => {
    expect(privateCase).toMatchObject({ points: 2, required: true });
  });

  it("every stamp names this kit's version and case set (the whole set where a private case is graded)", () => {
    const builtIn = fixtureHash(cases);
    const whole = fixtureHash(withPrivate);
    expect(whole).not.toBe(builtIn);
    const wrong: string[] = [];
    let seen = 0;
    for (const block of blocks()) {
      const patterns = [
        /\bkit (\d+\.\d+\.\d+), fixtures `?([0-9a-f]{16})/gi,
        /\bKit (\d+\.\d+\.\d+), case set ([0-9a-f]{16})/g,
        /"kit": \{ "version": "([^"]+)", "fixtures": "([0-9a-f]{16})" \}/g,
      ];
      for (const pattern of patterns) {
        for (const m of block.body.matchAll(pattern)) {
          seen++;
          // Where the example grades a private case too, the text report stamps the whole set
          // (a summary a student reads stamps the built-in cases: "Kit ..., case set ...").
          const line = block.body.slice(block.body.lastIndexOf("\n", m.index) + 1, m.index);
          const expected = block.withPrivate && line.startsWith("Grading ") ? whole : builtIn;
          if (m[1] !== version || m[2] !== expected) {
            wrong.push(`${block.page}: ${m[0]} (expected ${version}, ${expected})`);
          }
        }
      }
      // gradescope-bundle's second stamp line, with the example's private case.
      for (const m of block.body.matchAll(
        /With the private cases: fixtures ([0-9a-f]{16}) \((\d+) cases\)/g,
      )) {
        seen++;
        if (m[1] !== whole || +m[2]! !== withPrivate.length) wrong.push(`${block.page}: ${m[0]}`);
      }
      for (const m of block.body.matchAll(/name="kit\.(version|fixtures)" value="([^"]+)"/g)) {
        seen++;
        if (m[2] !== (m[1] === "version" ? version : builtIn)) wrong.push(`${block.page}: ${m[0]}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(seen).toBeGreaterThan(10);
  });

  it("every Required:/Extension: line, batch line and case count has the case set's maxima", () => {
    const wrong: string[] = [];
    let seen = 0;
    const check = (block: Block, shown: string, ok: boolean) => {
      seen++;
      if (!ok) wrong.push(`${block.page}: ${shown}`);
    };
    for (const block of blocks()) {
      const extra = block.withPrivate ? 1 : 0;
      const requiredPoints = REQUIRED_POINTS + extra * (privateCase?.points ?? 0);
      for (const m of block.body.matchAll(
        /\b(Required|Extension): +(\d+)\/(\d+) points, (\d+) of (\d+) cases passed/g,
      )) {
        const [, kind, points = "", max, passed = "", of] = m;
        const expected =
          kind === "Required"
            ? [requiredPoints, required.length + extra]
            : [EXTENSION_POINTS, extension.length];
        check(
          block,
          m[0],
          `${max}/${of}` === expected.join("/") && +points <= +expected[0]! && +passed <= +of!,
        );
      }
      // A Total: line is the policy's total of the Required: and Extension: lines before it.
      for (const m of block.body.matchAll(
        /Required: +(\d+)\/(\d+) points, (\d+) of (\d+) cases passed[^\n]*\n+Extension: +(\d+)\/(\d+) points[^\n]*\n+Total: +(\d+)\/(\d+) points; extension policy ([\w=]+)/g,
      )) {
        const [score, maxScore, passed, of, extensionScore, extensionMaxScore, total, maxTotal] = m
          .slice(1, 9)
          .map(Number);
        const policy = parseExtensionPolicy(m[9] ?? "");
        const expected = policyTotal(
          policy,
          {
            score: score!,
            maxScore: maxScore!,
            extensionScore: extensionScore!,
            extensionMaxScore: extensionMaxScore!,
          },
          passed === of,
        );
        check(block, m[0], `${total}/${maxTotal}` === `${expected.points}/${expected.maxPoints}`);
      }
      // A batch's line per submission, and the job summary's title.
      for (const m of block.body.matchAll(/: (\d+)\/(\d+) \(extension (\d+)\/(\d+)\)/g)) {
        check(block, m[0], +m[2]! === REQUIRED_POINTS && +m[4]! === EXTENSION_POINTS);
      }
      // GitHub Classroom's points: the required maximum.
      for (const m of block.body.matchAll(
        /Points (\d+)\/(\d+)|"maxPoints":(\d+)|(\d+) of the (\d+) required points/g,
      )) {
        check(block, m[0], +(m[2] ?? m[3] ?? m[5])! === REQUIRED_POINTS);
      }
      for (const m of block.body.matchAll(/(\d+)\/(\d+) required points/g)) {
        check(block, m[0], +m[2]! === REQUIRED_POINTS);
      }
      for (const m of block.body.matchAll(/name="(score|extensionScore)" value="(\d+)\/(\d+)"/g)) {
        check(block, m[0], +m[3]! === (m[1] === "score" ? REQUIRED_POINTS : EXTENSION_POINTS));
      }
      for (const m of block.body.matchAll(
        /(?<!private cases: )fixtures [0-9a-f]{16} \((\d+) cases\)[:,]/g,
      )) {
        check(block, m[0], +m[1]! === cases.length);
      }
      for (const m of block.body.matchAll(/\b(\d+) cases(?: each)? (?:\(kit|graded at)/g)) {
        check(block, m[0], +m[1]! === cases.length + extra);
      }
    }
    expect(wrong).toEqual([]);
    expect(seen).toBeGreaterThan(20);
  });

  it("every case a report line, annotation, table row or case list shows has its id's points and kind", () => {
    const wrong: string[] = [];
    let seen = 0;
    // A --random case is worth 1 point (grader/instructor/random/random-cases.ts).
    const points = (id: string) =>
      id === PRIVATE_ID ? privateCase?.points : id.startsWith("random/") ? 1 : byId.get(id)?.points;
    for (const block of blocks()) {
      const shown = [
        // text report lines: "✓ 01-...   2/2", and watch mode's
        ...block.body.matchAll(/^[✓✗] ([\w/-]+) +(\d+)\/(\d+)\b/gmu),
        // GitHub annotations: "title=06-... (0/2"
        ...block.body.matchAll(/title=([\w-]+) \((\d+)\/(\d+)/g),
        // job summary rows: "| ✅ | 06-...: title | 0/2 |"
        ...block.body.matchAll(/^\| \S+ \| ([\w-]+): [^|]+\| (\d+)\/(\d+) \|/gmu),
      ];
      for (const m of shown) {
        seen++;
        if (points(m[1]!) !== +m[3]!) wrong.push(`${block.page}: ${m[0]}`);
      }
      for (const m of block.body.matchAll(/^([\w/-]+)\t(\d+)\t(required|extension)$/gm)) {
        seen++;
        const c = m[1] === PRIVATE_ID ? privateCase : byId.get(m[1]!);
        if (c?.points !== +m[2]! || (c.required ? "required" : "extension") !== m[3]) {
          wrong.push(`${block.page}: ${m[0]}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(seen).toBeGreaterThan(10);
  });

  it("every built-in case id a page names is a case of the kit", () => {
    const unknown: string[] = [];
    let seen = 0;
    for (const page of PAGES) {
      for (const m of text(page).matchAll(/(?<![\w/-])(\d{2}-[a-z][a-z0-9]*(?:-[a-z0-9]+)+)/g)) {
        seen++;
        if (!byId.has(m[1]!)) unknown.push(`${page}: ${m[1]}`);
      }
    }
    expect(unknown).toEqual([]);
    expect(seen).toBeGreaterThan(10);
  });

  it("the gradebook example has the gradebook's maxima and the first and last case columns", () => {
    const page = text("docs/instructors.md");
    const csv = /^```\n(submission,[^\n]*\n(?:[^\n]+\n)+)```$/m.exec(page)?.[1];
    expect(csv).toBeDefined();
    const [header = "", ...rows] = (csv ?? "").trim().split("\n");
    const columns = header.split(",");
    const col = (name: string) => columns.indexOf(name);
    // The gradebook's own header, its case columns shortened to the first, `...` and the last.
    const real = gradebookHeader(
      cases.map((c) => ({ id: c.id, title: c.title, required: c.required, maxPoints: c.points })),
    );
    const first = real.indexOf(cases[0]?.id ?? "");
    const last = real.indexOf(cases.at(-1)?.id ?? "");
    expect(columns).toEqual([...real.slice(0, first + 1), "...", ...real.slice(last)]);
    for (const row of rows) {
      const cells = row.split(",");
      expect(cells[col("max")], row).toBe(String(REQUIRED_POINTS));
      expect(cells[col("extension_max")], row).toBe(String(EXTENSION_POINTS));
      expect(+cells[col("score")]!, row).toBeLessThanOrEqual(REQUIRED_POINTS);
      expect(+cells[col("extension_score")]!, row).toBeLessThanOrEqual(EXTENSION_POINTS);
    }
  });

  it("the handout's summary is what npm run handout prints for this kit", () => {
    const page = text("docs/instructors.md");
    const shownBlock = /^```\n(wrote \.\.\/kafka-range-handout\/[\s\S]*?)^```$/m.exec(page)?.[1];
    expect(shownBlock).toBeDefined();
    const printed = summary(
      {
        files: handoutFiles(),
        stamp: {
          kit: { version, fixtures: fixtureHash(cases) },
          cases: cases.length,
          builtFrom: null,
        },
      },
      "../kafka-range-handout",
    ).split("\n");
    // Each line shown is a line printed, in the printed order ("..." stands for lines left out).
    let at = 0;
    for (const line of (shownBlock ?? "").trimEnd().split("\n")) {
      if (line === "...") continue;
      const found = printed.indexOf(line, at);
      expect(found, `not printed (in this order): ${line}`).toBeGreaterThanOrEqual(0);
      at = found + 1;
    }
    expect(shownBlock).toContain(`${handoutFiles().length} files.`);
  });

  it("the Gradescope bundle's folder counts are the files of the folders it copies", () => {
    const page = text("templates/gradescope/README.md");
    const shown = [...page.matchAll(/^wrote \.\.\/autograder\/([\w-]+)\/ \((\d+) files\)$/gm)];
    expect(shown.map((m) => m[1])).toEqual(["fixtures", "grader", "private-cases", "starter"]);
    for (const [, folder = "", count] of shown) {
      // As gradescope-bundle copies them: every file, dot files too, not node_modules/.DS_Store.
      const dir = folder === "private-cases" ? work : ROOT;
      const files = globSync(`${folder}/**`, {
        cwd: dir,
        dot: true,
        followSymbolicLinks: false,
        ignore: ["**/node_modules/**", "**/.DS_Store"],
      });
      expect(files.length, folder).toBe(+count!);
    }
  });

  it("a batch example's time matches the rate docs/performance.md measured", () => {
    // The shared batch's rate, "1.48 submissions/s" in performance.md's side-by-side table (the
    // default way a batch is graded).
    const rate = +(
      /\| batch of 50 submissions [^|]*\| \*\*[\d.]+x 50 floors\*\*: [\d.]+ s, ([\d.]+) submissions\/s/.exec(
        text("docs/performance.md"),
      )?.[1] ?? "NaN"
    );
    expect(rate).toBeGreaterThan(0);
    let seen = 0;
    for (const page of PAGES) {
      for (const m of text(page).matchAll(/Graded (\d+) submissions in ([\d.]+) s/g)) {
        seen++;
        const expected = +m[1]! / rate;
        expect(Math.abs(+m[2]! - expected) / expected, `${page}: ${m[0]}`).toBeLessThan(0.2);
      }
    }
    expect(seen).toBeGreaterThan(0);
  });
});

describe("the program's example outputs are the reference's", () => {
  /** The json blocks of a page, in order. */
  const jsonBlocks = (page: string) =>
    [...text(page).matchAll(/^```json\n([\s\S]*?)^```$/gm)].map((m) => m[1] ?? "");

  it("README.md: each `echo '...' | npx tsx solution/src/main.ts` prints the `#` line after it", () => {
    const examples = [
      ...text("README.md").matchAll(
        /^echo '([^']*)' \\\n {2}\| npx tsx solution\/src\/main\.ts\n# (.*)$/gm,
      ),
    ];
    expect(examples).toHaveLength(2);
    for (const [, input = "", output] of examples) {
      const result = run([], input);
      expect(result).toMatchObject({ exitCode: 0, stderr: "" });
      expect(result.stdout.trim(), input).toBe(output);
    }
  });

  it("docs/program.md: the answers shown for its two inputs", () => {
    const [input, racksInput, racksAnswer, answer] = jsonBlocks("docs/program.md");
    expect(JSON.parse(input ?? "")).toHaveProperty("members");
    expect(run([], racksInput ?? "")).toMatchObject({ exitCode: 0, stdout: racksAnswer });
    expect(run([], input ?? "")).toMatchObject({ exitCode: 0, stdout: answer });
  });

  it("docs/program.md: the error lines shown for bad racks and bad bytes", () => {
    const page = text("docs/program.md").replace(/\n\s*/g, " ");
    const racks = JSON.parse(jsonBlocks("docs/program.md")[1] ?? "") as {
      partitionRacks: Record<string, unknown[]>;
    };
    const audit = { ...racks, partitionRacks: { ...racks.partitionRacks, audit: [] } };
    const three = { ...racks, partitionRacks: { orders: racks.partitionRacks.orders?.slice(1) } };
    // 0000 version, 00000002 topics, "a", then a 4-byte name with 2 bytes left (offset 11).
    const bytes = {
      topics: { a: 1 },
      members: [{ memberId: "c-3", metadata: "0000 00000002 0001 61 0004 6162" }],
    };
    for (const [input, exitCode] of [
      [audit, 2],
      [three, 2],
      [bytes, 1],
    ] as const) {
      const result = run([], JSON.stringify(input));
      expect(result.exitCode).toBe(exitCode);
      const line = result.stderr.split("\n")[0] ?? "";
      expect(page, line).toContain(`\`${line}\``);
    }
  });
});

describe("the limits the docs state are the grader's", () => {
  const MIB = 1024 * 1024;
  /** Each phrasing the pages use for a limit, and the numbers it must hold, in order. */
  const PHRASES: [RegExp, number[]][] = [
    [/first (\d+) lines and (\d+) KiB/g, [STDERR_MAX_LINES, STDERR_MAX_BYTES / 1024]],
    [/each line (?:to its first|cut at) (\d+)\s+bytes/g, [LINE_MAX_BYTES]],
    [
      /(\d+) MiB output cap|output cap \((\d+) MiB\)|over the (\d+) MiB cap/g,
      [OUTPUT_CAP_BYTES / MIB],
    ],
    [/(\d+) MiB heap limit|heap limit \((\d+) MiB|within its (\d+) MiB/g, [MEMORY_MIB]],
    [/--max-old-space-size`\) \+ (\d+) MiB/g, [DATA_BEYOND_HEAP_MIB]],
    [/at most (\d+) open files, at most (\d+) processes/g, [PROGRAM_OPEN_FILES, PROCESS_LIMIT]],
    [
      /at most (\d+) files, (\d+) MiB each, (\d+) MiB in all, (\d+) folders deep/g,
      [
        STAGE_LIMITS.maxFiles,
        STAGE_LIMITS.maxFileBytes / MIB,
        STAGE_LIMITS.maxTotalBytes / MIB,
        STAGE_LIMITS.maxDepth,
      ],
    ],
    [/more than (\d+) times the members/g, [ANSWER_SIZE_FACTOR]],
  ];

  it.each(PHRASES.map(([pattern, values]) => [String(pattern), pattern, values] as const))(
    "%s",
    (_, pattern, values) => {
      const found: string[] = [];
      for (const page of PAGES) {
        for (const m of text(page).replace(/\n\s*/g, " ").matchAll(pattern)) {
          const numbers = m
            .slice(1)
            .filter((n) => n !== undefined)
            .map(Number);
          expect(numbers, `${page}: ${m[0]}`).toEqual(values);
          found.push(page);
        }
      }
      expect(found.length, "the phrase appears in some page").toBeGreaterThan(0);
    },
  );
});

describe("docs/instructors.md: the handout section names what scripts/handout.ts has", () => {
  it("every constant it names is defined there", () => {
    const page = text("docs/instructors.md");
    const section = page.slice(
      page.indexOf("## The student handout"),
      page.indexOf("### Publishing it"),
    );
    const script = readFileSync(join(ROOT, "scripts", "handout.ts"), "utf8");
    // Names in capitals that are not the kit's files (LICENSE).
    const named = [...section.matchAll(/`([A-Z][A-Z0-9_]{3,})`/g)]
      .map((m) => m[1] ?? "")
      .filter((name) => !existsSync(join(ROOT, name)));
    expect(named).toEqual(expect.arrayContaining(["HANDOUT", "RUNTIME_PACKAGES"]));
    expect(named.filter((name) => !new RegExp(`\\bconst ${name}\\b`).test(script))).toEqual([]);
  });
});

describe("docs/platforms.md: Exercism's limits are bin/run.sh's", () => {
  it("--timeout, --time-budget and the watchdog as the script sets them", () => {
    const script = readFileSync(join(ROOT, "bin", "run.sh"), "utf8");
    const setting = (name: string) =>
      +(new RegExp(`^${name}=(\\d+)$`, "m").exec(script)?.[1] ?? "NaN");
    const cpuMs = setting("CASE_CPU_MS");
    const budget = setting("TIME_BUDGET_S");
    const watchdog = setting("WATCHDOG_S");
    const page = text("docs/platforms.md").replace(/\n\s*/g, " ");
    expect(page).toContain(`\`--timeout ${cpuMs} --time-budget ${budget}\``);
    expect(page).toContain(`stops the grader after ${watchdog} s (\`timeout -k 1 ${watchdog}\`)`);
    expect(page).toContain(`each case gets ${cpuMs / 1000} s of CPU time`);
    expect(page).toContain(`\`--time-budget ${budget}\` ends the grading ${budget} s after`);
    expect(page).toContain(`still running at ${watchdog} s`);
  });
});

describe("docs/performance.md: the measured record adds up", () => {
  // The times are a dated measurement (npm run bench); what can drift is a figure changed without
  // the ones derived from it, and the case count, which is the kit's.
  const page = text("docs/performance.md");
  const row = (start: string) => page.split("\n").find((line) => line.startsWith(start)) ?? "";

  it("grading the reference: all the built-in cases; the floor and the ratio from the times", () => {
    // The record before shared runs is dated (the kit had the cases it counts then); the side by
    // side table is the present kit's.
    const line = row("| grade the reference, all ");
    const [, count, ratio, time, floor, n, startMs, cores] =
      /all (\d+) cases \| \*\*([\d.]+)x the floor\*\*.*?\| ([\d.]+) s against a floor of ([\d.]+) s \((\d+) x (\d+) ms \/ (\d+) cores\)/.exec(
        line,
      ) ?? [];
    expect(+n!).toBe(+count!);
    const shared = row("| grading the reference from a cold build, all ");
    const [, now, sharedRatio, sharedTime, sharedFloor, sharedN, sharedStartMs, sharedCores] =
      /all (\d+) cases \| \*\*([\d.]+)x the floor\*\*: ([\d.]+) s.*?against a floor of ([\d.]+) s \((\d+) x (\d+) ms \/ (\d+) cores\)/.exec(
        shared,
      ) ?? [];
    expect(+now!).toBe(cases.length);
    expect(+sharedN!).toBe(cases.length);
    expect(
      Math.abs((+sharedN! * +sharedStartMs!) / +sharedCores! / 1000 - +sharedFloor!),
    ).toBeLessThan(0.01);
    expect(Math.abs(+sharedTime! / +sharedFloor! - +sharedRatio!)).toBeLessThan(0.01);
    expect(Math.abs((+n! * +startMs!) / +cores! / 1000 - +floor!)).toBeLessThan(0.01);
    expect(Math.abs(+time! / +floor! - +ratio!)).toBeLessThan(0.01);
  });

  it("the shared batch: the ratio and the rate from the times", () => {
    const line = row("| batch of 50 submissions ");
    const [, ratio, time, rate, floor] =
      /\*\*([\d.]+)x 50 floors\*\*: ([\d.]+) s, ([\d.]+) submissions\/s.*?against a floor of ([\d.]+) s/.exec(
        line,
      ) ?? [];
    expect(Math.abs(+time! / +floor! - +ratio!)).toBeLessThan(0.02);
    expect(Math.abs(50 / +time! - +rate!)).toBeLessThan(0.01);
  });

  it("the batch: the ratio and the rate from the times", () => {
    const line = row("| a batch of ");
    const [, count, ratio, time, floor, rate] =
      /a batch of (\d+) submissions.*?\*\*([\d.]+)x \d+ floors\*\*.*?\| (\d+) s against a floor of (\d+) s; ([\d.]+) submissions\/s/.exec(
        line,
      ) ?? [];
    expect(Math.abs(+time! / +floor! - +ratio!)).toBeLessThan(0.02);
    expect(Math.abs(+count! / +time! - +rate!)).toBeLessThan(0.01);
  });
});
