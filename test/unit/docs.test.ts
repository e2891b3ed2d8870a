// The kit's Markdown pages link each other instead of repeating a contract, so every relative
// link must reach a file, and every `#anchor` a heading of that file (as GitHub makes anchors).
// handout/README.md is left out: its links are relative to the handout, not to this kit.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/program.ts";

const PAGES = [
  "README.md",
  "LESSON.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
  "templates/gradescope/README.md",
  "examples/python/README.md",
];

/** The text outside fenced code blocks (``` ... ```). */
function prose(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "");
}

/** GitHub's heading anchors: lowercase, punctuation dropped, spaces to dashes; repeats get -1, -2. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const line of prose(markdown).split("\n")) {
    if (!/^#{1,6} /.test(line)) continue;
    const slug = line
      .replace(/^#+ /, "")
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return result;
}

/** Relative link targets in a page's prose (inline code spans left out). */
function links(markdown: string): string[] {
  const text = prose(markdown).replace(/`[^`\n]*`/g, "");
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1] ?? "")
    .filter((target) => !/^[a-z]+:/.test(target));
}

describe("links between the kit's Markdown pages", () => {
  it.each(PAGES)("%s: every relative link reaches a file and a heading", (page) => {
    const text = readFileSync(join(ROOT, page), "utf8");
    const broken: string[] = [];
    for (const target of links(text)) {
      const [path = "", anchor] = target.split("#");
      const file = path === "" ? join(ROOT, page) : join(ROOT, dirname(page), path);
      if (!existsSync(file)) {
        broken.push(`${target}: no ${relative(ROOT, file)}`);
        continue;
      }
      if (anchor === undefined) continue;
      if (statSync(file).isDirectory() || !file.endsWith(".md")) {
        broken.push(`${target}: an anchor on something that is not a Markdown page`);
      } else if (!anchors(readFileSync(file, "utf8")).has(anchor)) {
        broken.push(`${target}: no heading #${anchor} in ${relative(ROOT, file)}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("README.md stays short: the detail lives in docs/", () => {
    const lines = readFileSync(join(ROOT, "README.md"), "utf8").split("\n").length;
    expect(lines).toBeLessThanOrEqual(300);
  });
});

describe("docs/instructors.md: what case.json may hold", () => {
  it("lists every `lesson` anchor case.schema.json accepts, each a heading of LESSON.md", () => {
    const schema = JSON.parse(
      readFileSync(join(ROOT, "fixtures", "schema", "case.schema.json"), "utf8"),
    ) as { properties: { lesson: { enum: string[] } } };
    const text = prose(readFileSync(join(ROOT, "docs", "instructors.md"), "utf8"));
    const item = /^- `lesson`: [\s\S]*?(?=\n- |\n\n)/m.exec(text)?.[0] ?? "";
    const listed = [...item.matchAll(/`([a-z0-9-]+)`/g)].map((m) => m[1]).slice(1);
    expect(listed).toEqual(schema.properties.lesson.enum);
    const lesson = anchors(readFileSync(join(ROOT, "LESSON.md"), "utf8"));
    expect(listed.filter((anchor) => anchor === undefined || !lesson.has(anchor))).toEqual([]);
  });
});
