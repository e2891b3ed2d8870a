// A batch folder's name kept as its exact bytes, shown with `\xNN` for bytes that are not UTF-8,
// and filed under a results file that no other name shares, even on a case-insensitive file
// system (grader/batch/names.ts). Expected values are worked by hand: bytes from the UTF-8 table
// of RFC 3629, `%` escapes from ASCII, hashes from `sha256sum` (coreutils).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  decodeName,
  isFolderName,
  lookAlikeKey,
  nameBytes,
  resultsFileName,
  shownName,
} from "../../grader/batch/names.ts";

const bytes = (...b: number[]) => Uint8Array.from(b);

describe("decodeName and nameBytes: a name's exact bytes as a string and back", () => {
  it.each([
    ["UTF-8 é", [0x4a, 0x6f, 0x73, 0xc3, 0xa9], "José"],
    ["Latin-1 é (not UTF-8)", [0x4a, 0x6f, 0x73, 0xe9], "Jos\udce9"],
    ["a sequence cut short", [0xe2, 0x82, 0x78], "\udce2\udc82x"],
    ["an overlong /", [0xc0, 0xaf], "\udcc0\udcaf"],
    ["a surrogate written in UTF-8", [0xed, 0xa0, 0x80], "\udced\udca0\udc80"],
    ["above U+10FFFF", [0xf4, 0x90, 0x80, 0x80], "\udcf4\udc90\udc80\udc80"],
    ["U+1F600", [0xf0, 0x9f, 0x98, 0x80], "\ud83d\ude00"],
    ["U+10080, whose low surrogate is DC80", [0xf0, 0x90, 0x82, 0x80], "\ud800\udc80"],
    ["a lone 0xFF", [0xff], "\udcff"],
  ])("%s", (_, b, name) => {
    expect(decodeName(bytes(...b))).toBe(name);
    expect([...nameBytes(name)]).toEqual(b);
  });

  it("any bytes come back exactly (fast-check, 500 runs)", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 40 }), (b) => {
        expect([...nameBytes(decodeName(b))]).toEqual([...b]);
      }),
      { numRuns: 500 },
    );
  });

  it("isFolderName: only what decodeName makes of some bytes", () => {
    expect(isFolderName("Jos\udce9")).toBe(true);
    expect(isFolderName("José")).toBe(true);
    expect(isFolderName("__proto__")).toBe(true);
    // Escaped bytes that spell UTF-8 (é) are never what decodeName gives: é is.
    expect(isFolderName("\udcc3\udca9")).toBe(false);
    // Lone surrogates outside DC80-DCFF, and an empty name.
    expect(isFolderName("a\ud800")).toBe(false);
    expect(isFolderName("a\udc41")).toBe(false);
    expect(isFolderName("")).toBe(false);
    // No folder is so named, but the bytes are plain: the file naming still tells them apart.
    expect(isFolderName("al/ice")).toBe(true);
    expect(resultsFileName("al/ice")).toBe("results/al%2fice.json");
    expect(isFolderName("a\0")).toBe(true);
    expect(resultsFileName("a\0")).toBe("results/a%00.json");
  });
});

describe("shownName and lookAlikeKey", () => {
  it("bytes that are not UTF-8 show as \\xNN, the rest as it is", () => {
    expect(shownName("Jos\udce9")).toBe("Jos\\xe9");
    expect(shownName("\udcc0\udcaf")).toBe("\\xc0\\xaf");
    expect(shownName("José")).toBe("José");
    expect(shownName("\ud800\udc80")).toBe("\ud800\udc80");
  });

  it("names that differ in case, normalisation or only once shown look alike", () => {
    expect(lookAlikeKey("Bob")).toBe(lookAlikeKey("bob"));
    expect(lookAlikeKey("straße")).toBe(lookAlikeKey("STRASSE"));
    // é precomposed (NFC) and e + combining acute (NFD).
    expect(lookAlikeKey("Jos\u00e9")).toBe(lookAlikeKey("Jose\u0301"));
    expect(lookAlikeKey("Jos\udce9")).toBe(lookAlikeKey("Jos\\xe9"));
    expect(lookAlikeKey("bob")).not.toBe(lookAlikeKey("bob-cd9fb1e148"));
  });
});

/** The bytes a stem of resultsFileName stands for, read back independently: `%NN` is a byte. */
function undoStem(stem: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < stem.length; i++) {
    if (stem[i] === "%") {
      out.push(parseInt(stem.slice(i + 1, i + 3), 16));
      i += 2;
    } else out.push(stem.charCodeAt(i));
  }
  return out;
}

const A40 = "a".repeat(40);

describe("resultsFileName: from the exact bytes, one file per name", () => {
  it.each([
    ["alice", "results/alice.json"],
    ["solution-again", "results/solution-again.json"],
    ["a.b_c", "results/a.b_c.json"],
    // The attack: `bob-cd9fb1e148` was Bob's file's stem (slug + first 10 hex of sha256("Bob")).
    ["Bob", "results/%42ob.json"],
    ["bob", "results/bob.json"],
    ["BOB", "results/%42%4f%42.json"],
    ["bob-cd9fb1e148", "results/bob-cd9fb1e148.json"],
    ["__proto__", "results/__proto__.json"],
    ["José", "results/%4aos%c3%a9.json"],
    ["Jos\udce9", "results/%4aos%e9.json"],
    ["Jos\\xe9", "results/%4aos%5cxe9.json"],
    [".hidden", "results/%2ehidden.json"],
    ["a b%c~d", "results/a%20b%25c%7ed.json"],
    [`=<b>eve & "co" 'x'`, "results/%3d%3cb%3eeve%20%26%20%22co%22%20%27x%27.json"],
    // Windows device names: the first byte escaped.
    ["con", "results/%63on.json"],
    ["con.txt", "results/%63on.txt.json"],
    ["lpt1", "results/%6cpt1.json"],
    ["console", "results/console.json"],
    ["Con", "results/%43on.json"],
    // Up to 120 characters as they are; beyond, 40 of them, `%%` and the SHA-256 of the bytes.
    ["a".repeat(120), `results/${"a".repeat(120)}.json`],
    [
      "a".repeat(121),
      `results/${A40}%%e9615320128cc7a3d6078e9af05603188e5ccbf0d07d8b735d3df5e8e0c1281f.json`,
    ],
    [
      "a".repeat(200),
      `results/${A40}%%c2a908d98f5df987ade41b5fce213067efbcc21ef2240212a41e54b5e7c28ae5.json`,
    ],
    // The 40 characters would end inside `%42`: cut before it.
    [
      `${"a".repeat(39)}${"B".repeat(50)}`,
      `results/${"a".repeat(39)}%%624967ab274448af0a4146d5fb1c6b9239d3e61444a4ba855d77e35f059d1637.json`,
    ],
  ])("%j", (name, file) => {
    expect(resultsFileName(name)).toBe(file);
  });

  it("a short stem reads back to the name's bytes; a long one is a prefix, %% and a hash (fast-check)", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 60 }), (b) => {
        const file = resultsFileName(decodeName(b));
        expect(file).toMatch(/^results\/[a-z0-9._%-]+\.json$/);
        const stem = file.slice("results/".length, -".json".length);
        if (stem.includes("%%")) {
          expect(stem).toMatch(/^[a-z0-9._%-]{0,40}%%[0-9a-f]{64}$/);
          const prefix = undoStem(stem.slice(0, stem.indexOf("%%")));
          expect(prefix).toEqual([...b].slice(0, prefix.length));
        } else expect(undoStem(stem)).toEqual([...b]);
      }),
      { numRuns: 500 },
    );
  });

  it("no two names of a class share a file, even case-folded", () => {
    const names = [
      "Bob",
      "bob",
      "BOB",
      "bob-cd9fb1e148",
      "%42ob",
      "Jos\udce9",
      "Jos\\xe9",
      "José",
      "Jose\u0301",
      "con",
      "%63on",
      "a".repeat(121),
      "a".repeat(122),
    ];
    const files = names.map((n) => resultsFileName(n).toLowerCase());
    expect(new Set(files).size).toBe(names.length);
  });
});
