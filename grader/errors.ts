/**
 * A problem with the grader's own setup (bad arguments, a missing submission, an invalid fixture):
 * the grader cannot grade and exits 2. The message says what to fix. Kept apart from a
 * submission's failures, which are verdicts, not errors.
 */
export class SetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SetupError";
  }
}
