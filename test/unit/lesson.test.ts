// LESSON.md's "Common mistakes" against the mistake catalogue the grader names mistakes from: the
// list is written by hand for students, so this test keeps it and the catalogue in step. Every
// catalogued id has a bullet that links the catalogue's lesson section (the section the grader's
// "Read LESSON.md#..." line sends the student to), and no bullet names an id the catalogue lacks.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CATALOGUE } from "../../grader/diagnose/catalogue.ts";
import { lessonAnchors } from "../helpers/lesson.ts";
import { ROOT } from "../helpers/program.ts";

/** The text of LESSON.md's "## Common mistakes" section, up to the next level-2 heading. */
function commonMistakesSection(): string {
  const lesson = readFileSync(join(ROOT, "LESSON.md"), "utf8");
  const start = lesson.indexOf("\n## Common mistakes\n");
  if (start < 0) throw new Error('LESSON.md has no "## Common mistakes" section');
  const next = lesson.indexOf("\n## ", start + 1);
  return lesson.slice(start, next < 0 ? undefined : next);
}

/** The section's bullets that name a mistake (`- \`id\`: ...`), id to the bullet's whole text. */
function mistakeBullets(section: string): Map<string, string> {
  const bullets = new Map<string, string>();
  // A bullet runs from its "- " to the next bullet or a blank line (its continuation lines are
  // indented).
  for (const bullet of section.split(/\n(?=- )|\n\n/)) {
    const match = /^- `([^`]+)`:/.exec(bullet.trim());
    if (match === null) continue;
    const id = match[1] ?? "";
    if (bullets.has(id)) throw new Error(`LESSON.md#common-mistakes names ${id} twice`);
    bullets.set(id, bullet);
  }
  return bullets;
}

describe("LESSON.md#common-mistakes", () => {
  const bullets = mistakeBullets(commonMistakesSection());

  it("has a bullet for every catalogued mistake", () => {
    const missing = [...CATALOGUE.keys()].filter((id) => !bullets.has(id));
    expect(missing, "catalogued ids with no bullet in LESSON.md").toEqual([]);
  });

  it("names no mistake id the catalogue lacks", () => {
    const unknown = [...bullets.keys()].filter((id) => !CATALOGUE.has(id));
    expect(unknown, "ids in LESSON.md that grader/diagnose/catalogue.ts does not have").toEqual([]);
  });

  it.each([...CATALOGUE.values()].map((m) => [m.id, m.lesson] as const))(
    "%s links the catalogue's lesson section, #%s",
    (id, lesson) => {
      expect(lessonAnchors(), `LESSON.md has no heading for #${lesson}`).toContain(lesson);
      const links = [...(bullets.get(id) ?? "").matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]);
      expect(links, `the bullet for ${id} links LESSON.md#${lesson}`).toContain(lesson);
    },
  );

  it("lists the mistakes in the catalogue's order", () => {
    expect([...bullets.keys()]).toEqual([...CATALOGUE.keys()]);
  });
});
