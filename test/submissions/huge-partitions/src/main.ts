// Answers with partitions no topic has: 300,000 of them for a group of several members (about
// 2 MB of JSON, under the output cap), or the single partition 2147483646 for a group of one.
// Whatever explains the wrong answer (the diff, the ownership grid) must stay bounded: the grader
// must finish (exit 1) and write every report file (status fail, reason wrong-output).
import { readFileSync } from "node:fs";
const input = JSON.parse(readFileSync(0, "utf8")) as {
  topics: Record<string, number>;
  members: { memberId: string }[];
};
const member = input.members[0]?.memberId ?? "consumer-a";
const topic = Object.keys(input.topics)[0] ?? "orders";
const partitions =
  input.members.length > 1 ? Array.from({ length: 300_000 }, (_, i) => i) : [2_147_483_646];
process.stdout.write(`${JSON.stringify({ [member]: { [topic]: partitions } })}\n`);
