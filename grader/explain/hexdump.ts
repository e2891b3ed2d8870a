/**
 * A decode failure drawn as a hex dump of one member's bytes, one field per line (offset, bytes,
 * field, value), with a caret under the first byte where the reading goes wrong. The field
 * boundaries come from the diagnosis data (recorded by the instructor kit), never from reference
 * code shipped with the grader.
 */
import type { DecodeOutput, Expected, Mode } from "../cases/load.ts";
import type { FieldSpan, MemberBytes } from "../diagnose/data.ts";

/** Bytes shown per field line before the rest is summarised. */
const BYTES_PER_LINE = 16;

export interface Caret {
  offset: number;
  label: string;
}

const hexOf = (bytes: Uint8Array, start: number, end: number) =>
  [...bytes.subarray(start, Math.min(end, start + BYTES_PER_LINE))]
    .map((b) => b.toString(16).padStart(2, "0"))
    .join(" ") + (end - start > BYTES_PER_LINE ? ` …+${end - start - BYTES_PER_LINE}` : "");

/**
 * The dump's lines.
 *
 * @param bytes the member's subscription bytes
 * @param layout the recorded fields of those bytes
 * @param caret where to point, and what to say there
 */
export function hexDump(bytes: Uint8Array, layout: MemberBytes, caret: Caret): string[] {
  const spans: FieldSpan[] = [...layout.spans];
  const covered = spans.at(-1)?.end ?? 0;
  if (covered < bytes.length) {
    spans.push({
      field: "(not read)",
      start: covered,
      end: bytes.length,
      value: layout.error ? "after the field Kafka stops at" : "",
    });
  }
  // Loops, not Math.max(...spans): a spread of a long array overflows the stack.
  let widest = 2;
  let fieldWidth = 5;
  for (const s of spans) {
    widest = Math.max(widest, s.end - s.start);
    fieldWidth = Math.max(fieldWidth, s.field.length);
  }
  const hexWidth = Math.min(BYTES_PER_LINE, widest) * 3 + 4;
  const lines: string[] = [];
  let caretDrawn = false;
  for (const s of spans) {
    const hex = hexOf(bytes, s.start, s.end);
    lines.push(
      `${String(s.start).padStart(5)}  ${hex.padEnd(hexWidth)}${s.field.padEnd(fieldWidth)}  ${s.value}`.trimEnd(),
    );
    const inside =
      caret.offset >= s.start &&
      (caret.offset < s.end || (s.start === s.end && caret.offset === s.start));
    if (!caretDrawn && inside) {
      const column = Math.min(caret.offset - s.start, BYTES_PER_LINE - 1) * 3;
      lines.push(`${" ".repeat(7 + column)}^^ ${caret.label}`);
      caretDrawn = true;
    }
  }
  if (!caretDrawn)
    lines.push(
      `${" ".repeat(7)}^^ at offset ${caret.offset} (the end of the bytes): ${caret.label}`,
    );
  return lines;
}

/** Characters of a value the program read shown at least, however short the expected one. */
const MIN_SHOWN = 200;

/**
 * A value the program read, as JSON, cut to twice the expected value's JSON or MIN_SHOWN
 * characters, whichever is more: the program's output is not bounded by the case's bytes.
 */
function readValue(value: unknown, expected: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  const max = Math.max(MIN_SHOWN, 2 * (JSON.stringify(expected) ?? "").length);
  return text.length <= max
    ? text
    : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/**
 * The first field where a decoded subscription differs from the expected one, with a label
 * saying what was expected and what the program read (its values cut, see readValue).
 */
export function firstDifference(
  expected: DecodeOutput[string],
  actual: DecodeOutput[string] | undefined,
): { field: string; label: string } {
  if (actual === undefined)
    return { field: "version", label: "your program printed nothing for this member" };
  if (actual.version !== expected.version) {
    return {
      field: "version",
      label: `version: expected ${expected.version}, your program read ${actual.version}`,
    };
  }
  if (actual.topics.length !== expected.topics.length) {
    return {
      field: "topics count",
      label: `expected ${expected.topics.length} topics, your program read ${actual.topics.length}`,
    };
  }
  const i = expected.topics.findIndex((t, k) => actual.topics[k] !== t);
  if (i >= 0) {
    return {
      field: `topics[${i}]`,
      label: `topics[${i}]: expected ${JSON.stringify(expected.topics[i])}, your program read ${readValue(actual.topics[i], expected.topics[i])}`,
    };
  }
  // rackId counts only where the case lists it (the rack stage's decode cases).
  if (actual.userData === expected.userData && "rackId" in expected) {
    return {
      field: "rackId length",
      label: `rackId: expected ${JSON.stringify(expected.rackId)}, your program read ${readValue(actual.rackId, expected.rackId)}`,
    };
  }
  return {
    field: expected.userData === null || actual.userData === null ? "userData length" : "userData",
    label: `userData: expected ${JSON.stringify(expected.userData)}, your program read ${readValue(actual.userData, expected.userData)}`,
  };
}

/**
 * Which member to draw and where the caret goes, from the case and what the program did, or
 * undefined when there is nothing byte-level to show.
 */
export function decodeFocus(
  mode: Mode,
  expected: Expected,
  actual: {
    output?: DecodeOutput | undefined;
    /** The member the program said has bad bytes, if it said so. */
    rejected?: string | undefined;
    /** The offset it said it stopped at (`at offset N`), if it gave one. */
    offset?: number | undefined;
  },
  members: readonly string[],
  layouts: ReadonlyMap<string, MemberBytes>,
): { member: string; caret: Caret } | undefined {
  const offsetOf = (member: string, field: string) =>
    layouts.get(member)?.spans.find((s) => s.field === field)?.start;
  if ("error" in expected) {
    const bad = expected.error.member;
    const stop = layouts.get(bad)?.error;
    const rejectedEarlier =
      actual.rejected !== undefined &&
      members.indexOf(actual.rejected) < members.indexOf(bad) &&
      members.includes(actual.rejected);
    if (rejectedEarlier && actual.rejected !== undefined) {
      const at = actual.offset;
      return at === undefined
        ? undefined
        : {
            member: actual.rejected,
            caret: { offset: at, label: "your program stopped here, but these bytes are valid" },
          };
    }
    if (stop === undefined || stop === null) return undefined;
    return {
      member: bad,
      caret: { offset: stop.offset, label: `Kafka stops here: ${stop.message}` },
    };
  }
  if (actual.rejected !== undefined) {
    const at = actual.offset;
    return at === undefined
      ? undefined
      : {
          member: actual.rejected,
          caret: { offset: at, label: "your program stopped here, but these bytes are valid" },
        };
  }
  if (mode !== "decode" || actual.output === undefined) return undefined;
  const want = expected.output as DecodeOutput;
  for (const member of members) {
    const e = Object.hasOwn(want, member) ? want[member] : undefined;
    if (e === undefined) continue;
    const a = Object.hasOwn(actual.output, member) ? actual.output[member] : undefined;
    if (
      a !== undefined &&
      a.version === e.version &&
      a.userData === e.userData &&
      JSON.stringify(a.topics) === JSON.stringify(e.topics) &&
      (!("rackId" in e) || a.rackId === e.rackId)
    )
      continue;
    const difference = firstDifference(e, a);
    const offset = offsetOf(member, difference.field) ?? offsetOf(member, "version") ?? 0;
    return { member, caret: { offset, label: difference.label } };
  }
  return undefined;
}
