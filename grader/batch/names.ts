/**
 * A batch folder's name as the grader keeps it, shows it and files it. A folder name is bytes;
 * Node's string readdir decodes them as UTF-8 and turns bytes that are not UTF-8 into U+FFFD,
 * so two folders can come back as one name, or as a name that does not open. The batch reads
 * names as bytes and keeps them exactly:
 *
 * - as a string (`decodeName`), the bytes decoded as UTF-8, each byte that is not part of a valid
 *   UTF-8 sequence kept as the lone surrogate U+DC80..U+DCFF (Python's "surrogateescape", PEP
 *   383), which valid UTF-8 never decodes to: a different name is a different string, and
 *   `nameBytes` gives the exact bytes back. The results JSON stores it (JSON writes a lone
 *   surrogate as `\udcXX`);
 * - to a reader (`shownName`), each such byte as `\xNN` (as bash's `$'...'` writes it);
 * - as a results file (`resultsFileName`), an encoding of the bytes that is injective and safe on
 *   every file system (see there).
 */
import { createHash } from "node:crypto";

/** The length of the valid UTF-8 sequence that starts at `bytes[i]`, or 0 when there is none. */
function sequenceLength(bytes: Uint8Array, i: number): number {
  const b0 = bytes[i] as number;
  if (b0 < 0x80) return 1;
  // RFC 3629's table: no overlong forms, no surrogates (ED A0..BF), nothing above U+10FFFF.
  let length: number;
  let low = 0x80;
  let high = 0xbf;
  if (b0 >= 0xc2 && b0 <= 0xdf) length = 2;
  else if (b0 >= 0xe0 && b0 <= 0xef) {
    length = 3;
    if (b0 === 0xe0) low = 0xa0;
    if (b0 === 0xed) high = 0x9f;
  } else if (b0 >= 0xf0 && b0 <= 0xf4) {
    length = 4;
    if (b0 === 0xf0) low = 0x90;
    if (b0 === 0xf4) high = 0x8f;
  } else return 0;
  if (i + length > bytes.length) return 0;
  const b1 = bytes[i + 1] as number;
  if (b1 < low || b1 > high) return 0;
  for (let k = 2; k < length; k++) if (((bytes[i + k] as number) & 0xc0) !== 0x80) return 0;
  return length;
}

/**
 * A name's bytes as a string: valid UTF-8 decoded; every other byte (0x80..0xFF) as the lone
 * surrogate U+DC00 + byte (surrogateescape, PEP 383). Injective, and `nameBytes` inverts it.
 *
 * @param bytes a folder name as the file system holds it (readdir with encoding "buffer")
 */
export function decodeName(bytes: Uint8Array): string {
  let out = "";
  let i = 0;
  while (i < bytes.length) {
    const length = sequenceLength(bytes, i);
    if (length === 0) {
      out += String.fromCharCode(0xdc00 + (bytes[i] as number));
      i++;
    } else {
      out += Buffer.from(bytes.buffer, bytes.byteOffset + i, length).toString("utf8");
      i += length;
    }
  }
  return out;
}

/** true for the code unit at `i` when it is a lone surrogate U+DC80..U+DCFF (an escaped byte). */
function escapedByteAt(name: string, i: number): boolean {
  const c = name.charCodeAt(i);
  if (c < 0xdc80 || c > 0xdcff) return false;
  const before = i > 0 ? name.charCodeAt(i - 1) : 0;
  return !(before >= 0xd800 && before <= 0xdbff);
}

/**
 * The bytes `decodeName` read `name` from: each escaped byte (a lone U+DC80..U+DCFF) as that
 * byte, the rest as UTF-8. For a string `decodeName` did not make (another lone surrogate), the
 * result is not its inverse: `isFolderName` says which strings are.
 */
export function nameBytes(name: string): Buffer {
  const parts: Buffer[] = [];
  let run = 0;
  for (let i = 0; i < name.length; i++) {
    if (!escapedByteAt(name, i)) continue;
    parts.push(Buffer.from(name.slice(run, i), "utf8"), Buffer.of(name.charCodeAt(i) - 0xdc00));
    run = i + 1;
  }
  parts.push(Buffer.from(name.slice(run), "utf8"));
  return Buffer.concat(parts);
}

/** true when the name has bytes that are not UTF-8 (escaped by decodeName). */
export function hasUndecodableBytes(name: string): boolean {
  for (let i = 0; i < name.length; i++) if (escapedByteAt(name, i)) return true;
  return false;
}

/**
 * true when `name` is what decodeName gives for some bytes, so that resultsFileName is injective
 * on it: a non-empty string whose lone surrogates are all escaped bytes and that decodes back to
 * itself (`/` and NUL, which no folder name holds, are bytes like any other here).
 */
export function isFolderName(name: string): boolean {
  return name !== "" && decodeName(nameBytes(name)) === name;
}

/**
 * A name for a reader: each byte that is not UTF-8 as `\xNN` (lower-case hex, as bash's `$'...'`
 * reads it), the rest as it is. Control and bidi characters are left to the writer's escaping
 * (report/escape.ts), as for every name.
 */
export function shownName(name: string): string {
  let out = "";
  for (let i = 0; i < name.length; i++) {
    out += escapedByteAt(name, i)
      ? `\\x${(name.charCodeAt(i) - 0xdc00).toString(16).padStart(2, "0")}`
      : name[i];
  }
  return out;
}

/**
 * What two names that a reader (or a case-insensitive, normalising file system) could take for
 * one have in common: as shown, in Unicode NFC, case-folded (upper then lower, so "ß" and "SS"
 * meet).
 */
export function lookAlikeKey(name: string): string {
  return shownName(name).normalize("NFC").toUpperCase().toLowerCase();
}

/** Stems longer than this are shortened and hashed. */
export const STEM_MAX = 120;
/** Characters of the encoding kept in front of the hash of a long name. */
export const HASHED_PREFIX = 40;
/** Windows' device names, which no file may be called, whatever its extension. */
const DEVICE = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/;

/**
 * A name's results file in a report folder, `results/<stem>.json`, the same in every shard, the
 * stem made from the name's exact bytes (nameBytes):
 *
 * 1. Each byte that is a lower-case ASCII letter, a digit, `_` or `-`, or a `.` after the first
 *    byte, stays as it is; every other byte becomes `%` and two lower-case hex digits (`Bob` is
 *    `%42ob`, `José` is `%4aos%c3%a9`, a folder whose bytes are `J o s 0xE9` is `%4aos%e9`).
 * 2. When the part before the first `.` is a Windows device name (`con`, `nul`, `com1`, ...), its
 *    first byte is escaped too (`con` is `%63on`).
 * 3. When that is empty or longer than STEM_MAX characters: its first HASHED_PREFIX characters
 *    (no `%` escape cut in two), `%%`, and the SHA-256 of the bytes in 64 lower-case hex digits.
 *
 * Injective: a stem of step 1-2 decodes to the bytes (`%NN` is the byte, any other character its
 * own byte), and holds no `%%`, since every `%` there starts an escape; a stem of step 3 holds
 * `%%`, and a different hash. Every character is in `[a-z0-9._%-]`: no case, no normalisation and
 * no character that any common file system treats specially, so stems that differ stay different
 * on case-insensitive and normalising file systems too.
 */
export function resultsFileName(name: string): string {
  return `results/${resultsFileStem(name)}.json`;
}

/** The `<stem>` of resultsFileName. */
function resultsFileStem(name: string): string {
  const bytes = nameBytes(name);
  let stem = "";
  bytes.forEach((b, i) => {
    const plain =
      (b >= 0x61 && b <= 0x7a) ||
      (b >= 0x30 && b <= 0x39) ||
      b === 0x5f ||
      b === 0x2d ||
      (b === 0x2e && i > 0);
    stem += plain ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, "0")}`;
  });
  if (DEVICE.test(stem.split(".")[0] ?? "")) {
    stem = `%${(bytes[0] as number).toString(16)}${stem.slice(1)}`;
  }
  if (stem !== "" && stem.length <= STEM_MAX) return stem;
  let prefix = stem.slice(0, HASHED_PREFIX);
  const cut = prefix.lastIndexOf("%");
  if (cut >= 0 && cut > prefix.length - 3) prefix = prefix.slice(0, cut);
  return `${prefix}%%${createHash("sha256").update(bytes).digest("hex")}`;
}
