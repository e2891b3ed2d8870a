/**
 * Naming an encoder's mistakes from the bytes it wrote (the sync stage). Each member's value is
 * read again the way encoder mistakes write it (some fields little-endian, no version, a field of
 * another width, varints, no user data, and these together), and what that reading gives is
 * compared with Kafka's value field by field (the version, a name's length in UTF-16 units or code
 * points, null against empty user data, user data taken from the buffer under its view, the
 * partitions' order). The mistakes shown are the one smallest set that explains every member whose
 * bytes differ from Kafka's: the bytes themselves are the evidence, and several mistakes found
 * that way are there together, not one of them. A member no reading explains (its partitions are
 * not Kafka's: the assignor's mistake, not the encoder's) shows nothing here; a value with no
 * entries at all where Kafka's has some (`Object.entries` over the Map, or an assignor that gave
 * every member nothing) is still read for its version and user data.
 *
 * The layout read is Kafka 3.8's ConsumerProtocolAssignment (versions 0-3 share it); the compact
 * encoding is that of Kafka's flexible versions (unsigned varint length + 1, tagged fields); plain
 * and zigzag varints are other protocols' (Go's uvarint, Kafka's record format, protobuf).
 * Work: a fixed number of readings per member, each linear in the member's bytes.
 */
import {
  hexBytes,
  javaUtf8,
  readAssignment,
  type DecodedAssignment,
} from "../verdict/assignment-bytes.ts";

/** An integer's size in bytes. */
type Size = 1 | 2 | 4 | 8;

/**
 * How a length or count is written: an integer of that many bytes, a compact unsigned varint
 * (N + 1, 0 for null), a plain unsigned varint (N, as Go's binary.PutUvarint writes a length), or
 * a zigzag varint (N as a signed varint, as Kafka's record format and protobuf's sint32 write).
 */
type Width = Size | "varint" | "uvarint" | "zigzag";

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
  version: 0 | Size;
  topicCount: Width;
  nameLength: Width;
  partitionCount: Width;
  partition: Size;
  /** How the user-data length is written. */
  userDataLength: Width;
  /**
   * Which members' values have the user data field: every member's, none, or only where the user
   * data is not null (`if (userData)` around it), or not null and not empty (`if (userData?.length)`).
   */
  userDataWhen: "always" | "never" | "notNull" | "notEmpty";
  /**
   * Whether null user data's -1 is an int16 (a nullable string's null, where nullable bytes take an
   * int32), other user data's length as userDataLength says.
   */
  nullAsInt16: boolean;
  /**
   * What a name's length counts of the UTF-8 bytes after it (all of them): the bytes (Kafka), the
   * UTF-16 units (`topic.length`) or the code points (`[...topic].length`).
   */
  nameLengthCounts: "bytes" | "units" | "codePoints";
  /** The integer fields written little-endian. */
  littleEndian: ReadonlySet<IntegerField>;
  /** Whether each topic entry ends with an empty tagged-field section (a 0 byte). */
  entryTags: boolean;
  /** Whether the value ends with one. */
  valueTags: boolean;
  /**
   * Whether a value is cut short at its end by as many bytes as its names' UTF-8 exceeds their
   * UTF-16 units: its size added up with `topic.length` (then Buffer.concat(list, size) keeps
   * only that many bytes).
   */
  sizeInUnits: boolean;
  /**
   * A mistake no id names that the reading sees through, so that the named mistakes beside it
   * still show: the topic count written as the number of partitions over all topics (a list of
   * TopicPartition's size), each partition count as the list's size in bytes, or no entries at all
   * (`Object.entries` or `for...in` over the Map). Each is read where its count is there (the
   * total of the member's partitions, 4 bytes a partition, 0 entries); where that is also the
   * true count (one partition a topic, an empty list, an idle member) the reading is Kafka's.
   */
  unnamed: "none" | "totalPartitions" | "byteSize" | "noEntries";
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
  userDataWhen: "always",
  nullAsInt16: false,
  nameLengthCounts: "bytes",
  littleEndian: new Set(),
  entryTags: false,
  valueTags: false,
  sizeInUnits: false,
  unnamed: "none",
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
 * fields at the other width, or both (with no field swapped, or every one); the compact encoding,
 * with or without each kind of tagged-field section.
 */
const STRUCTURAL: readonly Layout[] = [
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
  // Varint counts and lengths without the + 1 (a varint writer of another protocol), user data
  // as Kafka writes it or as a zigzag varint too: the compact encoding's idea, not its rules.
  {
    ...KAFKA,
    mistakes: ["assignment-compact-encoding"],
    changes: 2,
    topicCount: "uvarint",
    nameLength: "uvarint",
    partitionCount: "uvarint",
  },
  ...([4, "zigzag"] as const).map((userDataLength): Layout => ({
    ...KAFKA,
    mistakes: ["assignment-compact-encoding"],
    changes: 2,
    topicCount: "zigzag",
    nameLength: "zigzag",
    partitionCount: "zigzag",
    userDataLength,
  })),
  // One field a byte or an int64, the rest as Kafka writes them. A count or length of one byte
  // is also a varint's shape (below 128 they are the same byte): it counts as many changes as the
  // varint readings, so that where both read the bytes neither is named.
  ...INTEGER_FIELDS.flatMap((field) =>
    ([1, 8] as const).map((size): Layout => ({
      ...KAFKA,
      [field]: size,
      mistakes: ["assignment-field-width-wrong"],
      changes: size === 1 && field !== "version" && field !== "partition" ? 2 : 1,
    })),
  ),
];

/**
 * Those, and with Kafka's layout or any way one change away from it (one helper little-endian or
 * of another width, the compact encoding): names' lengths in UTF-16 units or code points, the
 * value's size counted in UTF-16 units, or both; null user data's -1 as an int16; the mistakes
 * without an id (`unnamed`) beside Kafka's layout.
 */
const SINGLE: readonly Layout[] = [
  ...STRUCTURAL,
  ...STRUCTURAL.filter((layout) => layout.changes <= 1).flatMap((layout) =>
    (
      [
        { nameLengthCounts: "units", changes: 1 },
        { nameLengthCounts: "codePoints", changes: 1 },
        { sizeInUnits: true, changes: 1 },
        { nameLengthCounts: "units", sizeInUnits: true, changes: 2 },
      ] as const
    ).map(({ changes, ...inUnits }): Layout => ({
      ...layout,
      ...inUnits,
      mistakes: [...layout.mistakes, "assignment-char-length-names"],
      changes: layout.changes + changes,
    })),
  ),
  ...(["totalPartitions", "byteSize", "noEntries"] as const).map((unnamed): Layout => ({
    ...KAFKA,
    changes: 1,
    unnamed,
  })),
  { ...KAFKA, mistakes: ["assignment-field-width-wrong"], changes: 1, nullAsInt16: true },
];

/** The ways of leaving the user data field out: always, where it is null, where null or empty. */
const USER_DATA_LEFT_OUT = ["never", "notNull", "notEmpty"] as const;

/** Each of those also without a version, or without user data (USER_DATA_LEFT_OUT), or both. */
const LAYOUTS: readonly Layout[] = SINGLE.flatMap((layout) => {
  const noVersion: Layout = {
    ...layout,
    mistakes: [...layout.mistakes, "assignment-no-version"],
    changes: layout.changes + 1,
    version: 0,
  };
  return [layout, noVersion].flatMap((l): Layout[] => [
    l,
    ...USER_DATA_LEFT_OUT.map((userDataWhen): Layout => ({
      ...l,
      userDataWhen,
      mistakes: [...l.mistakes, "assignment-user-data-missing"],
      changes: l.changes + 1,
    })),
  ]);
});

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
  /**
   * undefined: no user data field; null: a negative length; else the length it gives and the
   * bytes after it to the end of the value (more or fewer than the length: user data taken from
   * the buffer under its view, which valueMistakes tells).
   */
  userData: { length: number; bytes: Uint8Array } | null | undefined;
  /** Zero bytes after everything the layout reads (a value allocated too large). */
  zeroTail: number;
  /** Whether the value has no entries where Kafka's has some (the layout's `noEntries`). */
  topicsLost: boolean;
  /** Whether the bytes after the user data's length are zero bytes (set by valueMistakes). */
  userDataZeroTail?: boolean;
}

/**
 * Reads `bytes` in `layout`, to the last byte but zero bytes after the value; undefined when they
 * do not fit it. `kafka`: Kafka's value for the member (whether a layout that leaves the user data
 * out where null or empty has the field; the counts a layout's `unnamed` mistake writes).
 */
function readAs(bytes: Uint8Array, layout: Layout, kafka: DecodedAssignment): Read | undefined {
  const kafkaUserData = kafka.userData;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  const left = () => bytes.length - at;
  const int = (width: Size, field: IntegerField): number | undefined => {
    if (left() < width) return undefined;
    const little = layout.littleEndian.has(field);
    const value =
      width === 1
        ? view.getInt8(at)
        : width === 2
          ? view.getInt16(at, little)
          : width === 4
            ? view.getInt32(at, little)
            : Number(view.getBigInt64(at, little));
    at += width;
    return Number.isSafeInteger(value) ? value : undefined;
  };
  // A varint length: compact (length + 1, 0: null), plain or zigzag; at most five bytes.
  const length = (width: Width, field: IntegerField): number | undefined => {
    if (typeof width === "number") return int(width, field);
    let value = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const byte = bytes[at];
      if (byte === undefined) return undefined;
      at++;
      value += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) !== 0) continue;
      if (width === "varint") return value - 1;
      return width === "zigzag" ? (value % 2 === 0 ? value / 2 : -(value + 1) / 2) : value;
    }
    return undefined;
  };
  const tags = (here: boolean) => !here || bytes[at++] === 0;

  let version: number | undefined;
  if (layout.version !== 0) {
    version = int(layout.version, "version");
    if (version === undefined) return undefined;
  }
  let count = length(layout.topicCount, "topicCount");
  let topicsLost = false;
  if (count !== undefined && kafka.topics.length > 0) {
    if (layout.unnamed === "noEntries") {
      if (count !== 0) return undefined;
      topicsLost = true;
    } else if (layout.unnamed === "totalPartitions") {
      const total = kafka.topics.reduce((sum, e) => sum + e.partitions.length, 0);
      if (count !== total) return undefined;
      count = kafka.topics.length;
    }
  }
  // Each entry takes at least 2 bytes: a count beyond that is not this layout.
  if (count === undefined || count < 0 || count > left() / 2) return undefined;
  const topics: ReadEntry[] = [];
  for (let t = 0; t < count; t++) {
    const nameLength = length(layout.nameLength, "nameLength");
    if (nameLength === undefined || nameLength < 0 || nameLength > left()) return undefined;
    const start = at;
    if (layout.nameLengthCounts !== "bytes") {
      // UTF-8 characters until `nameLength` are read: a 4-byte one is two UTF-16 units, and one
      // code point.
      const astral = layout.nameLengthCounts === "units" ? 2 : 1;
      for (let counted = 0; counted < nameLength;) {
        const lead = bytes[at];
        if (lead === undefined) return undefined;
        const size = lead < 0x80 ? 1 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
        at += size;
        counted += size === 4 ? astral : 1;
      }
      if (at > bytes.length) return undefined;
    } else at += nameLength;
    const nameBytes = bytes.subarray(start, at);
    let partitionCount = length(layout.partitionCount, "partitionCount");
    if (partitionCount === undefined || partitionCount < 0) return undefined;
    if (layout.unnamed === "byteSize") {
      if (partitionCount % layout.partition !== 0) return undefined;
      partitionCount /= layout.partition;
    }
    if (partitionCount > left() / layout.partition) return undefined;
    const partitions: number[] = [];
    for (let p = 0; p < partitionCount; p++) {
      partitions.push(int(layout.partition, "partition") as number);
    }
    if (!tags(layout.entryTags)) return undefined;
    topics.push({ nameBytes, partitions });
  }
  let userData: Read["userData"];
  const hasUserData =
    layout.userDataWhen === "always" ||
    (layout.userDataWhen !== "never" &&
      kafkaUserData !== null &&
      (layout.userDataWhen === "notNull" || kafkaUserData.length > 0));
  if (hasUserData) {
    const n =
      layout.nullAsInt16 && kafkaUserData === null
        ? int(2, "userDataLength")
        : length(layout.userDataLength, "userDataLength");
    if (n === undefined) return undefined;
    if (n < 0) userData = null;
    else if (layout.valueTags) {
      // The tagged fields follow the user data: its length must hold.
      if (n > left()) return undefined;
      userData = { length: n, bytes: bytes.subarray(at, at + n) };
      at += n;
    } else {
      userData = { length: n, bytes: bytes.subarray(at) };
      at = bytes.length;
    }
  }
  if (!tags(layout.valueTags)) return undefined;
  let zeroTail = 0;
  while (at < bytes.length && bytes[at] === 0) {
    at++;
    zeroTail++;
  }
  return at === bytes.length ? { version, topics, userData, zeroTail, topicsLost } : undefined;
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
 * A name's UTF-8 cut to `length` bytes, as a writer that made room for only that many writes it:
 * the first `length` bytes, or the whole characters that fit and zero bytes after them (Node's
 * Buffer.write writes no part of a character).
 */
function cutNames(name: string, length: number): Uint8Array[] {
  const bytes = utf8.encode(name);
  let whole = 0;
  for (const char of name) {
    const size = utf8.encode(char).length;
    if (whole + size > length) break;
    whole += size;
  }
  // Zero bytes alone are no evidence (a name of other characters may write zeros too).
  if (whole === 0) return [bytes.subarray(0, length)];
  const padded = new Uint8Array(length);
  padded.set(bytes.subarray(0, whole));
  return [bytes.subarray(0, length), padded];
}

/**
 * Kafka's names for one value, looked up by entryTopic: the names, and each name's cuts (cutNames,
 * for a name whose UTF-8 is longer than its UTF-16 units or code points) by their bytes as Latin-1
 * text, the first name in Kafka's order kept where two cut the same; and how many bytes the names'
 * UTF-8 exceeds their UTF-16 units (what a size counted in units leaves out).
 */
interface NameIndex {
  names: ReadonlySet<string>;
  cuts: ReadonlyMap<string, string>;
  unitsShort: number;
}

/** Each Kafka value's NameIndex, made once: every layout reads every entry against it. */
const nameIndexes = new WeakMap<DecodedAssignment, NameIndex>();

const latin1 = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");

function nameIndex(kafka: DecodedAssignment): NameIndex {
  let index = nameIndexes.get(kafka);
  if (index === undefined) {
    const names = kafka.topics.map((e) => e.topic);
    const cuts = new Map<string, string>();
    let unitsShort = 0;
    for (const name of names) {
      const size = utf8.encode(name).length;
      unitsShort += size - name.length;
      // Cut at its UTF-16 units (`topic.length`) or its code points (`[...topic].length`).
      for (const length of new Set([name.length, [...name].length])) {
        if (length === size) continue;
        for (const cut of cutNames(name, length)) {
          const key = latin1(cut);
          if (!cuts.has(key)) cuts.set(key, name);
        }
      }
    }
    index = { names: new Set(names), cuts, unitsShort };
    nameIndexes.set(kafka, index);
  }
  return index;
}

/**
 * An entry's topic as Kafka's value names it: the name its bytes spell, or, when they are a name's
 * UTF-8 cut to as many bytes as its UTF-16 units or code points (a length written as
 * `topic.length` or `[...topic].length`, the bytes cut there: cutNames), that name with the
 * mistake. Work: linear in the entry's name bytes, however many names Kafka's value has (a
 * hostile value may have thousands of entries).
 */
function entryTopic(entry: ReadEntry, index: NameIndex): { topic: string; mistake?: string } {
  const topic = javaUtf8(entry.nameBytes);
  if (index.names.has(topic)) return { topic };
  const cutOf = index.cuts.size === 0 ? undefined : index.cuts.get(latin1(entry.nameBytes));
  return cutOf === undefined
    ? { topic }
    : { topic: cutOf, mistake: "assignment-char-length-names" };
}

/** An entry as a comparable string; the entries of a value as sorted keys (order is free). */
const entryKeys = (topics: readonly { topic: string; partitions: readonly number[] }[]) =>
  topics.map((e) => JSON.stringify([e.topic, e.partitions])).sort();

const sameKeys = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((k, i) => k === b[i]);

/** The largest version an encoder is taken to have chosen (Kafka's are 0 to 3). */
const MAX_CHOSEN_VERSION = 127;

/**
 * The value mistakes that make `read` differ from Kafka's value, or undefined when something else
 * differs (another assignment, other bytes).
 */
function valueMistakes(read: Read, kafka: DecodedAssignment): string[] | undefined {
  const mistakes = new Set<string>();
  if (read.version !== undefined && read.version !== kafka.version) {
    // A version an encoder chooses is a small number: 768 is 3 read in the other byte order.
    if (read.version < 0 || read.version > MAX_CHOSEN_VERSION) return undefined;
    mistakes.add("assignment-wrong-version");
  }
  const names = nameIndex(kafka);
  const ours = read.topics.map((entry) => {
    const { topic, mistake } = entryTopic(entry, names);
    if (mistake !== undefined) mistakes.add(mistake);
    return { topic, partitions: entry.partitions };
  });
  if (!read.topicsLost && !sameKeys(entryKeys(ours), entryKeys(kafka.topics))) {
    const sorted = (topics: readonly { topic: string; partitions: readonly number[] }[]) =>
      entryKeys(topics.map((e) => ({ topic: e.topic, partitions: [...e.partitions].sort() })));
    if (!sameKeys(sorted(ours), sorted(kafka.topics))) return undefined;
    mistakes.add("assignment-partitions-reordered");
  }
  if (read.userData !== undefined) {
    const wrote = read.userData;
    const b = kafka.userData;
    // Zero bytes after the user data: a value allocated too large, as after any other field.
    const rest = wrote === null ? undefined : wrote.bytes.subarray(wrote.length);
    const zeroRest = rest !== undefined && rest.length > 0 && rest.every((byte) => byte === 0);
    read.userDataZeroTail = zeroRest;
    // Its length and bytes disagree: only user data from the buffer under the view does that.
    if (wrote !== null && wrote.length !== wrote.bytes.length && !zeroRest) {
      const fromBuffer =
        b !== null &&
        (fromTheBuffer(wrote.bytes, b) || sameBytes(wrote.bytes, b)) &&
        (wrote.length === b.length || wrote.length === b.length + 2 * PAD_BYTES);
      if (!fromBuffer) return undefined;
      mistakes.add("assignment-user-data-whole-buffer");
      return [...mistakes];
    }
    const a = wrote === null ? null : wrote.bytes.subarray(0, wrote.length);
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

/** The bytes of one member's value, and Kafka's value for it (decoded, and its bytes). */
interface MemberValue {
  wrote: Uint8Array;
  kafka: DecodedAssignment;
  kafkaBytes: Uint8Array;
}

/**
 * `wrote` as a layout with sizeInUnits reads it: a value with multi-byte names given back the
 * bytes its size left out (Kafka's last bytes), or `wrote` itself when its names have none; with
 * whether it was cut (never, in a layout without sizeInUnits).
 */
function uncut(
  layout: Layout,
  { wrote, kafka, kafkaBytes }: MemberValue,
): { bytes: Uint8Array; cut: boolean } {
  const short = layout.sizeInUnits ? nameIndex(kafka).unitsShort : 0;
  if (short === 0 || short > kafkaBytes.length) return { bytes: wrote, cut: false };
  const bytes = new Uint8Array(wrote.length + short);
  bytes.set(wrote);
  bytes.set(kafkaBytes.subarray(kafkaBytes.length - short), wrote.length);
  return { bytes, cut: true };
}

/**
 * The mistakes `layout` and the values read in it show for a case's members, and the changes that
 * takes: the layout's, one per value mistake (however many members show it), and one for zero
 * bytes after some value (a value allocated too large, which has no name of its own); undefined
 * when some member's bytes do not read in it, or read as another value than Kafka's (another
 * assignment). One layout for every member: one encoder wrote them all.
 */
function explainAll(
  layout: Layout,
  members: readonly MemberValue[],
): { ids: string[]; changes: number } | undefined {
  const values = new Set<string>();
  let zeroTail = false;
  let cutSome = false;
  for (const member of members) {
    const { wrote, kafka } = member;
    if (wrote.length === 0) {
      if (kafka.topics.length > 0) return undefined;
      values.add("assignment-idle-member-no-bytes");
      continue;
    }
    const { bytes, cut } = uncut(layout, member);
    const read = readAs(bytes, layout, kafka);
    if (read === undefined) return undefined;
    const shown = valueMistakes(read, kafka);
    if (shown === undefined) return undefined;
    for (const id of shown) values.add(id);
    // A value cut short is cut exactly: nothing after what its size left out.
    if (cut && (read.zeroTail > 0 || read.userDataZeroTail)) return undefined;
    cutSome ||= cut;
    if (read.zeroTail > 0 || read.userDataZeroTail) zeroTail = true;
  }
  // Values of the right size say nothing of a size counted in UTF-16 units.
  if (layout.sizeInUnits && !cutSome) return undefined;
  return {
    ids: [...new Set([...layout.mistakes, ...values])].sort(),
    changes: layout.changes + values.size + (zeroTail ? 1 : 0),
  };
}

/** The fewest bytes of answer, all members together, per mistake named from them. */
const MIN_BYTES_PER_NAME = 4;

/**
 * The most bytes of answer read this way (hex characters / 2, all members): beyond it (a large
 * private case) nothing is named from the bytes, and the mutants' outcomes alone may name. The
 * built-in and random cases' answers are a few hundred bytes; at this bound a hostile answer that
 * reads far in every way costs well under a second of the grader's time.
 */
const MAX_READ_BYTES = 8 * 1024;

/**
 * The encoder mistakes a sync answer's bytes show (see the module's comment): of the ways of
 * writing (LAYOUTS) in which every member's bytes read as Kafka's value up to value mistakes, the
 * one with the fewest mistakes, then the fewest changes; [] when none does, when two are as
 * simple, when it shows no mistake (the values differ by zero bytes at their ends alone), or when
 * members are missing or extra.
 *
 * @param actual the program's answer: member id to hex
 * @param expected Kafka's answer: member id to hex
 * @returns mistake ids, sorted (the caller orders them as the catalogue does); all of them together
 */
export function syncMistakes(
  actual: Readonly<Record<string, string>>,
  expected: Readonly<Record<string, string>>,
): string[] {
  return syncReading(actual, expected).ids;
}

/**
 * syncMistakes's ids, and the ways of writing (indexes into LAYOUTS) that show them: the program
 * wrote its values one of those ways.
 */
export function syncReading(
  actual: Readonly<Record<string, string>>,
  expected: Readonly<Record<string, string>>,
): { ids: string[]; layouts: number[] } {
  // The diagnosis, the confirming pass and the explanation each ask of one case's answer: read once.
  const known = readings.get(actual)?.get(expected);
  if (known !== undefined) return known;
  let reading: { ids: string[]; layouts: number[] };
  try {
    reading = readingOf(actual, expected);
  } catch {
    // Naming is advice: whatever a program's bytes do to it, the grading goes on without a name.
    reading = { ids: [], layouts: [] };
  }
  let byExpected = readings.get(actual);
  if (byExpected === undefined) readings.set(actual, (byExpected = new WeakMap()));
  byExpected.set(expected, reading);
  return reading;
}

/** Each answer's reading against each expected answer (both are never changed once made). */
const readings = new WeakMap<object, WeakMap<object, { ids: string[]; layouts: number[] }>>();

function readingOf(
  actual: Readonly<Record<string, string>>,
  expected: Readonly<Record<string, string>>,
): { ids: string[]; layouts: number[] } {
  const none = { ids: [], layouts: [] };
  const ids = Object.keys(expected);
  if (Object.keys(actual).length !== ids.length || !ids.every((m) => Object.hasOwn(actual, m))) {
    return none;
  }
  let total = 0;
  for (const id of ids) total += (actual[id]?.length ?? 0) / 2;
  if (total > MAX_READ_BYTES) return none;
  const members = memberValues(actual, expected);
  if (members === undefined) return none;
  const found = new Map<string, { ids: string[]; changes: number; layouts: number[] }>();
  LAYOUTS.forEach((layout, index) => {
    const explained = explainAll(layout, members);
    if (explained === undefined) return;
    const key = explained.ids.join(" ");
    const known = found.get(key);
    if (known === undefined) found.set(key, { ...explained, layouts: [index] });
    else {
      known.layouts.push(index);
      known.changes = Math.min(known.changes, explained.changes);
    }
  });
  const all = [...found.values()];
  if (all.length === 0) return none;
  const fewest = Math.min(...all.map((e) => e.ids.length));
  const smallest = all.filter((e) => e.ids.length === fewest);
  const simplest = Math.min(...smallest.map((e) => e.changes));
  const chosen = smallest.filter((e) => e.changes === simplest);
  const [one] = chosen;
  if (chosen.length !== 1 || one === undefined) return none;
  // Each name needs bytes to show it: a few bytes of anything read some way as several mistakes.
  if (one.ids.length * MIN_BYTES_PER_NAME > total) return none;
  return { ids: one.ids, layouts: one.layouts };
}

/** Each member's bytes (`actual`'s hex) beside Kafka's value for it; undefined for bad hex. */
function memberValues(
  actual: Readonly<Record<string, string>>,
  expected: Readonly<Record<string, string>>,
): MemberValue[] | undefined {
  const members: MemberValue[] = [];
  for (const id of Object.keys(expected)) {
    const wrote = hexBytes(actual[id] ?? "");
    const kafkaBytes = hexBytes(expected[id] ?? "");
    if (wrote === undefined || kafkaBytes === undefined) return undefined;
    const kafka = readAssignment(kafkaBytes);
    if (!kafka.ok) return undefined;
    members.push({ wrote, kafka: kafka.value, kafkaBytes });
  }
  return members;
}

/**
 * Whether a program that writes one of the ways `layouts` (syncReading's) would have written
 * Kafka's bytes for every member of an answer (a case it passed): then the way its mistakes show
 * elsewhere is hidden here (a field swapped whose values read the same either way, -1 or 0), and
 * the pass says nothing against them. False when every one of those ways would have shown.
 *
 * @param kafka Kafka's answer on the passed case: member id to hex
 */
export function hiddenOn(
  layouts: readonly number[],
  kafka: Readonly<Record<string, string>>,
): boolean {
  const members = memberValues(kafka, kafka);
  if (members === undefined) return true;
  return layouts.some((index) => {
    const layout = LAYOUTS[index];
    if (layout === undefined) return false;
    return members.every(({ wrote, kafka: value }) => {
      // Such a writer cuts every value with multi-byte names short.
      if (layout.sizeInUnits && nameIndex(value).unitsShort > 0) return false;
      const read = readAs(wrote, layout, value);
      return read !== undefined && read.zeroTail === 0 && valueMistakes(read, value)?.length === 0;
    });
  });
}

/**
 * The ways of writing (syncReading's layouts) that show exactly the names `ids` on a sync case,
 * when those names are the mistakes the program's bytes show: each of them is there (several are
 * there together, not one of them). Undefined when they are not.
 *
 * @param ids the names on the case
 */
export function shownByBytes(
  actual: Readonly<Record<string, string>>,
  expected: Readonly<Record<string, string>>,
  ids: readonly string[],
): number[] | undefined {
  if (ids.length === 0) return undefined;
  const shown = syncReading(actual, expected);
  return shown.ids.length === ids.length && ids.every((id) => shown.ids.includes(id))
    ? shown.layouts
    : undefined;
}
