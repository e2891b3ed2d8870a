// Placeholder: replaced by the random case generator (issue 6).
import { SetupError } from "../errors.ts";
import type { Case, FixtureSchemas } from "../fixtures/load.ts";

export function randomCases(count: number, seed: number, schemas: FixtureSchemas): Promise<Case[]> {
  void count;
  void seed;
  void schemas;
  return Promise.reject(new SetupError("--random is not available yet"));
}
