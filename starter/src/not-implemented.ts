/**
 * Thrown by the starter's stubs. main.ts turns it into exit code 3 and one line,
 * `not implemented yet: decodeSubscription (src/subscription.ts), see LESSON.md#the-subscription-bytes`,
 * so an unfinished exercise never looks like a crash or a wrong answer.
 */
export class NotImplementedError extends Error {
  /**
   * @param functionName the exported function that is still a stub
   * @param file its file, relative to the submission root (e.g. `src/subscription.ts`)
   * @param lessonAnchor the LESSON.md heading anchor that teaches it (without `#`)
   */
  constructor(
    readonly functionName: string,
    readonly file: string,
    readonly lessonAnchor: string,
  ) {
    super(`not implemented yet: ${functionName} (${file}), see LESSON.md#${lessonAnchor}`);
    this.name = "NotImplementedError";
  }
}
