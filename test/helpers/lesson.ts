// LESSON.md's heading anchors, as GitHub makes them, for checks that links point somewhere.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./program.ts";

/** GitHub's heading anchors: lowercase, punctuation dropped, spaces to dashes. */
export function lessonAnchors(): Set<string> {
  const headings = readFileSync(join(ROOT, "LESSON.md"), "utf8")
    .split("\n")
    .filter((line) => /^#{1,6} /.test(line))
    .map((line) => line.replace(/^#+ /, ""));
  return new Set(
    headings.map((h) =>
      h
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, "")
        .replace(/\s/g, "-"),
    ),
  );
}
