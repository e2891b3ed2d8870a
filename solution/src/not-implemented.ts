/**
 * Thrown by the starter's stubs. main.ts turns it into exit code 3 and one line,
 * `not implemented yet: decodeSubscription (src/subscription.ts), see LESSON.md#the-subscription-bytes`,
 * so an unfinished exercise never looks like a crash or a wrong answer.
 */

/** The exercise's three functions: where each lives and the LESSON.md section that teaches it. */
export const EXERCISE = {
  decodeSubscription: { file: "src/subscription.ts", lessonAnchor: "the-subscription-bytes" },
  assignRange: { file: "src/range-assignor.ts", lessonAnchor: "the-range-assignor" },
  encodeAssignment: { file: "src/assignment.ts", lessonAnchor: "the-assignment-bytes" },
} as const;

/** What a stub throws: names the function, its file and the LESSON.md section (EXERCISE). */
export class NotImplementedError extends Error {
  /** @param functionName the exported function that is still a stub */
  constructor(readonly functionName: keyof typeof EXERCISE) {
    const { file, lessonAnchor } = EXERCISE[functionName];
    super(`not implemented yet: ${functionName} (${file}), see LESSON.md#${lessonAnchor}`);
    this.name = "NotImplementedError";
  }
}
