// The repo's copies of the Kafka vectors must stay byte-for-byte what ../shared/vectors holds.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { VECTORS_DIR } from "../helpers/vectors.ts";

const SHARED = fileURLToPath(new URL("../../../shared/vectors/", import.meta.url));

describe("test/vectors", () => {
  it("holds the eight vector files and their README", () => {
    expect(readdirSync(VECTORS_DIR).sort()).toEqual([
      "README.md",
      "assign-large-static.json",
      "assign-large.json",
      "assign.jsonl",
      "assignment.jsonl",
      "decode.jsonl",
      "java-subscriptions.jsonl",
      "librdkafka-subscriptions.jsonl",
      "rack-assign.jsonl",
    ]);
  });

  it.runIf(existsSync(SHARED))("equals ../shared/vectors file for file", () => {
    const shared = readdirSync(SHARED).sort();
    expect(readdirSync(VECTORS_DIR).sort()).toEqual(shared);
    for (const name of shared) {
      const same = readFileSync(`${VECTORS_DIR}${name}`).equals(readFileSync(`${SHARED}${name}`));
      expect(same, `test/vectors/${name} differs from ../shared/vectors/${name}`).toBe(true);
    }
  });
});
