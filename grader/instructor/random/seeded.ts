/**
 * Seeded randomness for the kit's generators (`--random`, the benchmark, the decoder fuzz test),
 * built on fast-check's generator instead of a PRNG of our own: the same seed gives the same
 * numbers on every run and machine, and nothing here reads the clock or Math.random.
 */
import { createRequire } from "node:module";
import type * as FastCheck from "fast-check";
import { SetupError } from "../../errors.ts";

/** A source of numbers uniform in [0, 1), the same sequence for the same seed. */
export type Rng = () => number;

// fast-check is a dev dependency, loaded on first use: the grader's bundle (grader/launch.mjs,
// packages external) hoists a static import of a package to its top, and a Gradescope image
// installs no dev dependencies, so a static import here would stop every grading run there.
let fastCheck: typeof FastCheck | undefined;
function fc(): typeof FastCheck {
  if (fastCheck === undefined) {
    try {
      fastCheck = createRequire(import.meta.url)("fast-check") as typeof FastCheck;
    } catch {
      throw new SetupError(
        "seeded randomness comes from fast-check (a dev dependency): run npm ci in the kit first",
      );
    }
  }
  return fastCheck;
}

/**
 * A generator of numbers uniform in [0, 1): fast-check's own random generator behind
 * `fc.infiniteStream(fc.noBias(fc.integer({ min: 0, max: 2^32 - 1 })))` (noBias: fast-check's
 * arbitraries otherwise favour small and extreme values), each integer divided by 2^32.
 *
 * @param seed a whole number; fast-check uses its low 32 bits, so `seed` and `seed + 2^32` agree
 * @returns a function giving the next number of the sequence at each call, endlessly
 * @throws SetupError when fast-check is not installed
 */
export function seededRandom(seed: number): Rng {
  const f = fc();
  const [stream] = f.sample(
    // noHistory: the stream would otherwise keep every value it produced.
    f.infiniteStream(f.noBias(f.integer({ min: 0, max: 0xffffffff })), { noHistory: true }),
    { seed: seed | 0, numRuns: 1 },
  );
  if (stream === undefined) throw new Error("fast-check sampled no stream");
  const values = stream[Symbol.iterator]();
  return () => {
    const next = values.next();
    // An infinite stream never ends; the check is for the type checker.
    if (next.done === true) throw new Error("fast-check's infinite stream ended");
    return next.value / 2 ** 32;
  };
}

/**
 * A 32-bit seed (0 to 2^32 - 1) from a text, with fast-check's `fc.hash` (CRC-32): how a
 * generator gets one seed per item from a run's seed, e.g. `seedOf(\`${seed}:${index}\`)`.
 *
 * @throws SetupError when fast-check is not installed
 */
export function seedOf(text: string): number {
  return fc().hash(text) >>> 0;
}

/**
 * A whole number uniform in [min, max] (both included; integers with max >= min, the range at
 * most 2^32 wide, so every value stays reachable from the 32 bits behind each draw).
 */
export function randomInt(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

/** True with probability `p` (0 to 1). */
export function chance(rng: Rng, p: number): boolean {
  return rng() < p;
}
