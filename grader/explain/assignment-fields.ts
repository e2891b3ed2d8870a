/**
 * A wrong assignment value explained field by field: one member's bytes as the program wrote
 * them, each field (offset, name, bytes, value) beside the field Kafka writes, with the first
 * field that differs marked `>`. Plain text lines, no colours; every string that comes from the
 * program (member id, names, values) is escaped (verdict/assignment-bytes.ts's `quoted`, and
 * printable.ts).
 *
 * The order of topic entries means nothing to Kafka (verdict/assignment-bytes.ts's
 * sameAssignment), so before comparing, Kafka's entries are put in the order the program's bytes
 * name the topics (entries equal in full are paired first, then entries of the same topic; those
 * the program lacks go last, in Kafka's order). The first field that differs is then the first
 * real difference, not the first place where the orders part.
 */
import { printable } from "../printable.ts";
import {
  hexBytes,
  javaUtf8,
  quoted,
  readAssignment,
  type AssignmentField,
  type DecodedAssignment,
} from "../verdict/assignment-bytes.ts";

/** Field lines shown at most; the rest are counted. */
const MAX_FIELD_LINES = 40;

/** Field lines shown before the first difference, when fields before it are left out. */
const CONTEXT_BEFORE = 5;

/** Bytes of a field shown before the rest is summarised. */
const BYTES_SHOWN = 8;

/** Characters of a member id shown. */
const ID_CHARS = 80;

/** One line of the table: the program's field and Kafka's field of the same name, either absent. */
interface Row {
  name: string;
  /** The program's field, or the field whose read failed (value `(cannot read)`). */
  yours?: AssignmentField;
  kafka?: AssignmentField;
  differs: boolean;
}

/** Up to BYTES_SHOWN bytes as spaced hex, `…+N` for the rest. */
function hexOf(bytes: Uint8Array, offset: number, length: number): string {
  const end = Math.min(bytes.length, offset + length);
  const shown = [...bytes.subarray(offset, Math.min(end, offset + BYTES_SHOWN))]
    .map((b) => b.toString(16).padStart(2, "0"))
    .join(" ");
  return end - offset > BYTES_SHOWN ? `${shown} …+${end - offset - BYTES_SHOWN}` : shown;
}

/** Whether two fields of the same name hold what Kafka counts as the same value. */
function sameField(
  yours: AssignmentField,
  yourBytes: Uint8Array,
  kafka: AssignmentField,
  kafkaBytes: Uint8Array,
): boolean {
  // Names as Kafka reads them (two malformed spellings of U+FFFD are one name).
  if (yours.name.endsWith(".name")) {
    return (
      javaUtf8(yourBytes.subarray(yours.offset, yours.offset + yours.length)) ===
      javaUtf8(kafkaBytes.subarray(kafka.offset, kafka.offset + kafka.length))
    );
  }
  // Numbers (the user-data length too: a reader takes any negative one as null, but Kafka writes
  // -1, and -2 is not its bytes) and user data: the same bytes (compared in place, a value may have
  // 100,000 fields).
  if (yours.length !== kafka.length) return false;
  for (let k = 0; k < yours.length; k++) {
    if (yourBytes[yours.offset + k] !== kafkaBytes[kafka.offset + k]) return false;
  }
  return true;
}

/** Fields by name (names are unique within one value). */
const byName = (fields: readonly AssignmentField[]) => new Map(fields.map((f) => [f.name, f]));

/**
 * Kafka's bytes with its topic entries moved into the program's order (see the module's
 * comment), or the bytes as they are when nothing moves.
 *
 * @param yourTopics the program's entries in wire order: topic, and partitions when known
 */
function inYourOrder(
  kafkaBytes: Uint8Array,
  kafka: DecodedAssignment,
  yourTopics: readonly { topic: string; partitions?: readonly number[] }[],
): { bytes: Uint8Array; moved: boolean } {
  const fields = byName(kafka.fields);
  const userDataAt = fields.get("userData length")?.offset ?? kafkaBytes.length;
  const starts = kafka.topics.map((_, i) => fields.get(`topics[${i}].name length`)?.offset ?? 0);
  const used = new Array<boolean>(kafka.topics.length).fill(false);
  const pairedWith = new Array<number | undefined>(yourTopics.length).fill(undefined);
  const entryKey = (topic: string, partitions: readonly number[]) =>
    JSON.stringify([topic, partitions]);
  // Queues of Kafka's entries: by whole entry, and by topic.
  const whole = new Map<string, number[]>();
  const sameTopic = new Map<string, number[]>();
  kafka.topics.forEach((t, i) => {
    const k = entryKey(t.topic, t.partitions);
    whole.set(k, [...(whole.get(k) ?? []), i]);
    sameTopic.set(t.topic, [...(sameTopic.get(t.topic) ?? []), i]);
  });
  const take = (queue: number[] | undefined) => {
    while (queue !== undefined && queue.length > 0) {
      const i = queue.shift() as number;
      if (!used[i]) {
        used[i] = true;
        return i;
      }
    }
    return undefined;
  };
  yourTopics.forEach((t, n) => {
    if (t.partitions !== undefined) {
      pairedWith[n] = take(whole.get(entryKey(t.topic, t.partitions)));
    }
  });
  yourTopics.forEach((t, n) => {
    if (pairedWith[n] === undefined) pairedWith[n] = take(sameTopic.get(t.topic));
  });
  const order = [
    ...pairedWith.filter((i): i is number => i !== undefined),
    ...kafka.topics.map((_, i) => i).filter((i) => !used[i]),
  ];
  if (order.every((i, k) => i === k)) return { bytes: kafkaBytes, moved: false };
  const firstEntry = starts[0] ?? userDataAt;
  const parts = [kafkaBytes.subarray(0, firstEntry)];
  for (const i of order) {
    parts.push(kafkaBytes.subarray(starts[i] ?? userDataAt, starts[i + 1] ?? userDataAt));
  }
  parts.push(kafkaBytes.subarray(userDataAt));
  return { bytes: new Uint8Array(Buffer.concat(parts)), moved: true };
}

/**
 * The program's fields and Kafka's, paired by name in wire order; a field only one side has
 * comes where its order puts it. Both lists follow one order of names (entries by index,
 * partitions by index, user data last), so the pairs never cross.
 */
function pairRows(
  yours: readonly AssignmentField[],
  yourBytes: Uint8Array,
  kafka: readonly AssignmentField[],
  kafkaBytes: Uint8Array,
): Row[] {
  const kafkaIndex = new Map(kafka.map((f, i) => [f.name, i]));
  const rows: Row[] = [];
  let next = 0;
  const kafkaOnlyUpTo = (end: number) => {
    for (; next < end; next++) {
      const k = kafka[next] as AssignmentField;
      rows.push({ name: k.name, kafka: k, differs: true });
    }
  };
  for (const f of yours) {
    const k = kafkaIndex.get(f.name);
    if (k === undefined || k < next) {
      rows.push({ name: f.name, yours: f, differs: true });
      continue;
    }
    kafkaOnlyUpTo(k);
    const kf = kafka[k] as AssignmentField;
    rows.push({
      name: f.name,
      yours: f,
      kafka: kf,
      differs: !sameField(f, yourBytes, kf, kafkaBytes),
    });
    next = k + 1;
  }
  // Kafka's fields after the program's last one.
  kafkaOnlyUpTo(kafka.length);
  return rows;
}

/** The largest value shown field by field, bytes (a large private case's values are summed up). */
const FIELDS_MAX_BYTES = 512 * 1024;

/**
 * A failure report's lines for one member's assignment value: the program's bytes field by field
 * beside Kafka's (see the module's comment), then what went wrong:
 *
 * - a table: a mark column (`>` on the first field that differs), the offset in the program's
 *   bytes, the field's name, the program's bytes (hex, cut after 8) and value, then `|` and
 *   Kafka's bytes and value for the field of the same name (blank where one side has no such
 *   field); at most 40 field lines, chosen around the first difference, the rest counted;
 * - `cannot read <field> at byte <n>: <message>` when Kafka could not read the program's bytes;
 * - a line naming bytes after the user data, when there are some;
 * - last, `first difference: <field> at byte <offset>: yours <value>, Kafka's <value>`.
 *
 * A value over FIELDS_MAX_BYTES (either side) gets one line instead: both sizes and the first
 * byte that differs.
 *
 * @param memberId the member, as the program named it (escaped and cut here)
 * @param actualHex the program's value for the member, as hex (text that is not hex is reported
 *   as such)
 * @param expectedHex the value Kafka's Java client writes, as hex
 */
export function assignmentFieldLines(
  memberId: string,
  actualHex: string,
  expectedHex: string,
): string[] {
  const who = `member ${quoted(memberId, ID_CHARS)}`;
  const yourBytes = hexBytes(actualHex);
  if (yourBytes === undefined) {
    return [`${who}: your assignment value is not hex bytes: ${quoted(actualHex)}`];
  }
  if (yourBytes.length > FIELDS_MAX_BYTES || expectedHex.length / 2 > FIELDS_MAX_BYTES) {
    // Reading a value this large field by field costs more than a report line is worth.
    const kafkaBytes = hexBytes(expectedHex) ?? new Uint8Array(0);
    let at = 0;
    while (at < yourBytes.length && at < kafkaBytes.length && yourBytes[at] === kafkaBytes[at])
      at++;
    return [
      `${who}: your assignment value has ${yourBytes.length} bytes, Kafka's ${kafkaBytes.length}: too large to show field by field; the first byte that differs (entries in the order written) is at byte ${at}`,
    ];
  }
  const kafkaOriginal = hexBytes(expectedHex);
  const kafkaRead = kafkaOriginal === undefined ? undefined : readAssignment(kafkaOriginal);
  if (kafkaOriginal === undefined || kafkaRead === undefined || !kafkaRead.ok) {
    return [
      `${who}: internal error of the grader: Kafka's expected assignment value cannot be read`,
    ];
  }
  const yours = readAssignment(yourBytes);
  const yourFields = yours.ok ? yours.value.fields : yours.fields;
  const yourTopics = yours.ok
    ? yours.value.topics
    : yourFields
        .filter((f) => f.name.endsWith(".name"))
        .map((f) => ({ topic: javaUtf8(yourBytes.subarray(f.offset, f.offset + f.length)) }));
  const { bytes: kafkaBytes, moved } = inYourOrder(kafkaOriginal, kafkaRead.value, yourTopics);
  const kafka = moved ? readAssignment(kafkaBytes) : kafkaRead;
  if (!kafka.ok) {
    return [`${who}: internal error of the grader: Kafka's entries cannot be reordered`];
  }
  const kafkaFields = kafka.value.fields;

  let rows: Row[];
  if (yours.ok) {
    rows = pairRows(yourFields, yourBytes, kafkaFields, kafkaBytes);
  } else {
    // Kafka's fields up to the one whose read failed in the program's bytes, then that field.
    // Without such a field in Kafka's value, Kafka's fields up to the last one the program has.
    const failedAt = kafkaFields.findIndex((f) => f.name === yours.error.field);
    const yourNames = new Set(yourFields.map((f) => f.name));
    let lastShared = -1;
    kafkaFields.forEach((f, i) => {
      if (yourNames.has(f.name)) lastShared = i;
    });
    const kafkaUpTo = kafkaFields.slice(0, failedAt === -1 ? lastShared + 1 : failedAt);
    rows = pairRows(yourFields, yourBytes, kafkaUpTo, kafkaBytes);
    const kafkaField = failedAt === -1 ? undefined : kafkaFields[failedAt];
    rows.push({
      name: yours.error.field,
      yours: {
        name: yours.error.field,
        offset: yours.error.offset,
        length: kafkaField?.length ?? 4,
        value: "(cannot read)",
      },
      ...(kafkaField === undefined ? {} : { kafka: kafkaField }),
      differs: true,
    });
  }

  const first = rows.findIndex((r) => r.differs);
  const start =
    first <= CONTEXT_BEFORE
      ? 0
      : Math.min(first - CONTEXT_BEFORE, Math.max(0, rows.length - MAX_FIELD_LINES));
  const shown = rows.slice(start, start + MAX_FIELD_LINES);

  // Where a field only Kafka has would be in the program's bytes: after the field before it.
  const offsets: number[] = [];
  let end = 0;
  for (const r of rows) {
    offsets.push(r.yours?.offset ?? end);
    if (r.yours !== undefined) end = r.yours.offset + r.yours.length;
  }

  const cells = shown.map((r, k) => ({
    mark: start + k === first ? ">" : " ",
    offset: r.yours === undefined ? "" : String(r.yours.offset),
    name: r.name,
    yourHex: r.yours === undefined ? "" : hexOf(yourBytes, r.yours.offset, r.yours.length),
    yourValue: r.yours === undefined ? "(none)" : printable(r.yours.value),
    kafkaHex: r.kafka === undefined ? "" : hexOf(kafkaBytes, r.kafka.offset, r.kafka.length),
    kafkaValue: r.kafka === undefined ? "(none)" : printable(r.kafka.value),
  }));
  const width = (pick: (c: (typeof cells)[number]) => string, header: string) =>
    cells.reduce((w, c) => Math.max(w, pick(c).length), header.length);
  const nameWidth = width((c) => c.name, "field");
  const hexWidth = width(
    (c) => (c.yourHex.length > c.kafkaHex.length ? c.yourHex : c.kafkaHex),
    "Kafka's bytes",
  );
  const valueWidth = width((c) => c.yourValue, "value");
  const line = (c: (typeof cells)[number]) =>
    [
      `${c.mark} ${c.offset.padStart(6)}`,
      c.name.padEnd(nameWidth),
      c.yourHex.padEnd(hexWidth),
      c.yourValue.padEnd(valueWidth),
      `| ${c.kafkaHex.padEnd(hexWidth)}`,
      c.kafkaValue,
    ]
      .join("  ")
      .trimEnd();

  const lines = [`${who}: your assignment value field by field, beside Kafka's`];
  if (moved) {
    lines.push(
      "(Kafka's topic entries are shown in the order your bytes name the topics: the order of entries does not matter)",
    );
  }
  lines.push(
    line({
      mark: " ",
      offset: "offset",
      name: "field",
      yourHex: "your bytes",
      yourValue: "value",
      kafkaHex: "Kafka's bytes",
      kafkaValue: "value",
    }),
  );
  if (start > 0) lines.push(`  … ${start} fields before these are the same and not shown`);
  for (const c of cells) {
    lines.push(line(c));
  }
  const after = rows.length - start - shown.length;
  if (after > 0) lines.push(`  … ${after} more fields not shown`);

  if (!yours.ok) {
    lines.push(
      `cannot read ${yours.error.field} at byte ${yours.error.offset}: ${printable(yours.error.message)}`,
    );
  }
  const trailing = yours.ok ? yours.value.remaining : 0;
  if (trailing > 0) {
    lines.push(
      `${trailing} ${trailing === 1 ? "byte" : "bytes"} after the user data, from byte ${end}: ${hexOf(yourBytes, end, trailing)} (Kafka writes nothing after the user data)`,
    );
  }

  const firstRow = rows[first];
  if (firstRow !== undefined) {
    const yourValue = firstRow.yours === undefined ? "(none)" : printable(firstRow.yours.value);
    const kafkaValue = firstRow.kafka === undefined ? "(none)" : printable(firstRow.kafka.value);
    lines.push(
      `first difference: ${firstRow.name} at byte ${offsets[first] ?? 0}: yours ${yourValue}, Kafka's ${kafkaValue}`,
    );
  } else if (trailing > 0) {
    lines.push(
      `first difference: trailing bytes at byte ${end}: yours ${trailing} ${trailing === 1 ? "byte" : "bytes"}, Kafka's none`,
    );
  } else {
    lines.push(
      "first difference: none: your value reads the same as Kafka's, up to the order of topic entries",
    );
  }
  return lines;
}
