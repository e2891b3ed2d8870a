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
