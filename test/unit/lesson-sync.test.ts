// LESSON.md's "The assignment bytes" against encoders that are not the kit's. kafkajs's
// MemberAssignment encoder is first held to the bytes Kafka 3.8 itself wrote
// (test/vectors/assignment.jsonl); then every assignment value the lesson prints is checked against
// it: the worked example's hex, the idle member's 10 bytes (by hand too), the value with user data,
// the field table and the figure, and the --sync examples, whose partitions come from the range
// rule worked here and whose subscriptions kafkajs decodes. The reference program's --sync output
// for the lesson's inputs is compared with the lesson's, entry for entry.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import kafkajs from "kafkajs";
import { describe, expect, it } from "vitest";
import { run } from "../../solution/src/main.ts";
import { ROOT } from "../helpers/program.ts";
import { readJsonl, type AssignmentVector } from "../helpers/vectors.ts";

type Partitions = Record<string, number[]>;

/** An assignment.jsonl line where Kafka wrote bytes: what it was given and the hex it wrote. */
interface KafkaWrote {
  note: string;
  version: number;
  assignment: Record<string, number[]> | [string, number[]][];
  userData: string | null;
  hex: string;
}

/** The encode-assignment lines of test/vectors/assignment.jsonl that Kafka wrote without error. */
const KAFKA_WROTE: KafkaWrote[] = readJsonl<AssignmentVector>("assignment.jsonl").flatMap((v) =>
  v.mode === "encode-assignment" && "hex" in v.expected
    ? [{ note: v.note, ...v.input, hex: v.expected.hex }]
    : [],
);

/** The program's input, as far as the --sync examples use it. */
interface SyncInput {
  topics: Record<string, number>;
  members: {
    memberId: string;
    groupInstanceId?: string | null;
    metadata: string;
    assignmentUserData?: string;
  }[];
}

const LESSON = readFileSync(join(ROOT, "LESSON.md"), "utf8");
const FIGURE = readFileSync(join(ROOT, "figures", "assignment-bytes.svg"), "utf8");

/** The text from a heading line to the next heading of the same or a higher level. */
function part(text: string, heading: string): string {
  const level = /^#+/.exec(heading)?.[0].length ?? 0;
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`LESSON.md has no heading "${heading}"`);
  const next = new RegExp(`\\n#{1,${level}} `, "g");
  next.lastIndex = start + heading.length + 1;
  const end = next.exec(text)?.index;
  return text.slice(start, end);
}

const SECTION = part(LESSON, "## The assignment bytes");
const WORKED = part(SECTION, "### Worked example: what c-1 receives");
const SYNC_STAGE = part(SECTION, "### The sync stage");
const INPUT = part(LESSON, "### Input");
const OUTPUT = part(LESSON, "### Output");

/** The bodies of a text's fenced code blocks with the given info string, in order. */
function fenced(text: string, info = ""): string[] {
  return [...text.matchAll(/^```([^\n]*)\n([\s\S]*?)^```$/gm)]
    .filter((m) => m[1] === info)
    .map((m) => m[2] ?? "");
}

/** A block of hex as the lesson writes it (`00 03 | 00 00 00 01 ...`): the digits alone. */
const digits = (block: string): string => block.replace(/[\s|]/g, "").toLowerCase();

/** kafkajs's encoding of a version-3 assignment; it writes a topic with no partitions as an entry. */
function kafkajsHex(partitions: Partitions, userData: Buffer | null): string {
  const nonEmpty = Object.fromEntries(Object.entries(partitions).filter(([, p]) => p.length > 0));
  return kafkajs.AssignerProtocol.MemberAssignment.encode({
    version: 3,
    assignment: nonEmpty,
    // kafkajs writes length -1 for null; its types say Buffer, but null is what it accepts.
    userData: userData as Buffer,
  }).toString("hex");
}

/** kafkajs's reading of assignment bytes (entries into an object keyed by topic). */
function kafkajsRead(hex: string): {
  version: number;
  assignment: Partitions;
  userData: string | null;
} {
  const read = kafkajs.AssignerProtocol.MemberAssignment.decode(Buffer.from(hex, "hex"));
  if (read === null) throw new Error(`kafkajs cannot read ${hex}`);
  const userData = read.userData as Buffer | null;
  return {
    version: read.version,
    assignment: read.assignment,
    userData: userData === null ? null : userData.toString("hex"),
  };
}

/** Array-index-like keys, which JavaScript objects (and so kafkajs's encoder) put first. */
const indexLike = (topic: string) => /^(0|[1-9]\d*)$/.test(topic);

describe("kafkajs's encoder writes what Kafka 3.8 writes (test/vectors/assignment.jsonl)", () => {
  it("for every valid encode line kafkajs can be given: the same hex", () => {
    let checked = 0;
    for (const line of KAFKA_WROTE) {
      const given = line.assignment;
      const pairs = Array.isArray(given) ? given : Object.entries(given);
      // Kafka's grouping: one entry per topic at its first appearance, partitions in the order
      // given, a topic with none not written.
      const entries = new Map<string, number[]>();
      for (const [topic, partitions] of pairs) {
        entries.set(topic, [...(entries.get(topic) ?? []), ...partitions]);
      }
      if ([...entries.keys()].some(indexLike)) continue;
      const userData = line.userData;
      const bytes = kafkajs.AssignerProtocol.MemberAssignment.encode({
        // Kafka writes a version above 3 as 3.
        version: Math.min(line.version, 3),
        assignment: Object.fromEntries([...entries].filter(([, p]) => p.length > 0)),
        userData: (userData === null ? null : Buffer.from(userData, "hex")) as Buffer,
      });
      expect(bytes.toString("hex"), line.note).toBe(line.hex);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(20);
  });
});

describe("LESSON.md#worked-example-what-c-1-receives", () => {
  const [c1 = "", idle = "", withUserData = ""] = fenced(WORKED).map(digits);

  it("c-1's value is kafkajs's for orders 0, 1, 2 with null user data: 34 bytes", () => {
    expect(c1).toBe(kafkajsHex({ orders: [0, 1, 2] }, null));
    expect(c1.length / 2).toBe(34);
    expect(WORKED).toContain("That is 34 bytes in all.");
  });

  it("c-1's value starts as Kafka's own version-3 value for orders does, up to the partitions", () => {
    // version 3, one entry, the name "orders": the first 14 bytes of any such value.
    const kafka = KAFKA_WROTE.find(
      (v) =>
        v.version === 3 &&
        !Array.isArray(v.assignment) &&
        Object.keys(v.assignment).join() === "orders",
    );
    expect(kafka).toBeDefined();
    expect(c1.slice(0, 28)).toBe(kafka?.hex.slice(0, 28));
    expect(c1.slice(0, 28)).toBe("0003" + "00000001" + "0006" + "6f7264657273");
  });

  it("the idle member's value is the 10 bytes 0003 00000000 ffffffff, as kafkajs writes", () => {
    // By hand: version 3 (int16), no entries (int32 0), user data length -1 (int32): null.
    expect(idle).toBe("0003" + "00000000" + "ffffffff");
    expect(idle).toBe(kafkajsHex({}, null));
    expect(idle).toBe(kafkajsHex({ audit: [] }, null));
    // Kafka's version-3 value with no partitions at all begins the same way.
    const kafka = KAFKA_WROTE.find(
      (v) => v.version === 3 && Object.keys(v.assignment).length === 0,
    );
    expect(kafka).toBeDefined();
    expect(kafka?.hex.slice(0, 12)).toBe(idle.slice(0, 12));
    expect(WORKED).toContain("null user data: 10 bytes.");
  });

  it("c-2's value with the user data 0a 0b 0c is kafkajs's", () => {
    expect(withUserData).toBe(kafkajsHex({ orders: [3, 4] }, Buffer.from("0a0b0c", "hex")));
    expect(withUserData.slice(-14)).toBe("00000003" + "0a0b0c");
  });

  it("c-2 and c-3 without user data are the 30 bytes the lesson says", () => {
    expect(kafkajsHex({ orders: [3, 4] }, null).length / 2).toBe(30);
    expect(kafkajsHex({ orders: [5, 6] }, null).length / 2).toBe(30);
    expect(WORKED.replace(/\s+/g, " ")).toContain(
      "`00 00 00 03 00 00 00 04` or `00 00 00 05 00 00 00 06`): 30 bytes each.",
    );
  });

  it("every row of the field table agrees with c-1's bytes", () => {
    const rows = WORKED.split("\n")
      .filter((line) => /^\| \d+ /.test(line))
      .map((line) => line.split("|").map((cell) => cell.trim()));
    expect(rows).toHaveLength(9);
    const bytes = Buffer.from(c1, "hex");
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let offset = 0;
    for (const [, at = "", shown = "", field = "", value = ""] of rows) {
      const row = `row at ${at} (${field})`;
      expect(+at, row).toBe(offset);
      const hex = digits(/^`([0-9a-f ]+)`$/.exec(shown)?.[1] ?? "");
      expect(hex, row).toBe(c1.slice(2 * offset, 2 * offset + hex.length));
      const width = hex.length / 2;
      if (width === 2 || width === 4) {
        const number = width === 2 ? view.getInt16(offset) : view.getInt32(offset);
        expect(Number(/-?\d+/.exec(value)?.[0]), row).toBe(number);
      } else {
        const text = new TextDecoder().decode(bytes.subarray(offset, offset + width));
        expect(/^`([^`]*)`$/.exec(value)?.[1], row).toBe(text);
      }
      offset += width;
    }
    expect(offset).toBe(bytes.length);
    expect(rows.at(-1)?.[4]).toContain("null");
  });

  it("the figure shows c-1's bytes, and the section shows the figure", () => {
    const shown = [...FIGURE.matchAll(/<text [^>]*font-size="17"[^>]*>([0-9a-f]{2})<\/text>/g)];
    expect(shown.map((m) => m[1]).join("")).toBe(c1);
    expect(WORKED).toMatch(/!\[[^\]]+\]\(figures\/assignment-bytes\.svg\)/);
  });
});

/** The input's members with their partitions of each topic, by the range rule of the lesson. */
function rangeAssignment(input: SyncInput): Map<string, Partitions> {
  const result = new Map<string, Partitions>();
  const subscribers = new Map<string, string[]>();
  for (const member of input.members) {
    result.set(member.memberId, {});
    // kafkajs reads the subscription: a decoder that is not the kit's.
    const metadata = kafkajs.AssignerProtocol.MemberMetadata.decode(
      Buffer.from(member.metadata.replace(/\s/g, ""), "hex"),
    );
    for (const topic of metadata?.topics ?? []) {
      subscribers.set(topic, [...(subscribers.get(topic) ?? []), member.memberId]);
    }
  }
  // Kafka's order: static members first by instance id, then the others by member id, both in
  // UTF-16 code units (a prefix keeps the two groups apart).
  const instance = new Map(input.members.map((m) => [m.memberId, m.groupInstanceId ?? null]));
  const key = (id: string) => {
    const instanceId = instance.get(id) ?? null;
    return instanceId === null ? `1${id}` : `0${instanceId}`;
  };
  for (const [topic, ids] of subscribers) {
    const n = input.topics[topic];
    if (n === undefined) continue; // not in the metadata: nobody gets it
    const members = [...ids].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
    const q = Math.floor(n / members.length);
    const r = n % members.length;
    members.forEach((id, i) => {
      const start = q * i + Math.min(i, r);
      const count = q + (i < r ? 1 : 0);
      if (count > 0) {
        const partitions = Array.from({ length: count }, (_, k) => start + k);
        result.set(id, { ...result.get(id), [topic]: partitions });
      }
    });
  }
  return result;
}

/**
 * Checks a --sync output the lesson prints for an input it prints: every member, each value what
 * kafkajs writes (read back and written again, so the lesson's order of entries is kept), and the
 * reference program's output the same entries.
 */
function checkSyncExample(input: SyncInput, output: Record<string, string>) {
  const expected = rangeAssignment(input);
  expect(Object.keys(output).sort()).toEqual([...expected.keys()].sort());
  for (const member of input.members) {
    const hex = output[member.memberId] ?? "";
    const userData = member.assignmentUserData ?? null;
    const read = kafkajsRead(hex);
    expect(read, member.memberId).toEqual({
      version: 3,
      assignment: expected.get(member.memberId),
      userData: userData === null ? null : digits(userData),
    });
    expect(
      kafkajsHex(read.assignment, userData === null ? null : Buffer.from(digits(userData), "hex")),
      member.memberId,
    ).toBe(hex);
  }
  const result = run(["--sync"], JSON.stringify(input));
  expect(result).toMatchObject({ exitCode: 0, stderr: "" });
  const printed = JSON.parse(result.stdout) as Record<string, string>;
  expect(Object.keys(printed).sort()).toEqual(Object.keys(output).sort());
  for (const [memberId, hex] of Object.entries(output)) {
    expect(printed[memberId]?.length, memberId).toBe(hex.length);
    expect(kafkajsRead(printed[memberId] ?? ""), memberId).toEqual(kafkajsRead(hex));
  }
}

describe("LESSON.md#the-sync-stage", () => {
  const [input = "", output = ""] = fenced(SYNC_STAGE, "json");

  it("the example's output is every member's value as kafkajs writes it", () => {
    const parsedInput = JSON.parse(input) as SyncInput;
    const parsedOutput = JSON.parse(output) as Record<string, string>;
    expect(Object.keys(parsedOutput)).toHaveLength(4);
    checkSyncExample(parsedInput, parsedOutput);
  });

  it("the example's values are the worked example's", () => {
    const parsed = JSON.parse(output) as Record<string, string>;
    const [c1 = "", idle = "", withUserData = ""] = fenced(WORKED).map(digits);
    expect(parsed).toMatchObject({ "c-1": c1, "c-4": idle, "c-2": withUserData });
  });
});

describe("LESSON.md#output: the --sync output of the input example", () => {
  it("is every member's value as kafkajs writes it", () => {
    const [input = ""] = fenced(INPUT, "json");
    // The output block whose every value is a string: member id to hex.
    const sync = fenced(OUTPUT, "json")
      .map((block) => JSON.parse(block) as Record<string, unknown>)
      .find((output) => Object.values(output).every((value) => typeof value === "string"));
    expect(sync).toBeDefined();
    checkSyncExample(JSON.parse(input) as SyncInput, sync as Record<string, string>);
  });
});
