// Carries one bit of a case's input into how it behaves, as a student would to read a private
// case through what the grader shows of the visible ones: on a topic "leak" of 3 partitions it
// crashes (exit 70), on a topic "flood" of 3 partitions it prints a 3.5 MB wrong answer (one
// member named by 3.5 MB of "m", under the output cap). Otherwise it reads each member's
// subscription bytes (version, topics), crashing with a TypeError on bytes it cannot read, and
// gives every partition of each topic to the first member subscribed to it, in input order (the
// right answer for a group of one). Whatever the bit, no visible case's result, explanation or
// named mistake may change.
import { readFileSync, writeSync } from "node:fs";

const input = JSON.parse(readFileSync(0, "utf8")) as {
  topics: Record<string, number>;
  members: { memberId: string; metadata: string }[];
};

if (input.topics["leak"] === 3) {
  process.stderr.write("internal error (a bug, not bad input):\nError: the bit is 1\n");
  process.exit(70);
}
if (input.topics["flood"] === 3) {
  const text = `{"${"m".repeat(3.5 * 1024 * 1024)}":{}}\n`;
  const bytes = Buffer.from(text);
  for (let written = 0; written < bytes.length; ) written += writeSync(1, bytes, written);
  process.exit(0);
}

/** The topics of a subscription's bytes; throws a TypeError past their end. */
function topicsOf(hex: string): string[] {
  const bytes = Buffer.from(hex.replace(/\s+/g, ""), "hex");
  const need = (at: number, n: number) => {
    if (at + n > bytes.length) throw new TypeError(`read past the end at ${at}`);
  };
  need(0, 6);
  const count = bytes.readInt32BE(2);
  const topics: string[] = [];
  let at = 6;
  for (let i = 0; i < count; i++) {
    need(at, 2);
    const length = bytes.readInt16BE(at);
    need(at + 2, length);
    topics.push(bytes.toString("utf8", at + 2, at + 2 + length));
    at += 2 + length;
  }
  return topics;
}

const answer = new Map<string, Map<string, number[]>>();
for (const member of input.members) {
  const mine = new Map<string, number[]>();
  for (const topic of topicsOf(member.metadata)) {
    const count = input.topics[topic];
    const taken = [...answer.values()].some((owned) => owned.has(topic));
    if (count !== undefined && count > 0 && !taken)
      mine.set(
        topic,
        Array.from({ length: count }, (_, i) => i),
      );
  }
  answer.set(member.memberId, mine);
}
const output = Object.fromEntries(
  [...answer].map(([member, topics]) => [member, Object.fromEntries(topics)]),
);
process.stdout.write(`${JSON.stringify(output)}\n`);
