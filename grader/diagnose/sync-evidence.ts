/**
 * Naming an encoder's mistake from the bytes it wrote (the sync stage). Each member's value is read
 * again the way each catalogued encoder mistake writes it (little-endian, no version, a field of
 * another width, lengths in UTF-16 units, the compact encoding, no user data), and the value it
 * gives is compared with Kafka's field by field (the version, null against empty user data, user
 * data with the bytes around its view, the partitions' order). A mistake is shown when the
 * fewest mistakes that explain every member whose bytes differ from Kafka's are one set, and only
 * one: the bytes themselves are the evidence. A member no reading explains (its partitions are
 * not Kafka's: the assignor's mistake, not the encoder's) shows nothing here.
 *
 * The layout read is Kafka 3.8's ConsumerProtocolAssignment (versions 0-3 share it); the
 * compact encoding is that of Kafka's flexible versions (unsigned varint length + 1, tagged
 * fields).
 */
import {
  hexBytes,
  javaUtf8,
  readAssignment,
  type DecodedAssignment,
} from "../verdict/assignment-bytes.ts";

/** How a length or count is written: an int16, an int32, or a compact unsigned varint (N + 1). */
type Width = 2 | 4 | "varint";

/** One way of writing the value (a reading of the bytes). */
interface Layout {
  /** The mistake that writes this way; undefined for Kafka's own layout. */
  mistake?: string;
  /** Bytes of the version (0: none). */
  version: 0 | 2 | 4;
  topicCount: Width;
  nameLength: Width;
  /** Whether a name's length counts UTF-16 units (of the UTF-8 bytes after it). */
  nameInUnits?: boolean;
  partitionCount: Width;
  partition: 2 | 4;
  /** How the user-data length is written; null: there is no user data field. */
  userDataLength: Width | null;
  /** Which integer widths are little-endian. */
  littleEndian?: { int16: boolean; int32: boolean };
  /** Whether each topic entry and the value end with an empty tagged-field section (a 0 byte). */
  tagged?: boolean;
}

const KAFKA: Layout = {
  version: 2,
  topicCount: 4,
  nameLength: 2,
  partitionCount: 4,
  partition: 4,
  userDataLength: 4,
};

/** Kafka's layout, then each structural mistake's ways of writing it. */
const LAYOUTS: readonly Layout[] = [
  KAFKA,
  ...[
    { int16: true, int32: true },
    { int16: false, int32: true },
    { int16: true, int32: false },
  ].map((littleEndian) => ({ ...KAFKA, mistake: "assignment-little-endian", littleEndian })),
  { ...KAFKA, mistake: "assignment-char-length-names", nameInUnits: true },
  { ...KAFKA, mistake: "assignment-user-data-missing", userDataLength: null },
  { ...KAFKA, mistake: "assignment-no-version", version: 0 },
  ...[true, false].map((tagged): Layout => ({
    mistake: "assignment-compact-encoding",
    version: 2,
    topicCount: "varint",
    nameLength: "varint",
    partitionCount: "varint",
    partition: 4,
    userDataLength: "varint",
    tagged,
  })),
  ...(
    [
      { version: 4 },
      { topicCount: 2 },
      { nameLength: 4 },
      { partitionCount: 2 },
      { partition: 2 },
      { userDataLength: 2 },
    ] as const
  ).map((width): Layout => ({ ...KAFKA, ...width, mistake: "assignment-field-width-wrong" })),
];

/** A value as a layout reads it: undefined fields were not in the bytes. */
interface Read {
  version: number | undefined;
  topics: { topic: string; partitions: number[] }[];
  /** undefined: no user data field. */
  userData: Uint8Array | null | undefined;
}

/** Reads `bytes` in `layout`, or undefined when they do not fit it exactly (to the last byte). */
function readAs(bytes: Uint8Array, layout: Layout): Read | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  const left = () => bytes.length - at;
  const int = (width: 2 | 4): number | undefined => {
    if (left() < width) return undefined;
    const little = width === 2 ? layout.littleEndian?.int16 : layout.littleEndian?.int32;
    const value = width === 2 ? view.getInt16(at, little) : view.getInt32(at, little);
    at += width;
    return value;
  };
  // A compact length: an unsigned varint of length + 1 (0: null), at most five bytes.
  const length = (width: Width): number | undefined => {
    if (width !== "varint") return int(width);
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
  const tags = () => !layout.tagged || bytes[at++] === 0;

  const version = layout.version === 0 ? undefined : int(layout.version);
  if (layout.version !== 0 && version === undefined) return undefined;
  const count = length(layout.topicCount);
  // Each entry takes at least 4 bytes: a count beyond that is not this layout.
  if (count === undefined || count < 0 || count > left() / 4) return undefined;
  const topics: Read["topics"] = [];
  for (let t = 0; t < count; t++) {
    const nameLength = length(layout.nameLength);
    if (nameLength === undefined || nameLength < 0 || nameLength > left()) return undefined;
    let name: string;
    if (layout.nameInUnits === true) {
      // UTF-8 characters until `nameLength` UTF-16 units are read.
      const start = at;
      let units = 0;
      while (units < nameLength) {
        const lead = bytes[at];
        if (lead === undefined) return undefined;
        const size = lead < 0x80 ? 1 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
        at += size;
        units += size === 4 ? 2 : 1;
      }
      if (at > bytes.length) return undefined;
      name = javaUtf8(bytes.subarray(start, at));
    } else {
      name = javaUtf8(bytes.subarray(at, at + nameLength));
      at += nameLength;
    }
    const partitionCount = length(layout.partitionCount);
    if (partitionCount === undefined || partitionCount < 0) return undefined;
    if (partitionCount > left() / layout.partition) return undefined;
    const partitions: number[] = [];
    for (let p = 0; p < partitionCount; p++) partitions.push(int(layout.partition) as number);
    if (!tags()) return undefined;
    topics.push({ topic: name, partitions });
  }
  let userData: Read["userData"];
  if (layout.userDataLength !== null) {
    const n = length(layout.userDataLength);
    if (n === undefined || n > left()) return undefined;
    userData = n < 0 ? null : bytes.slice(at, at + n);
    at += Math.max(0, n);
  }
  if (!tags()) return undefined;
  return at === bytes.length ? { version, topics, userData } : undefined;
}

/** An entry as a comparable string. */
const entryKey = (e: { topic: string; partitions: readonly number[] }) =>
  JSON.stringify([e.topic, e.partitions]);

/** The entries as a sorted list of keys (the order of entries is not part of the protocol). */
const entryKeys = (topics: readonly { topic: string; partitions: readonly number[] }[]) =>
  topics.map(entryKey).sort();

const sameKeys = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((k, i) => k === b[i]);

/**
 * The bytes main.ts puts around a view it hands a function (main.ts hexToBytes): 8 bytes of 0xAA
 * on each side, in the same ArrayBuffer.
 */
const PAD = 0xaa;
const PAD_BYTES = 8;

/** Whether `wrote` is the whole buffer main.ts made around `view`: the view with its padding. */
function wholeBuffer(wrote: Uint8Array, view: Uint8Array): boolean {
  if (wrote.length !== view.length + 2 * PAD_BYTES) return false;
  return wrote.every((byte, i) =>
    i < PAD_BYTES || i >= PAD_BYTES + view.length ? byte === PAD : byte === view[i - PAD_BYTES],
  );
}

/**
 * The value mistakes that make `read` differ from Kafka's value, or undefined when something else
 * differs (another assignment, other bytes).
 */
function valueMistakes(read: Read, kafka: DecodedAssignment): string[] | undefined {
  const mistakes: string[] = [];
  if (read.version !== undefined && read.version !== kafka.version) {
    mistakes.push("assignment-wrong-version");
  }
  const ours = entryKeys(read.topics);
  const theirs = entryKeys(kafka.topics);
  if (!sameKeys(ours, theirs)) {
    const sorted = (topics: Read["topics"]) =>
      entryKeys(topics.map((e) => ({ topic: e.topic, partitions: [...e.partitions].sort() })));
    if (!sameKeys(sorted(read.topics), sorted(kafka.topics))) return undefined;
    mistakes.push("assignment-partitions-reordered");
  }
  if (read.userData !== undefined) {
    const a = read.userData;
    const b = kafka.userData;
    if (a === null && b !== null && b.length === 0)
      mistakes.push("assignment-empty-user-data-as-null");
    else if (a !== null && a.length === 0 && b === null)
      mistakes.push("assignment-null-user-data-as-empty");
    else if (
      a !== null &&
      b !== null &&
      !(a.length === b.length && a.every((x, i) => x === b[i]))
    ) {
      if (!wholeBuffer(a, b)) return undefined;
      mistakes.push("assignment-user-data-whole-buffer");
    } else if ((a === null) !== (b === null)) return undefined;
  }
  return mistakes;
}

/** Every set of mistakes that explains one member's bytes (each as a sorted list of ids). */
function explanations(wrote: Uint8Array, kafka: DecodedAssignment): string[][] {
  if (wrote.length === 0) {
    return kafka.topics.length === 0 ? [["assignment-idle-member-no-bytes"]] : [];
  }
  const found: string[][] = [];
  for (const layout of LAYOUTS) {
    const read = readAs(wrote, layout);
    if (read === undefined) continue;
    const values = valueMistakes(read, kafka);
    if (values === undefined) continue;
    found.push(
      [...new Set([...(layout.mistake === undefined ? [] : [layout.mistake]), ...values])].sort(),
    );
  }
  return found;
}

/** The most mistakes one member's bytes are explained by together. */
const MAX_TOGETHER = 3;

/**
 * The encoder mistakes a sync answer's bytes show (see the module's comment): the one smallest
 * set of mistakes that explains every member whose bytes differ from Kafka's, in no order; [] when
 * no set does, when two sets of that size do, or when members are missing or extra.
 *
 * @param actual the program's answer: member id to hex
 * @param expected Kafka's answer: member id to hex
 * @returns mistake ids (the caller orders them as the catalogue does)
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
  const perMember: string[][][] = [];
  for (const member of members) {
    const wrote = hexBytes(actual[member] ?? "");
    const kafkaBytes = hexBytes(expected[member] ?? "");
    if (wrote === undefined || kafkaBytes === undefined) return [];
    const kafka = readAssignment(kafkaBytes);
    if (!kafka.ok) return [];
    const mine = readAssignment(wrote);
    if (
      mine.ok &&
      mine.value.remaining === 0 &&
      valueMistakes(mine.value, kafka.value)?.length === 0
    )
      continue; // this member's bytes are Kafka's (up to the order of entries)
    const found = explanations(wrote, kafka.value);
    if (found.length === 0) return [];
    perMember.push(found);
  }
  if (perMember.length === 0) return [];
  const ids = [...new Set(perMember.flat(2))].sort();
  // The smallest sets of ids within which every member has an explanation.
  for (let size = 1; size <= MAX_TOGETHER; size++) {
    const fits = subsets(ids, size).filter((set) =>
      perMember.every((found) => found.some((e) => e.every((id) => set.includes(id)))),
    );
    if (fits.length === 1) return fits[0] ?? [];
    if (fits.length > 1) return [];
  }
  return [];
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
