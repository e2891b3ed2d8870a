// A private case's record holds nothing of its input or answer (grader/record.ts), so no report
// format can write them: a grading with private cases that a program got wrong in every way
// (an answer echoing the input, a crash printing it, the wrong member rejected, output that is not
// JSON) is formatted by every reporter, and no report file holds the private members' ids, topic,
// bytes or answer, while the visible case's input does show where a report shows details.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Case } from "../../grader/cases/load.ts";
import { FORMATS } from "../../grader/report/formats.ts";
import { gradeResults, judgedResult, privateCase, rawRun, report } from "../helpers/results.ts";

const MEMBERS = ["secret-member-7f3a", "secret-member-b2d9"];
const TOPIC = "secret-topic-9c1e";
const hex = (text: string) => Buffer.from(text, "utf8").toString("hex");
/** Version 0 subscriptions to TOPIC, worked by hand: version, one topic (its length, its bytes), null user data. */
const METADATA = `0000 00000001 00${TOPIC.length.toString(16)} ${hex(TOPIC)} ffffffff`;
/** Kafka's answer: 3 partitions over two members in member-id order, 2 then 1. */
const ANSWER = {
  [MEMBERS[0] as string]: { [TOPIC]: [0, 1] },
  [MEMBERS[1] as string]: { [TOPIC]: [2] },
};

/** A private case `hidden/<name>` of the two secret members and the secret topic. */
function secretCase(name: string): Case {
  const input = {
    topics: { [TOPIC]: 3 },
    members: MEMBERS.map((memberId) => ({ memberId, metadata: METADATA })),
  };
  return {
    ...privateCase("01-lesson-7-partitions-3-members", "hidden", name),
    inputText: JSON.stringify(input),
    input,
    expected: { output: ANSWER },
  } as Case;
}

/** What a leak would show: each id, the topic, its bytes, the answer as JSON. */
const SECRETS = [...MEMBERS, TOPIC, hex(TOPIC), JSON.stringify(ANSWER), "[0,1]"];
const VISIBLE = "01-lesson-7-partitions-3-members";

describe("a grading with private cases", () => {
  const env = { ...process.env };
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "kit-private-records-"));
    process.env.GITHUB_STEP_SUMMARY = join(dir, "summary.md");
    process.env.GITHUB_OUTPUT = join(dir, "output.txt");
    writeFileSync(process.env.GITHUB_STEP_SUMMARY, "");
    writeFileSync(process.env.GITHUB_OUTPUT, "");
  });
  afterAll(() => {
    process.env.GITHUB_STEP_SUMMARY = env.GITHUB_STEP_SUMMARY;
    process.env.GITHUB_OUTPUT = env.GITHUB_OUTPUT;
    if (env.GITHUB_STEP_SUMMARY === undefined) delete process.env.GITHUB_STEP_SUMMARY;
    if (env.GITHUB_OUTPUT === undefined) delete process.env.GITHUB_OUTPUT;
  });

  const echoed = JSON.stringify({ [MEMBERS[0] as string]: { [TOPIC]: [0, 1, 2] } });
  const results = () =>
    gradeResults("alice", [
      // The visible case, answered wrongly too: its details are shown.
      judgedResult(VISIBLE, rawRun({ stdout: "{}\n" }), "alice"),
      judgedResult(secretCase("01-echo"), rawRun({ stdout: `${echoed}\n` }), "alice", [
        "global-assignment",
      ]),
      judgedResult(
        secretCase("02-crash"),
        rawRun({
          exitCode: 70,
          stderr: `Error: ${MEMBERS.join(" ")} ${TOPIC} ${METADATA} ${JSON.stringify(ANSWER)}\n    at main (src/main.ts:3:7)\n`,
        }),
        "alice",
      ),
      judgedResult(
        secretCase("03-rejected"),
        rawRun({ exitCode: 1, stderr: `error: member "${MEMBERS[1]}": topics[0]: cut short\n` }),
        "alice",
      ),
      judgedResult(
        secretCase("04-not-json"),
        rawRun({ stdout: `${MEMBERS[0]} ${TOPIC}\n` }),
        "alice",
      ),
    ]);

  it.each(Object.keys(FORMATS) as (keyof typeof FORMATS)[])(
    "--format %s writes none of their members, topics, bytes or answers",
    (format) => {
      const text = report(FORMATS[format], results());
      const written = [
        text,
        readFileSync(process.env.GITHUB_STEP_SUMMARY as string, "utf8"),
        readFileSync(process.env.GITHUB_OUTPUT as string, "utf8"),
      ].join("\n");
      // The Classroom step output is base64 JSON.
      const decoded = written.replace(/result=([A-Za-z0-9+/=]+)/g, (_, b64: string) =>
        Buffer.from(b64, "base64").toString("utf8"),
      );
      for (const secret of SECRETS) expect(decoded, `${format}: ${secret}`).not.toContain(secret);
      // The report is not empty of cases: the visible one is there.
      expect(decoded).toContain(VISIBLE);
    },
  );

  it("the records themselves hold none of it, in any field", () => {
    // judgedResult keeps the verdict beside each record for tests of judging: left out here.
    const text = JSON.stringify(results().cases.slice(1), (key, value: unknown) =>
      key === "verdict" ? undefined : value,
    );
    for (const secret of SECRETS) expect(text).not.toContain(secret);
    // While the visible case's record shows its input (the test can tell).
    expect(JSON.stringify(results().cases[0])).toContain("consumer-");
  });
});
