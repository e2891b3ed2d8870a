// Names are decoded as Kafka's Java client decodes them (`new String(bytes, UTF_8)`), malformed
// UTF-8 included: every byte string of test/java-strings/utf8.tsv (Java's own output, recorded
// with OpenJDK 17; see its README) put in a version-0 subscription as a topic name and decoded by
// the reference must give Java's string, code unit for code unit.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { decodeSubscription } from "../../solution/src/subscription.ts";
import { ROOT } from "../helpers/program.ts";

const lines = readFileSync(join(ROOT, "test", "java-strings", "utf8.tsv"), "utf8")
  .trimEnd()
  .split("\n")
  .map((line) => {
    const [hex = "", units = ""] = line.split("\t");
    return { hex, units: units === "" ? [] : units.split(" ").map((u) => Number.parseInt(u, 16)) };
  });

/** A version-0 subscription whose one topic name is `name`, and null user data. */
function subscriptionWithTopic(name: Buffer): Uint8Array {
  const head = Buffer.alloc(8);
  head.writeInt16BE(0, 0);
  head.writeInt32BE(1, 2);
  head.writeInt16BE(name.length, 6);
  return new Uint8Array(Buffer.concat([head, name, Buffer.from("ffffffff", "hex")]));
}

const codeUnits = (text: string) =>
  Array.from({ length: text.length }, (_, i) => text.charCodeAt(i));

describe("topic names decoded as Java decodes them", () => {
  it("holds the table Java wrote: 4,000 byte strings, the hand-picked ones first", () => {
    expect(lines).toHaveLength(4000);
    // Encoded surrogates in names: one U+FFFD per encoded surrogate, where TextDecoder gives three each.
    expect(lines.find((l) => l.hex === "61756469742deda080")?.units.at(-1)).toBe(0xfffd);
    expect(lines.find((l) => l.hex === "eda080")?.units).toEqual([0xfffd]);
    expect(new TextDecoder().decode(Buffer.from("eda080", "hex"))).toBe("\uFFFD\uFFFD\uFFFD");
  });

  it("every byte string of the table, as Java's String", () => {
    const wrong = lines.filter(({ hex, units }) => {
      const [topic = ""] = decodeSubscription(
        subscriptionWithTopic(Buffer.from(hex, "hex")),
      ).topics;
      return codeUnits(topic).join(" ") !== units.join(" ");
    });
    expect(wrong.map((l) => l.hex)).toEqual([]);
  });

  it("a subscription with encoded surrogates in two names: topics audit-\\uFFFD and clicks-\\uFFFD\\uFFFD", () => {
    const bytes = Buffer.from(
      "000000000002000961756469742deda080000d636c69636b732deda0bdedb880ffffffff",
      "hex",
    );
    expect(decodeSubscription(new Uint8Array(bytes)).topics).toEqual([
      "audit-\uFFFD",
      "clicks-\uFFFD\uFFFD",
    ]);
  });
});
