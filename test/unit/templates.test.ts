// Every workflow and CI file the kit ships, and every YAML block in its Markdown, must run where
// the platforms still run it: GitHub's hosted runners stopped running actions on node20 in
// September 2026, so each `uses: actions/<name>@vN` must be a major that runs on node24; the
// Node.js that grades (`node-version`, a `node:NN` image) is 24 or later; and on GitHub's hosted
// Ubuntu runners, where the job's user is not root but has passwordless sudo, the grader runs
// with sudo so that the sandbox's root mode applies (docs/sandbox.md). The files are only
// parsed here; test/e2e/templates.test.ts, batch.test.ts and handout.test.ts run their commands.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { globSync } from "tinyglobby";
import { parse as parseYaml } from "yaml";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/program.ts";

/**
 * The first major of each action the kit uses that runs on node24 (`runs.using` in its
 * action.yml). upload-artifact v5 and download-artifact v6 already ran on Node 24 when asked,
 * but on node20 by default. An action not listed here is refused until its major is checked.
 */
const FIRST_NODE24_MAJOR: Record<string, number> = {
  "actions/checkout": 5,
  "actions/setup-node": 5,
  "actions/upload-artifact": 6,
  "actions/download-artifact": 7,
};

/** The oldest Node.js the templates may grade with. */
const MIN_NODE = 24;

/** A command line that runs the grader: `npm run [-s] grade`, or its entry files. */
const GRADER =
  /\bnpm\s+run(?:-script)?\s+(?:(?:-s|--silent)\s+)*grade(?=\s|$)|\bgrader\/(?:launch\.mjs|cli\.ts)\b/;

/**
 * How the grader runs on a hosted Ubuntu runner: as root through sudo, with -E (sudo's env_reset
 * would drop the job's environment, GITHUB_STEP_SUMMARY among it) and PATH passed through `env`
 * (sudo's secure_path would replace the Node.js that setup-node put on PATH).
 */
const SUDO = /^sudo\s+(?:-E|--preserve-env)\s+env\s+(?:"PATH=\$PATH"|PATH="\$PATH")\s/;

/** What a walk found, so that a check that found nothing fails rather than passes. */
interface Found {
  uses: string[];
  nodeVersions: string[];
  images: string[];
  graderRuns: string[];
}

function majorOf(version: string): number | undefined {
  const match = /^v?(\d+)(?:\.(?:\d+|x)){0,2}$/.exec(version);
  return match === null ? undefined : Number(match[1]);
}

function checkUses(uses: string, at: string, problems: string[]): void {
  const match = /^([\w.-]+\/[\w.-]+)(?:\/[^@]*)?@(.+)$/.exec(uses);
  const minimum = match === null ? undefined : FIRST_NODE24_MAJOR[match[1] ?? ""];
  if (match === null || minimum === undefined) {
    problems.push(
      `${at}: ${uses}: not an action known to run on node24 (check its action.yml and add it to FIRST_NODE24_MAJOR)`,
    );
    return;
  }
  const ref = match[2] ?? "";
  const major = /^v\d+(?:\.\d+){0,2}$/.test(ref) ? majorOf(ref) : undefined;
  if (major === undefined) {
    problems.push(`${at}: ${uses}: pin a major version (@v${minimum} or later)`);
  } else if (major < minimum) {
    problems.push(`${at}: ${uses}: runs on node20 or older; use @v${minimum} or later`);
  }
}

function checkNodeVersion(value: unknown, at: string, problems: string[], found: Found): void {
  if (Array.isArray(value)) {
    value.forEach((v, i) => checkNodeVersion(v, `${at}[${i}]`, problems, found));
    return;
  }
  const version = String(value);
  if (version.includes("${{")) return; // a matrix value, checked where the matrix lists it
  found.nodeVersions.push(version);
  const major = majorOf(version);
  if (major === undefined || major < MIN_NODE) {
    problems.push(`${at}: node-version ${version}: use ${MIN_NODE} or later`);
  }
}

function checkImage(value: unknown, at: string, problems: string[], found: Found): void {
  const image =
    typeof value === "string"
      ? value
      : typeof value === "object" && value !== null
        ? ((value as { name?: unknown; image?: unknown }).name ??
          (value as { image?: unknown }).image)
        : undefined;
  if (typeof image !== "string") return;
  const [name = "", tag = "latest"] = (image.split("/").pop() ?? "").split(":");
  if (name !== "node") return;
  found.images.push(image);
  const major = /^(\d+)/.exec(tag)?.[1];
  if (major === undefined || Number(major) < MIN_NODE) {
    problems.push(`${at}: image ${image}: use node:${MIN_NODE} or later`);
  }
}

function checkRun(run: string, at: string, sudo: boolean, problems: string[], found: Found) {
  for (const line of run.split("\n").map((l) => l.trim())) {
    if (!GRADER.test(line)) continue;
    found.graderRuns.push(line);
    // Merging reads the shards' reports and runs no submitted code, so it needs no root.
    if (!sudo || /\s--merge\b/.test(line)) continue;
    if (!SUDO.test(line)) {
      problems.push(
        `${at}: "${line}": on a hosted Ubuntu runner run the grader as sudo -E env "PATH=$PATH" ...`,
      );
    }
  }
}

/**
 * Walks a parsed workflow, CI file or fragment of one. `sudo`: whether a `run:` step that grades
 * must use sudo, that is whether it runs on a GitHub-hosted Ubuntu runner without a container
 * (a fragment, with no job around it, is taken to).
 */
function walk(value: unknown, at: string, sudo: boolean, problems: string[], found: Found): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => walk(item, `${at}[${i}]`, sudo, problems, found));
    return;
  }
  if (typeof value !== "object" || value === null) return;
  const node = value as Record<string, unknown>;
  if (typeof node["runs-on"] === "string" || node.container !== undefined) {
    const runsOn = node["runs-on"];
    const hostedUbuntu = typeof runsOn !== "string" || /^ubuntu-/.test(runsOn);
    sudo = hostedUbuntu && node.container === undefined;
  }
  for (const [key, child] of Object.entries(node)) {
    const here = at === "" ? key : `${at}.${key}`;
    if (key === "uses" && typeof child === "string") {
      found.uses.push(child);
      checkUses(child, here, problems);
    } else if (key === "node-version") {
      checkNodeVersion(child, here, problems, found);
    } else if (key === "image" || key === "container") {
      checkImage(child, here, problems, found);
    } else if (key === "run" && typeof child === "string") {
      checkRun(child, here, sudo, problems, found);
    }
    walk(child, here, sudo, problems, found);
  }
}

/** The problems in one YAML text (a whole file or a Markdown block), and what was checked. */
function check(yamlText: string): { problems: string[]; found: Found } {
  const found: Found = { uses: [], nodeVersions: [], images: [], graderRuns: [] };
  const problems: string[] = [];
  walk(parseYaml(yamlText) as unknown, "", true, problems, found);
  return { problems, found };
}

/** The fenced ```yaml / ```yml blocks of a Markdown page, dedented, with their first line. */
function yamlBlocks(markdown: string): { line: number; text: string }[] {
  const blocks: { line: number; text: string }[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*(ya?ml)\b/.exec(lines[i] ?? "");
    if (open === null) continue;
    const indent = open[1]?.length ?? 0;
    const fence = open[2] ?? "```";
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !(lines[j] ?? "").trim().startsWith(fence)) {
      body.push((lines[j] ?? "").slice(indent));
      j++;
    }
    blocks.push({ line: i + 1, text: body.join("\n") });
    i = j;
  }
  return blocks;
}

const IGNORE = ["node_modules/**", ".git/**"];
const YAML_FILES = globSync("**/*.{yml,yaml}", { cwd: ROOT, dot: true, ignore: IGNORE }).sort();
const MARKDOWN = globSync("**/*.md", { cwd: ROOT, dot: true, ignore: IGNORE })
  .sort()
  .filter((page) => yamlBlocks(readFileSync(join(ROOT, page), "utf8")).length > 0);
const GITHUB_WORKFLOWS = [
  "handout/workflow-grade.yml",
  "handout/workflow-classroom.yml",
  "templates/github-instructor/grade-class.yml",
];

describe("the checker", () => {
  it("finds actions on node20, Node.js older than 24, and the grader run without sudo", () => {
    const { problems } = check(`
jobs:
  grade:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        node-version: [22, 24]
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v5.0.1
        with:
          node-version: 20.x
      - uses: actions/setup-node@v5
        with:
          node-version: \${{ matrix.node-version }}
      - uses: actions/upload-artifact@v5
      - uses: actions/download-artifact@v6
      - uses: actions/checkout@main
      - uses: actions/cache@v5
      - run: npm run -s grade -- --format github
      - run: |
          npm ci
          sudo env "PATH=$PATH" npm run -s grade -- --format github
      - run: sudo -E npm run grade
      - run: sudo -E env "PATH=$PATH" npm run -s grade -- --format github
      - run: npm run -s grade -- --merge out/shard-* --report-dir out/class
      - run: npm run -s gradescope-bundle -- ../autograder
  in-a-container:
    runs-on: ubuntu-latest
    container: node:24
    steps:
      - run: npm run grade
  mac:
    runs-on: macos-latest
    steps:
      - run: npm run grade
gitlab:
  image: node:20
other:
  image: node:lts
`);
    expect(problems).toEqual([
      "jobs.grade.strategy.matrix.node-version[0]: node-version 22: use 24 or later",
      "jobs.grade.steps[0].uses: actions/checkout@v4: runs on node20 or older; use @v5 or later",
      "jobs.grade.steps[1].with.node-version: node-version 20.x: use 24 or later",
      "jobs.grade.steps[3].uses: actions/upload-artifact@v5: runs on node20 or older; use @v6 or later",
      "jobs.grade.steps[4].uses: actions/download-artifact@v6: runs on node20 or older; use @v7 or later",
      "jobs.grade.steps[5].uses: actions/checkout@main: pin a major version (@v5 or later)",
      "jobs.grade.steps[6].uses: actions/cache@v5: not an action known to run on node24 (check its action.yml and add it to FIRST_NODE24_MAJOR)",
      'jobs.grade.steps[7].run: "npm run -s grade -- --format github": on a hosted Ubuntu runner run the grader as sudo -E env "PATH=$PATH" ...',
      'jobs.grade.steps[8].run: "sudo env "PATH=$PATH" npm run -s grade -- --format github": on a hosted Ubuntu runner run the grader as sudo -E env "PATH=$PATH" ...',
      'jobs.grade.steps[9].run: "sudo -E npm run grade": on a hosted Ubuntu runner run the grader as sudo -E env "PATH=$PATH" ...',
      "gitlab.image: image node:20: use node:24 or later",
      "other.image: image node:lts: use node:24 or later",
    ]);
  });

  it("finds actions/checkout@v4 put back into each GitHub workflow the kit ships", () => {
    for (const file of GITHUB_WORKFLOWS) {
      const text = readFileSync(join(ROOT, file), "utf8");
      expect(text, file).toContain("actions/checkout@v5");
      const { problems } = check(text.replaceAll("actions/checkout@v5", "actions/checkout@v4"));
      expect(problems.length, file).toBeGreaterThan(0);
      expect(
        problems.every((p) => p.includes("actions/checkout@v4: runs on node20 or older")),
      ).toBe(true);
    }
  });
});

describe("the workflow and CI files the kit ships", () => {
  it("are the GitHub workflows and the GitLab job (and whatever YAML is added later)", () => {
    expect(YAML_FILES).toEqual(
      expect.arrayContaining([...GITHUB_WORKFLOWS, "templates/gitlab/.gitlab-ci.yml"]),
    );
  });

  it.each(YAML_FILES)(
    "%s: current action majors, Node.js 24 or later, the grader as root",
    (file) => {
      const { problems } = check(readFileSync(join(ROOT, file), "utf8"));
      expect(problems).toEqual([]);
    },
  );

  it.each(GITHUB_WORKFLOWS)(
    "%s: its actions, node-version and grading steps were all seen",
    (file) => {
      const { found } = check(readFileSync(join(ROOT, file), "utf8"));
      expect(found.uses.length).toBeGreaterThanOrEqual(2);
      expect(found.nodeVersions.length).toBeGreaterThanOrEqual(1);
      expect(found.graderRuns.some((line) => SUDO.test(line))).toBe(true);
    },
  );

  it("templates/gitlab/.gitlab-ci.yml: its node image was seen (the job runs as root there)", () => {
    const { found } = check(readFileSync(join(ROOT, "templates/gitlab/.gitlab-ci.yml"), "utf8"));
    expect(found.images).toEqual([`node:${MIN_NODE}`]);
    expect(found.graderRuns).toHaveLength(0); // GitLab's `script:` lines, not GitHub's `run:`
  });
});

describe("YAML blocks in the kit's Markdown", () => {
  it("are found (docs/platforms.md has a workflow step)", () => {
    expect(MARKDOWN).toContain("docs/platforms.md");
  });

  it.each(MARKDOWN)("%s: every ```yaml block parses and passes the same checks", (page) => {
    const problems: string[] = [];
    for (const block of yamlBlocks(readFileSync(join(ROOT, page), "utf8"))) {
      for (const problem of check(block.text).problems)
        problems.push(`line ${block.line}: ${problem}`);
    }
    expect(problems).toEqual([]);
  });
});
