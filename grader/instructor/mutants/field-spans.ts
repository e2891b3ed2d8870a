/**
 * Field boundaries of subscription bytes, for the hex dumps the grader draws on a decode failure.
 * Instructor kit only (it reads bytes as the reference does): npm run generate records its
 * output in grader/diagnose/diagnosis.json, which the handout ships instead. A test checks that it
 * agrees with solution/src/subscription.ts on every fixture (values, error field and offset).
 */
import type { FieldSpan, MemberBytes } from "../../diagnose/data.ts";
import { decodeSubscription } from "../../../solution/src/subscription.ts";

/**
 * A string's bytes as the reference reads them (Java's rules for malformed UTF-8): the one topic
 * of a version-0 subscription made of them, so the reference's own decoder reads it.
 */
function nameAsReferenceReadsIt(name: Uint8Array): string {
  const bytes = new Uint8Array(12 + name.length);
  const view = new DataView(bytes.buffer);
  view.setInt32(2, 1); // version 0, one topic
  view.setInt16(6, name.length);
  bytes.set(name, 8);
  view.setInt32(8 + name.length, -1); // null user data
  return decodeSubscription(bytes).topics[0] ?? "";
}

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;

class Stop extends Error {
  constructor(
    readonly field: string,
    readonly offset: number,
    readonly what: string,
  ) {
    super(what);
  }
}

/**
 * Walks a subscription's bytes field by field (ConsumerProtocolSubscription versions 0-3, a newer
 * version read as 3), recording each field's [start, end) and a short rendering of its value.
 *
 * @returns the spans up to where reading stopped, and where and why it stopped, if it did
 */
export function fieldSpans(bytes: Uint8Array): MemberBytes {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const spans: FieldSpan[] = [];
  let at = 0;
  const span = (field: string, size: number, render: (start: number) => string): number => {
    if (size < 0 || at + size > bytes.length) {
      throw new Stop(field, at, `${field} needs ${size} bytes, ${bytes.length - at} remain`);
    }
    const start = at;
    at += size;
    spans.push({ field, start, end: at, value: render(start) });
    return start;
  };
  const int16 = (field: string) => view.getInt16(span(field, 2, (s) => String(view.getInt16(s))));
  const int32 = (field: string) => view.getInt32(span(field, 4, (s) => String(view.getInt32(s))));
  const text = (field: string, nullable: boolean): void => {
    const lengthAt = at;
    const length = view.getInt16(
      span(`${field} length`, 2, (s) =>
        view.getInt16(s) < 0 ? `${view.getInt16(s)}: null` : plural(view.getInt16(s), "byte"),
      ),
    );
    if (length < 0) {
      if (!nullable) throw new Stop(field, lengthAt, `${field} length ${length} (not nullable)`);
      return;
    }
    span(field, length, (s) =>
      JSON.stringify(nameAsReferenceReadsIt(bytes.subarray(s, s + length))),
    );
  };
  const count = (field: string, minItem: number): number => {
    const countAt = at;
    const n = view.getInt32(span(`${field} count`, 4, (s) => plural(view.getInt32(s), "element")));
    if (n < 0) throw new Stop(field, countAt, `${field} count ${n} (not nullable)`);
    if (n * minItem > bytes.length - at)
      throw new Stop(field, countAt, `${field} count ${n} exceeds the bytes`);
    return n;
  };

  try {
    const version = int16("version");
    if (version < 0) throw new Stop("version", 0, `version ${version}`);
    const topics = count("topics", 2);
    for (let i = 0; i < topics; i++) text(`topics[${i}]`, false);
    const userDataLength = view.getInt32(
      span("userData length", 4, (s) =>
        view.getInt32(s) < 0 ? `${view.getInt32(s)}: null` : plural(view.getInt32(s), "byte"),
      ),
    );
    if (userDataLength >= 0) {
      span("userData", userDataLength, (s) =>
        Buffer.from(bytes.subarray(s, s + userDataLength)).toString("hex"),
      );
    }
    if (version >= 1) {
      const owned = count("ownedPartitions", 6);
      for (let i = 0; i < owned; i++) {
        text(`ownedPartitions[${i}].topic`, false);
        const partitions = count(`ownedPartitions[${i}].partitions`, 4);
        for (let j = 0; j < partitions; j++) int32(`ownedPartitions[${i}].partitions[${j}]`);
      }
    }
    if (version >= 2) int32("generationId");
    if (version >= 3) text("rackId", true);
    if (at < bytes.length)
      span("(ignored)", bytes.length - at, () => "bytes after a complete subscription");
    return { spans, error: null };
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
    return { spans, error: { field: error.field, offset: error.offset, message: error.what } };
  }
}
