/**
 * The limits every program runs under, when graded and when the kit's own tools run it (the live
 * diagnosis, random cases, new-case). A leaf module that imports nothing, so those tools and
 * context.ts, which imports them, can share these numbers without an import circle.
 */

/**
 * Bytes kept per output stream before the program is stopped: 25 times the largest expected
 * answer of the built-in cases.
 */
export const OUTPUT_CAP_BYTES = 4 * 1024 * 1024;

/** The heap a submission gets, MiB (Node's --max-old-space-size). */
export const MEMORY_MIB = 512;

/** The most bytes (UTF-8) of standard error that judging reads, newlines included. */
export const STDERR_MAX_BYTES = 64 * 1024;
/**
 * Bytes of standard error a run keeps from its start for the capped view (RunLimits'
 * stderrKeepBytes): STDERR_MAX_BYTES and one character more (at most 4 bytes), so that the view
 * can tell whether anything followed what it reads, and say so.
 */
export const STDERR_READ_BYTES = STDERR_MAX_BYTES + 4;
/**
 * Bytes of standard error's end a run also keeps when its start did not hold it all (RunLimits'
 * stderrTailBytes): a runtime's last words, e.g. V8's out-of-memory lines after a long log.
 */
export const STDERR_TAIL_BYTES = 4096;
