/**
 * The mutants: for every catalogued mistake (grader/diagnose/catalogue.ts), the reference with
 * exactly that one mistake, written as text edits of solution/src. Instructor kit only: the
 * student handout ships grader/diagnose/diagnosis.json (every mutant's outcome on every built-in
 * case) instead.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { KIT_ROOT } from "../../kit.ts";

/** Replace `search` (which must occur exactly once) with `replace` in solution/src/`file`. */
export interface Edit {
  file: "subscription.ts" | "range-assignor.ts";
  search: string;
  replace: string;
}

const assignor = (search: string, replace: string): Edit => ({
  file: "range-assignor.ts",
  search,
  replace,
});
const decoder = (search: string, replace: string): Edit => ({
  file: "subscription.ts",
  search,
  replace,
});

// The reference's lines that the mutants change.
const START =
  "const start = numPartitionsPerConsumer * i + Math.min(i, consumersWithExtraPartition);";
const LENGTH =
  "const length = numPartitionsPerConsumer + (i < consumersWithExtraPartition ? 1 : 0);";
const TOPIC_LOOP = "for (const [topic, consumersForTopic] of membersPerTopic(subscriptions)) {";
const SKIP_UNKNOWN =
  "if (numPartitionsForTopic === undefined) continue; // no metadata: the leader cannot assign it";
const CODE_UNITS = "return a < b ? -1 : a > b ? 1 : 0;";
const PER_MEMBER = `    consumersForTopic.forEach((member, i) => {
      ${START}
      ${LENGTH}
      if (length === 0) return;
      const partitions: number[] = [];
      for (let p = start; p < start + length; p++) partitions.push(p);
      assignment.get(member.memberId)?.set(topic, partitions);
    });
  }
  return assignment;`;

export const MUTANTS: ReadonlyMap<string, readonly Edit[]> = new Map<string, readonly Edit[]>([
  [
    "global-assignment",
    [
      assignor(
        `  ${TOPIC_LOOP}
    const numPartitionsForTopic = partitionsPerTopic.get(topic);
    ${SKIP_UNKNOWN}

    const numPartitionsPerConsumer = Math.floor(numPartitionsForTopic / consumersForTopic.length);
    const consumersWithExtraPartition = numPartitionsForTopic % consumersForTopic.length;

${PER_MEMBER}`,
        `  // One range over all topics' partitions pooled, among everyone subscribed to any of them.
  const everyone = new Map<string, MemberInfo>();
  const pooled: [string, number][] = [];
  ${TOPIC_LOOP}
    const numPartitionsForTopic = partitionsPerTopic.get(topic);
    ${SKIP_UNKNOWN}
    for (const member of consumersForTopic) everyone.set(member.memberId, member);
    for (let p = 0; p < numPartitionsForTopic; p++) pooled.push([topic, p]);
  }
  const members = [...everyone.values()].sort(compareMembers);
  const q = Math.floor(pooled.length / Math.max(1, members.length));
  const r = pooled.length % Math.max(1, members.length);
  members.forEach((member, i) => {
    const start = q * i + Math.min(i, r);
    const owned = assignment.get(member.memberId);
    for (const [topic, p] of pooled.slice(start, start + q + (i < r ? 1 : 0))) {
      owned?.set(topic, [...(owned.get(topic) ?? []), p]);
    }
  });
  return assignment;`,
      ),
    ],
  ],
  [
    "numeric-order",
    [
      assignor(
        CODE_UNITS,
        `// A natural sort: runs of digits compare as numbers.
  const as = a.split(/(\\d+)/);
  const bs = b.split(/(\\d+)/);
  for (let k = 0; k < Math.min(as.length, bs.length); k++) {
    const x = as[k] ?? "";
    const y = bs[k] ?? "";
    if (x === y) continue;
    if (k % 2 === 1) return Number(x) - Number(y) || (x < y ? -1 : 1);
    return x < y ? -1 : 1;
  }
  return as.length - bs.length;`,
      ),
    ],
  ],
  ["arrival-order", [assignor("  members.sort(compareMembers);\n", "")]],
  ["locale-order", [assignor(CODE_UNITS, 'return a.localeCompare(b, "en-US");')]],
  [
    "idle-members-dropped",
    [
      assignor(
        "  for (const memberId of subscriptions.keys()) assignment.set(memberId, new Map());\n",
        "",
      ),
      assignor(
        "assignment.get(member.memberId)?.set(topic, partitions);",
        "(assignment.get(member.memberId) ?? assignment.set(member.memberId, new Map()).get(member.memberId))?.set(topic, partitions);",
      ),
    ],
  ],
  [
    "unsubscribed-topics-assigned",
    [
      assignor(
        TOPIC_LOOP,
        `for (const [topic] of partitionsPerTopic) {
    // Every topic of the metadata, shared among every member of the group.
    const consumersForTopic = [...subscriptions]
      .map(([memberId, s]) => ({ memberId, groupInstanceId: s.groupInstanceId, topics: s.topics }))
      .sort(compareMembers);`,
      ),
    ],
  ],
  [
    "unknown-topic-crash",
    [
      assignor(
        SKIP_UNKNOWN,
        "if (numPartitionsForTopic === undefined) throw new TypeError(`Cannot read properties of undefined (reading 'length') for topic ${topic}`);",
      ),
    ],
  ],
  [
    "extra-to-last",
    [
      assignor(
        `${START}\n      ${LENGTH}`,
        `const firstWithExtra = consumersForTopic.length - consumersWithExtraPartition;
      const start = numPartitionsPerConsumer * i + Math.max(0, i - firstWithExtra);
      const length = numPartitionsPerConsumer + (i >= firstWithExtra ? 1 : 0);`,
      ),
    ],
  ],
  ["start-without-min", [assignor(START, "const start = numPartitionsPerConsumer * i;")]],
  [
    "ceil-chunks",
    [
      assignor(
        `${START}\n      ${LENGTH}`,
        `const chunk = Math.ceil(numPartitionsForTopic / consumersForTopic.length);
      const start = chunk * i;
      const length = Math.max(0, Math.min(chunk, numPartitionsForTopic - start));`,
      ),
    ],
  ],
  [
    "round-robin",
    [
      assignor(
        `${START}\n      ${LENGTH}\n      if (length === 0) return;\n      const partitions: number[] = [];\n      for (let p = start; p < start + length; p++) partitions.push(p);`,
        `const partitions: number[] = [];
      for (let p = i; p < numPartitionsForTopic; p += consumersForTopic.length) partitions.push(p);
      if (partitions.length === 0) return;`,
      ),
    ],
  ],
  [
    "little-endian",
    [
      decoder(
        "const value = this.view.getInt16(this.offset);",
        "const value = this.view.getInt16(this.offset, true);",
      ),
      decoder(
        "const value = this.view.getInt32(this.offset);",
        "const value = this.view.getInt32(this.offset, true);",
      ),
    ],
  ],
  [
    "char-length-names",
    [
      decoder(
        `const value = this.text.toString("utf8", this.offset, this.offset + length);
    this.offset += length;`,
        `const value = this.text.toString("utf8", this.offset, this.offset + length);
    this.offset += value.length; // moves on by the number of characters, not bytes`,
      ),
    ],
  ],
  [
    "unsigned-user-data-length",
    [
      decoder(
        '    const length = this.int32(field);\n    if (length < 0) return null;\n    return this.take(field, length, "bytes").slice();',
        `    this.need(field, 4, "int32");
    const length = this.view.getUint32(this.offset);
    this.offset += 4;
    if (length === 0xffffffff) return null;
    return this.take(field, length, "bytes").slice();`,
      ),
    ],
  ],
  [
    "newer-versions-rejected",
    [
      decoder(
        "  const readAs = Math.min(version, HIGHEST_SUBSCRIPTION_VERSION);",
        `  if (version > HIGHEST_SUBSCRIPTION_VERSION) {
    throw new SubscriptionDecodeError({
      field: "version",
      offset: versionOffset,
      expected: "a version from 0 to 3",
      found: \`found \${version}\`,
    });
  }
  const readAs = Math.min(version, HIGHEST_SUBSCRIPTION_VERSION);`,
      ),
    ],
  ],
  [
    "trailing-fields-misread",
    [
      decoder(
        '  const userData = reader.nullableBytes("userData");',
        `  const userData = reader.nullableBytes("userData");
  if (reader.remaining > 0) {
    throw new SubscriptionDecodeError({
      field: "userData",
      offset: reader.offset,
      expected: "the end of the subscription",
      found: \`found \${reader.remaining} more bytes\`,
    });
  }`,
      ),
    ],
  ],
  [
    "dataview-byteoffset",
    [
      decoder(
        "this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);",
        "this.view = new DataView(bytes.buffer);",
      ),
    ],
  ],
  [
    "static-members-not-first",
    [
      assignor(
        "function compareMembers(a: MemberInfo, b: MemberInfo): number {",
        "function compareMembers(a: MemberInfo, b: MemberInfo): number {\n  return compareCodeUnits(a.memberId, b.memberId);",
      ),
    ],
  ],
]);

/** Applies edits to a source text; throws when a search text does not occur exactly once. */
export function applyEdits(file: string, source: string, edits: readonly Edit[]): string {
  let result = source;
  for (const edit of edits.filter((e) => e.file === file)) {
    const count = result.split(edit.search).length - 1;
    if (count !== 1) {
      throw new Error(
        `mutant edit of ${file}: ${JSON.stringify(edit.search.slice(0, 80))} occurs ${count} times (expected once)`,
      );
    }
    result = result.replace(edit.search, () => edit.replace);
  }
  return result;
}

/**
 * Writes the mutant for `id` as a submission folder (a copy of solution/ with the edits applied).
 *
 * @returns the folder's path (under the OS temporary folder)
 * @throws Error for an unknown id or an edit that no longer matches solution/src
 */
export function writeMutant(id: string): string {
  const edits = MUTANTS.get(id);
  if (edits === undefined) throw new Error(`no mutant for mistake ${id}`);
  const dir = join(mkdtempSync(join(tmpdir(), `kit-mutant-${id}-`)), "submission");
  cpSync(join(KIT_ROOT, "solution"), dir, { recursive: true });
  for (const file of ["subscription.ts", "range-assignor.ts"] as const) {
    const path = join(dir, "src", file);
    writeFileSync(path, applyEdits(file, readFileSync(path, "utf8"), edits));
  }
  return dir;
}
