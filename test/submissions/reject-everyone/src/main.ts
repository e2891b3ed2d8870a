// Rejects the last member's bytes on every case: right format, wrong member for most cases
// (status fail, reason wrong-error on bad-input cases; wrong-output on valid ones).
import { readFileSync } from "node:fs";
const input = JSON.parse(readFileSync(0, "utf8")) as { members: { memberId: string }[] };
const last = input.members[input.members.length - 1]?.memberId ?? "";
process.stderr.write(
  `error: member ${JSON.stringify(last)}: topics: made up at offset 0, found nothing\n`,
);
process.exitCode = 1;
