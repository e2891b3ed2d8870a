/**
 * Naming an encoder's mistakes from the bytes it wrote (the sync stage). Each member's value is
 * read again the way encoder mistakes write it (some fields little-endian, no version, a field of
 * another width, the compact encoding, no user data, and these together), and what that reading
 * gives is compared with Kafka's value field by field (the version, a name's length in UTF-16
 * units, null against empty user data, user data taken from the buffer under its view, the
 * partitions' order). The mistakes shown are the one smallest set that explains every member whose
 * bytes differ from Kafka's: the bytes themselves are the evidence, and several mistakes found
 * that way are there together, not one of them. A member no reading explains (its partitions are
 * not Kafka's: the assignor's mistake, not the encoder's) shows nothing here.
 *
 * The layout read is Kafka 3.8's ConsumerProtocolAssignment (versions 0-3 share it); the compact
 * encoding is that of Kafka's flexible versions (unsigned varint length + 1, tagged fields).
 * Work: a fixed number of readings per member, each linear in the member's bytes.
 */
import {
  hexBytes,
  javaUtf8,
  readAssignment,
  type DecodedAssignment,
} from "../verdict/assignment-bytes.ts";

/** How a length or count is written: an int16, an int32, or a compact unsigned varint (N + 1). */
type Width = 2 | 4 | "varint";

/** The integer fields of the value, for the endianness of each. */
const INTEGER_FIELDS = [
  "version",
  "topicCount",
  "nameLength",
  "partitionCount",
  "partition",
  "userDataLength",
] as const;
type IntegerField = (typeof INTEGER_FIELDS)[number];

/** One way of writing the value (a reading of the bytes). */
interface Layout {
  /** The mistakes that write this way (none: Kafka's own layout). */
  mistakes: readonly string[];
  /**
   * How many things an encoder changes to write this way: a field swapped or widened counts one,
   * every field little-endian (one helper) counts one. Of two readings, the simpler is believed.
   */
  changes: number;
  /** Bytes of the version (0: none). */
  version: 0 | 2 | 4;
  topicCount: Width;
  nameLength: Width;
  partitionCount: Width;
  partition: 2 | 4;
  /** How the user-data length is written; null: there is no user data field. */
  userDataLength: Width | null;
  /** Whether a name's length counts UTF-16 units (of the UTF-8 bytes after it, all of them). */
  nameInUnits: boolean;
  /** The integer fields written little-endian. */
  littleEndian: ReadonlySet<IntegerField>;
  /** Whether each topic entry ends with an empty tagged-field section (a 0 byte). */
  entryTags: boolean;
  /** Whether the value ends with one. */
  valueTags: boolean;
}

const KAFKA: Layout = {
  mistakes: [],
  changes: 0,
  version: 2,
  topicCount: 4,
  nameLength: 2,
  partitionCount: 4,
  partition: 4,
  userDataLength: 4,
  nameInUnits: false,
  littleEndian: new Set(),
  entryTags: false,
  valueTags: false,
};

/** Every subset of the integer fields (by bits of `i`, the first field the lowest bit). */
const fieldSubset = (i: number): IntegerField[] =>
  INTEGER_FIELDS.filter((_, bit) => (i & (1 << bit)) !== 0);

/** Every subset of the integer fields: which ones an encoder wrote little-endian. */
const LITTLE_ENDIAN_SETS: readonly ReadonlySet<IntegerField>[] = Array.from(
  { length: 2 ** INTEGER_FIELDS.length },
  (_, i) => new Set(fieldSubset(i)),
);

/** Each field's width as Kafka's, and as the other width of the two (int16, int32). */
const OTHER_WIDTH = {
  version: { version: 4 },
  topicCount: { topicCount: 2 },
  nameLength: { nameLength: 4 },
  partitionCount: { partitionCount: 2 },
  partition: { partition: 2 },
  userDataLength: { userDataLength: 2 },
} as const satisfies Record<IntegerField, Partial<Layout>>;

/** Kafka's widths with every subset of the fields at the other width. */
const WIDTHS: readonly { fields: number; layout: Partial<Layout> }[] = Array.from(
  { length: 2 ** INTEGER_FIELDS.length },
  (_, i) => ({
    fields: fieldSubset(i).length,
    layout: Object.assign({}, ...fieldSubset(i).map((f) => OTHER_WIDTH[f])) as Partial<Layout>,
  }),
);

/**
 * Kafka's layout and the structural mistakes' ways of writing it: any fields little-endian, any
 * fields at the other width, or both (with no field swapped, or every one); names of UTF-16
 * units; the compact encoding, with or without each kind of tagged-field section.
 */
const SINGLE: readonly Layout[] = [
  ...WIDTHS.flatMap(({ fields, layout }) =>
    LITTLE_ENDIAN_SETS.filter(
      (le) => fields === 0 || le.size === 0 || le.size === INTEGER_FIELDS.length,
    ).map((littleEndian): Layout => ({
      ...KAFKA,
      ...layout,
      littleEndian,
      changes: fields + (littleEndian.size === INTEGER_FIELDS.length ? 1 : littleEndian.size),
      mistakes: [
        ...(littleEndian.size > 0 ? ["assignment-little-endian"] : []),
        ...(fields > 0 ? ["assignment-field-width-wrong"] : []),
      ],
    })),
  ),
  { ...KAFKA, mistakes: ["assignment-char-length-names"], changes: 1, nameInUnits: true },
  ...[
    [true, true],
    [true, false],
    [false, true],
    [false, false],
  ].map(([entryTags, valueTags]): Layout => ({
    ...KAFKA,
    mistakes: ["assignment-compact-encoding"],
    changes: 1 + (entryTags === true ? 0 : 1) + (valueTags === true ? 0 : 1),
    topicCount: "varint",
    nameLength: "varint",
    partitionCount: "varint",
    userDataLength: "varint",
    entryTags: entryTags === true,
    valueTags: valueTags === true,
  })),
];

/** Each of those also without a version, or without user data, or both (a field left out). */
const LAYOUTS: readonly Layout[] = SINGLE.flatMap((layout) => [
  layout,
  {
    ...layout,
    mistakes: [...layout.mistakes, "assignment-no-version"],
    changes: layout.changes + 1,
    version: 0,
  },
  {
    ...layout,
    mistakes: [...layout.mistakes, "assignment-user-data-missing"],
    changes: layout.changes + 1,
    userDataLength: null,
  },
  {
    ...layout,
    mistakes: [...layout.mistakes, "assignment-no-version", "assignment-user-data-missing"],
    changes: layout.changes + 2,
    version: 0,
    userDataLength: null,
  },
]);

/** One topic entry as a layout reads it: its name's bytes kept, for the UTF-16 length reading. */
interface ReadEntry {
  nameBytes: Uint8Array;
  partitions: number[];
}

/** A value as a layout reads it. */
interface Read {
  /** undefined: no version in the bytes. */
  version: number | undefined;
  topics: ReadEntry[];
  /** undefined: no user data field. */
  userData: Uint8Array | null | undefined;
}

/** Reads `bytes` in `layout`, or undefined when they do not fit it exactly (to the last byte). */
function readAs(bytes: Uint8Array, layout: Layout): Read | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  const left = () => bytes.length - at;
  const int = (width: 2 | 4, field: IntegerField): number | undefined => {
    if (left() < width) return undefined;
    const little = layout.littleEndian.has(field);
    const value = width === 2 ? view.getInt16(at, little) : view.getInt32(at, little);
    at += width;
    return value;
  };
  // A compact length: an unsigned varint of length + 1 (0: null), at most five bytes.
  const length = (width: Width, field: IntegerField): number | undefined => {
    if (width !== "varint") return int(width, field);
    let value = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const byte = bytes[at];
      if (byte === undefined) return undefined;
      at++;
      value += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) return value - 1;
    }
    return undefined;
  };
  const tags = (here: boolean) => !here || bytes[at++] === 0;

  let version: number | undefined;
  if (layout.version !== 0) {
    version = int(layout.version, "version");
    if (version === undefined) return undefined;
  }
  const count = length(layout.topicCount, "topicCount");
  // Each entry takes at least 2 bytes: a count beyond that is not this layout.
  if (count === undefined || count < 0 || count > left() / 2) return undefined;
  const topics: ReadEntry[] = [];
  for (let t = 0; t < count; t++) {
    const nameLength = length(layout.nameLength, "nameLength");
    if (nameLength === undefined || nameLength < 0 || nameLength > left()) return undefined;
    const start = at;
    if (layout.nameInUnits) {
      // UTF-8 characters until `nameLength` UTF-16 units are read (a 4-byte one is two units).
      for (let units = 0; units < nameLength;) {
        const lead = bytes[at];
        if (lead === undefined) return undefined;
        const size = lead < 0x80 ? 1 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
        at += size;
        units += size === 4 ? 2 : 1;
      }
      if (at > bytes.length) return undefined;
    } else at += nameLength;
    const nameBytes = bytes.subarray(start, at);
    const partitionCount = length(layout.partitionCount, "partitionCount");
    if (partitionCount === undefined || partitionCount < 0) return undefined;
    if (partitionCount > left() / layout.partition) return undefined;
    const partitions: number[] = [];
    for (let p = 0; p < partitionCount; p++) {
      partitions.push(int(layout.partition, "partition") as number);
    }
    if (!tags(layout.entryTags)) return undefined;
    topics.push({ nameBytes, partitions });
  }
  let userData: Read["userData"];
  if (layout.userDataLength !== null) {
    const n = length(layout.userDataLength, "userDataLength");
    if (n === undefined || n > left()) return undefined;
    userData = n < 0 ? null : bytes.subarray(at, at + n);
    at += Math.max(0, n);
  }
  if (!tags(layout.valueTags)) return undefined;
  return at === bytes.length ? { version, topics, userData } : undefined;
}

const utf8 = new TextEncoder();

const sameBytes = (a: Uint8Array, b: Uint8Array) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * The bytes main.ts puts around a view it hands a function (main.ts hexToBytes): 8 bytes of 0xAA
 * on each side, in the same ArrayBuffer.
 */
const PAD = 0xaa;
const PAD_BYTES = 8;

/**
 * Whether `wrote` is user data taken from the buffer main.ts made around the view `view`, not
 * from the view: the whole buffer (`new Uint8Array(view.buffer)`), the view's length from the
 * buffer's start (its byteOffset left out), or the buffer from the view's start to its end, or
 * from its start to the view's end.
 */
function fromTheBuffer(wrote: Uint8Array, view: Uint8Array): boolean {
  const buffer = new Uint8Array(view.length + 2 * PAD_BYTES).fill(PAD);
  buffer.set(view, PAD_BYTES);
  return [
    buffer,
    buffer.subarray(0, view.length),
    buffer.subarray(PAD_BYTES),
    buffer.subarray(0, PAD_BYTES + view.length),
  ].some((taken) => taken.length > 0 && sameBytes(wrote, taken));
}

/**
 * An entry's topic as Kafka's value names it: the name its bytes spell, or, when they are the
 * first bytes of a name's UTF-8 as many as its UTF-16 units (a length written as `topic.length`,
 * the bytes cut there), that name with the mistake.
 */
function entryTopic(
  entry: ReadEntry,
  names: readonly string[],
): { topic: string; mistake?: string } {
  const topic = javaUtf8(entry.nameBytes);
  if (names.includes(topic)) return { topic };
  for (const name of names) {
    const bytes = utf8.encode(name);
    if (
      bytes.length !== name.length &&
      sameBytes(entry.nameBytes, bytes.subarray(0, name.length))
    ) {
      return { topic: name, mistake: "assignment-char-length-names" };
    }
  }
  return { topic };
}

/** An entry as a comparable string; the entries of a value as sorted keys (order is free). */
const entryKeys = (topics: readonly { topic: string; partitions: readonly number[] }[]) =>
  topics.map((e) => JSON.stringify([e.topic, e.partitions])).sort();

const sameKeys = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((k, i) => k === b[i]);

/**
 * The value mistakes that make `read` differ from Kafka's value, or undefined when something else
 * differs (another assignment, other bytes).
 */
function valueMistakes(read: Read, kafka: DecodedAssignment): string[] | undefined {
  const mistakes = new Set<string>();
  if (read.version !== undefined && read.version !== kafka.version) {
    mistakes.add("assignment-wrong-version");
  }
  const names = kafka.topics.map((e) => e.topic);
  const ours = read.topics.map((entry) => {
    const { topic, mistake } = entryTopic(entry, names);
    if (mistake !== undefined) mistakes.add(mistake);
    return { topic, partitions: entry.partitions };
  });
  if (!sameKeys(entryKeys(ours), entryKeys(kafka.topics))) {
    const sorted = (topics: readonly { topic: string; partitions: readonly number[] }[]) =>
      entryKeys(topics.map((e) => ({ topic: e.topic, partitions: [...e.partitions].sort() })));
    if (!sameKeys(sorted(ours), sorted(kafka.topics))) return undefined;
    mistakes.add("assignment-partitions-reordered");
  }
  if (read.userData !== undefined) {
    const a = read.userData;
    const b = kafka.userData;
    if (a === null && b !== null && b.length === 0)
      mistakes.add("assignment-empty-user-data-as-null");
    else if (a !== null && a.length === 0 && b === null)
      mistakes.add("assignment-null-user-data-as-empty");
    else if (a !== null && b !== null && !sameBytes(a, b)) {
      if (!fromTheBuffer(a, b)) return undefined;
      mistakes.add("assignment-user-data-whole-buffer");
    } else if ((a === null) !== (b === null)) return undefined;
  }
  return [...mistakes];
}

/**
 * One way the mistakes `ids` explain a member's bytes, and how many changes that reading takes
 * (its layout's, and one per value mistake).
 */
interface Explanation {
  ids: string[];
  changes: number;
}

/** Every set of mistakes that explains one member's bytes, each with its simplest reading. */
function explanations(wrote: Uint8Array, kafka: DecodedAssignment): Explanation[] {
  if (wrote.length === 0) {
    return kafka.topics.length === 0
      ? [{ ids: ["assignment-idle-member-no-bytes"], changes: 1 }]
      : [];
  }
  const found = new Map<string, Explanation>();
  for (const layout of LAYOUTS) {
    const read = readAs(wrote, layout);
    if (read === undefined) continue;
    const values = valueMistakes(read, kafka);
    if (values === undefined) continue;
    const ids = [...new Set([...layout.mistakes, ...values])].sort();
    const changes = layout.changes + values.length;
    const key = ids.join(" ");
    if ((found.get(key)?.changes ?? Infinity) > changes) found.set(key, { ids, changes });
  }
  return [...found.values()];
}

/** The most mistakes looked for together. */
const MAX_TOGETHER = 3;

/**
 * The most bytes of answer read this way (hex characters / 2, all members): beyond it (a large
 * private case) nothing is named from the bytes, and the mutants' outcomes alone may name.
 */
const MAX_READ_BYTES = 32 * 1024;

/**
 * The encoder mistakes a sync answer's bytes show (see the module's comment): the one smallest
 * set of mistakes that explains every member whose bytes differ from Kafka's, sorted; [] when no
 * set does, when two sets of that size do, or when members are missing or extra.
 *
 * @param actual the program's answer: member id to hex
 * @param expected Kafka's answer: member id to hex
 * @returns mistake ids (the caller orders them as the catalogue does); all of them together
 */
export function syncMistakes(
  actual: Readonly<Record<string, string>>,
  expected: Readonly<Record<string, string>>,
): string[] {
  const members = Object.keys(expected);
  if (
    Object.keys(actual).length !== members.length ||
    !members.every((m) => Object.hasOwn(actual, m))
  ) {
    return [];
  }
  let total = 0;
  for (const member of members) total += (actual[member]?.length ?? 0) / 2;
  if (total > MAX_READ_BYTES) return [];
  const perMember: Explanation[][] = [];
  for (const member of members) {
    const wrote = hexBytes(actual[member] ?? "");
    const kafkaBytes = hexBytes(expected[member] ?? "");
    if (wrote === undefined || kafkaBytes === undefined) return [];
    const kafka = readAssignment(kafkaBytes);
    if (!kafka.ok) return [];
    const found = explanations(wrote, kafka.value);
    if (found.some((e) => e.ids.length === 0)) continue; // Kafka's value, up to entry order
    if (found.length === 0) return [];
    perMember.push(found);
  }
  if (perMember.length === 0) return [];
  const ids = [...new Set(perMember.flatMap((found) => found.flatMap((e) => e.ids)))].sort();
  // The smallest sets of ids within which every member has an explanation; of several, the one
  // whose readings take the fewest changes in all.
  for (let size = 1; size <= MAX_TOGETHER; size++) {
    const fits = subsets(ids, size).flatMap((set) => {
      let changes = 0;
      for (const found of perMember) {
        const within = found.filter((e) => e.ids.every((id) => set.includes(id)));
        if (within.length === 0) return [];
        changes += Math.min(...within.map((e) => e.changes));
      }
      return [{ set, changes }];
    });
    if (fits.length === 0) continue;
    const fewest = Math.min(...fits.map((f) => f.changes));
    const simplest = fits.filter((f) => f.changes === fewest);
    return simplest.length === 1 ? (simplest[0]?.set ?? []) : [];
  }
  return [];
}

/**
 * Whether the names on a sync case are the mistakes the program's bytes show (syncMistakes): each
 * of them is there (several are there together, not one of them), whatever other cases show.
 *
 * @param ids the names on the case
 */
export function shownByBytes(
  actual: Readonly<Record<string, string>>,
  expected: Readonly<Record<string, string>>,
  ids: readonly string[],
): boolean {
  if (ids.length === 0) return false;
  const shown = syncMistakes(actual, expected);
  return shown.length === ids.length && ids.every((id) => shown.includes(id));
}

/** Every subset of `ids` of `size` ids, in order. */
function subsets(ids: readonly string[], size: number): string[][] {
  if (size === 0) return [[]];
  const out: string[][] = [];
  ids.forEach((id, i) => {
    for (const rest of subsets(ids.slice(i + 1), size - 1)) out.push([id, ...rest]);
  });
  return out;
}
