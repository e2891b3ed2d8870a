// grader/instructor/random/seeded.ts, the seeded randomness behind --random, the benchmark and
// the decoder fuzz test: reproducible for a seed, different across seeds, uniform in [0, 1).
import { describe, expect, it } from "vitest";
import { chance, randomInt, seededRandom, seedOf } from "../../grader/instructor/random/seeded.ts";

const draws = (seed: number, count: number) => {
  const rng = seededRandom(seed);
  return Array.from({ length: count }, rng);
};

describe("seededRandom", () => {
  it("gives the same sequence for the same seed, and another for another seed", () => {
    expect(draws(7, 1000)).toEqual(draws(7, 1000));
    expect(draws(7, 1000)).not.toEqual(draws(8, 1000));
    // Seeds are 32-bit: the high half of the range differs from the low half too.
    expect(draws(0xfffffffe, 10)).not.toEqual(draws(0x7ffffffe, 10));
  });

  it("is uniform in [0, 1): 16 equal buckets, chi-square below its 99.9% quantile", () => {
    const count = 160_000;
    const values = draws(1, count);
    expect(values.filter((value) => !(value >= 0 && value < 1))).toEqual([]);
    const buckets = new Array<number>(16).fill(0);
    for (const value of values)
      buckets[Math.floor(value * 16)] = (buckets[Math.floor(value * 16)] ?? 0) + 1;
    const expected = count / 16;
    const chiSquare = buckets.reduce((sum, seen) => sum + (seen - expected) ** 2 / expected, 0);
    expect(chiSquare).toBeLessThan(37.7); // 15 degrees of freedom
  });

  it("randomInt reaches both bounds and nothing outside them; chance follows p", () => {
    const rng = seededRandom(3);
    const seen = new Set(Array.from({ length: 2000 }, () => randomInt(rng, -2, 2)));
    expect([...seen].sort((a, b) => a - b)).toEqual([-2, -1, 0, 1, 2]);
    const hits = Array.from({ length: 10_000 }, () => chance(rng, 0.2)).filter(Boolean).length;
    expect(hits).toBeGreaterThan(1800);
    expect(hits).toBeLessThan(2200);
  });
});

describe("seedOf", () => {
  it("maps a text to the same 32-bit seed every time, and the cases of a run to different seeds", () => {
    const seed = seedOf("7:1");
    expect(seedOf("7:1")).toBe(seed);
    expect(Number.isInteger(seed) && seed >= 0 && seed < 2 ** 32).toBe(true);
    const seeds = new Set(Array.from({ length: 1000 }, (_, i) => seedOf(`7:${i + 1}`)));
    expect(seeds.size).toBe(1000);
    expect(seedOf("8:1")).not.toBe(seed);
  });
});
