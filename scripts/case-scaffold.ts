/**
 * The case.json scaffold `npm run new-case` writes. How a case that still holds it is found (and
 * refused by the grader, new-case and `npm run gradescope-bundle`) is grader/cases/placeholders.ts.
 */
import type { CaseMeta, Expected, Mode } from "../grader/cases/load.ts";
import { TODO_MARK } from "../grader/cases/placeholders.ts";

/**
 * The case.json new-case writes for a case of `mode` whose reference answer is `expected`: TODO
 * title, description and hint, 1 point, required (a sync case: an extension case, as the stage
 * is), no mistakes, and the LESSON.md section of the case's kind (bad bytes, decoding, the
 * assignor, or the assignment bytes). It validates against case.schema.json.
 */
export function scaffoldMeta(mode: Mode, expected: Expected): CaseMeta {
  return {
    title: `${TODO_MARK}: one line naming what this case checks`,
    description: `${TODO_MARK}: what this case checks, for the report. Its expected.json was computed by the reference solution (npm run new-case): say why that answer is right.`,
    mode,
    points: 1,
    required: mode !== "sync",
    mistakes: [],
    hint: `${TODO_MARK}: what a student whose program fails this case should look at`,
    lesson:
      "error" in expected
        ? "bad-bytes"
        : mode === "decode"
          ? "the-subscription-bytes"
          : mode === "sync"
            ? "the-assignment-bytes"
            : "the-range-assignor",
  };
}
