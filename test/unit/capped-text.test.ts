// The capped view of what a program wrote (grader/verdict/capped-text.ts), on values worked by
// hand: a line cut at exactly 4096 bytes of UTF-8, never inside a character; standard error's 64
// lines and 64 KiB; standard output whole up to the output cap.
import { describe, expect, it } from "vitest";
import { OUTPUT_CAP_BYTES } from "../../grader/limits.ts";
import {
  capRun,
  CappedText,
  cutToBytes,
  LINE_MAX_BYTES,
  STDERR_MAX_BYTES,
  STDERR_MAX_LINES,
  STDERR_READ_BYTES,
} from "../../grader/verdict/capped-text.ts";
import { rawRun } from "../helpers/results.ts";

const bytes = (text: string) => Buffer.byteLength(text, "utf8");
const REST = "the rest not read (the grader reads the first 64 lines and 64 KiB of standard error)";

describe("the caps", () => {
  it("are 4096 bytes a line, 64 lines and 64 KiB of standard error, 4 MiB of standard output", () => {
    expect([LINE_MAX_BYTES, STDERR_MAX_LINES, STDERR_MAX_BYTES, OUTPUT_CAP_BYTES]).toEqual([
      4096, 64, 65536, 4194304,
    ]);
  });
});

describe("a line is cut at 4096 bytes of UTF-8, between characters", () => {
  it("keeps a line of exactly 4096 bytes, and cuts one of 4097 to 4096", () => {
    const exact = CappedText.stderr(`${"a".repeat(4096)}\n`);
    expect(exact.lines).toEqual(["a".repeat(4096)]);
    expect(exact.text).toBe(`${"a".repeat(4096)}\n`);
    expect(exact.cut).toEqual({ shortenedLines: 0, rest: false });

    const over = CappedText.stderr(`${"a".repeat(4097)}\nnext`);
    expect(over.lines).toEqual(["a".repeat(4096), "next"]);
    expect(over.cut).toEqual({ shortenedLines: 1, rest: false });
    expect(over.text).toBe(`${"a".repeat(4096)}\nnext\n[… 1 line cut at 4096 bytes]`);
  });

  it("leaves out whole a 2-, 3- or 4-byte character that would straddle the cut", () => {
    // é is 2 bytes: 2049 of them are 4098 bytes; 2048 fill 4096 exactly.
    expect(CappedText.stderr("é".repeat(2049)).firstLine).toBe("é".repeat(2048));
    // € is 3 bytes: 1366 are 4098; 1365 are 4095, and a 1366th would need 4098.
    expect(CappedText.stderr("€".repeat(1366)).firstLine).toBe("€".repeat(1365));
    // One byte more first: 1 + 1365 × 3 = 4096 fits whole; 2 + 1365 × 3 = 4097 keeps 1364.
    expect(CappedText.stderr(`a${"€".repeat(1365)}`).cut.shortenedLines).toBe(0);
    expect(CappedText.stderr(`aa${"€".repeat(1365)}`).firstLine).toBe(`aa${"€".repeat(1364)}`);
    // 😀 is 4 bytes and two UTF-16 code units: 1024 fill 4096; after "abc", 1023 fit (4095).
    expect(CappedText.stderr("😀".repeat(1025)).firstLine).toBe("😀".repeat(1024));
    expect(CappedText.stderr(`abc${"😀".repeat(1024)}`).firstLine).toBe(`abc${"😀".repeat(1023)}`);
    // Nothing is split into a replacement character or a lone surrogate.
    for (const line of [
      CappedText.stderr("€".repeat(1366)).firstLine,
      CappedText.stderr(`abc${"😀".repeat(1024)}`).firstLine,
    ]) {
      expect(bytes(line)).toBeLessThanOrEqual(4096);
      expect(Buffer.from(line, "utf8").toString("utf8")).toBe(line);
    }
  });

  it("counts a lone surrogate as the 3 bytes of U+FFFD, as Buffer writes it", () => {
    expect(cutToBytes(`${"a".repeat(4093)}\ud800b`, 4096)).toBe(`${"a".repeat(4093)}\ud800`);
    expect(cutToBytes(`${"a".repeat(4094)}\ud800`, 4096)).toBe("a".repeat(4094));
  });
});

describe("standard error: its first 64 lines and 64 KiB", () => {
  it("keeps 64 lines whole and says when there were more", () => {
    const sixtyFour = CappedText.stderr("x\n".repeat(64));
    expect(sixtyFour.lines).toHaveLength(64);
    expect(sixtyFour.text).toBe("x\n".repeat(64));
    expect(sixtyFour.cut.rest).toBe(false);

    const more = CappedText.stderr("x\n".repeat(65));
    expect(more.lines).toHaveLength(64);
    expect(more.cut).toEqual({ shortenedLines: 0, rest: true });
    expect(more.text).toBe(`${"x\n".repeat(64)}[… ${REST}]`);
  });

  it("stops at 65536 bytes, line ends included, inside the line that reaches it", () => {
    // 20 lines of 4000 bytes and a line end: 16 of them are 64,016 bytes; 1,520 more of the
    // 17th fill 65,536.
    const capped = CappedText.stderr(`${"a".repeat(4000)}\n`.repeat(20));
    expect(capped.lines).toHaveLength(17);
    expect(capped.lines.slice(0, 16).every((l) => l.length === 4000)).toBe(true);
    expect(capped.lines[16]).toBe("a".repeat(1520));
    expect(capped.cut).toEqual({ shortenedLines: 0, rest: true });
    expect(capped.text).toBe(
      `${`${"a".repeat(4000)}\n`.repeat(16)}${"a".repeat(1520)}\n[… ${REST}]`,
    );
    expect(bytes(capped.lines.join("\n"))).toBe(65536);
  });

  it("reads one long line to 4096 bytes, however long it is, and says both cuts", () => {
    const capped = CappedText.stderr("FATAL ERROR: ".repeat(400_000));
    expect(capped.lines).toEqual([`${"FATAL ERROR: ".repeat(315)}F`]);
    expect(capped.cut).toEqual({ shortenedLines: 1, rest: true });
    expect(capped.text).toBe(`${capped.firstLine}\n[… 1 line cut at 4096 bytes; ${REST}]`);
  });

  it("skips the rest of a long line and goes on with the next", () => {
    const capped = CappedText.stderr(`${"b".repeat(10_000)}\nsecond\n`);
    expect(capped.lines).toEqual(["b".repeat(4096), "second"]);
    expect(capped.cut).toEqual({ shortenedLines: 1, rest: false });
  });

  it("says the rest was not read when the run kept more than 64 KiB (STDERR_READ_BYTES)", () => {
    // The run keeps 65,536 bytes and 4 more, one character at most: enough to tell.
    expect(STDERR_READ_BYTES).toBe(65_540);
    // 16 lines of 4,095 bytes and a line end fill 65,536 bytes exactly.
    const full = `${"a".repeat(4095)}\n`.repeat(16);
    expect(bytes(full)).toBe(65_536);
    const exact = CappedText.stderr(full);
    expect(exact.lines).toHaveLength(16);
    expect(exact.text).toBe(full);
    const more = CappedText.stderr(`${full}more`);
    expect(more.lines).toEqual(Array.from({ length: 16 }, () => "a".repeat(4095)));
    expect(more.cut).toEqual({ shortenedLines: 0, rest: true });
    expect(more.text).toBe(`${full}[… ${REST}]`);
  });

  it("is empty for no text, and keeps a last line without a line end", () => {
    expect(CappedText.stderr("").text).toBe("");
    expect(CappedText.stderr("").lines).toEqual([]);
    expect(CappedText.stderr("").firstLine).toBe("");
    expect(CappedText.EMPTY_STDERR.text).toBe("");
    expect(CappedText.stderr("a\n\nb").lines).toEqual(["a", "", "b"]);
    expect(CappedText.stderr("a\r\nb\n").lines).toEqual(["a\r", "b"]);
  });

  it("maps each kept line (the stack mapper) and caps the result again", () => {
    const capped = CappedText.stderr("at /b/m.mjs:1:2\nplain\n");
    const mapped = capped.mapLines((l) => l.replace("/b/m.mjs:1:2", "src/a.ts:3:4"));
    expect(mapped.text).toBe("at src/a.ts:3:4\nplain\n");
    // A line the mapping makes longer than 4096 bytes is cut; earlier cuts are still said.
    const grown = CappedText.stderr(`${"c".repeat(5000)}\nx`).mapLines((l) =>
      l === "x" ? "y".repeat(5000) : l,
    );
    expect(grown.lines).toEqual(["c".repeat(4096), "y".repeat(4096)]);
    expect(grown.cut).toEqual({ shortenedLines: 2, rest: false });
  });
});

describe("standard output: whole, up to the output cap", () => {
  it("keeps an answer of one long line whole; its lines, read as lines, are cut", () => {
    const answer = `{"c-1":{"t":[${Array.from({ length: 2000 }, (_, i) => i).join(",")}]}}`;
    expect(answer.length).toBeGreaterThan(4096);
    const capped = CappedText.stdout(answer);
    expect(capped.text).toBe(answer);
    expect(capped.cut.rest).toBe(false);
    expect(capped.firstLine).toBe(answer.slice(0, 4096));
  });

  it("cuts at 4 MiB of UTF-8, between characters", () => {
    expect(CappedText.stdout("x".repeat(OUTPUT_CAP_BYTES)).text).toHaveLength(OUTPUT_CAP_BYTES);
    const over = CappedText.stdout("x".repeat(OUTPUT_CAP_BYTES + 1));
    expect(over.text).toHaveLength(OUTPUT_CAP_BYTES);
    expect(over.cut.rest).toBe(true);
    // 2,097,152 é are 4 MiB exactly; one byte more of "a" first leaves the last é out.
    expect(CappedText.stdout("é".repeat(OUTPUT_CAP_BYTES / 2)).cut.rest).toBe(false);
    expect(CappedText.stdout(`a${"é".repeat(OUTPUT_CAP_BYTES / 2)}`).text).toBe(
      `a${"é".repeat(OUTPUT_CAP_BYTES / 2 - 1)}`,
    );
  });
});

describe("capRun", () => {
  it("caps both streams and keeps everything else the run said", () => {
    const run = capRun(
      rawRun({ exitCode: 70, stdout: "{}", stderr: `${"e".repeat(5000)}\n`, cpuMs: 7 }),
    );
    expect(run.exitCode).toBe(70);
    expect(run.cpuMs).toBe(7);
    expect(run.stdout.text).toBe("{}");
    expect(run.stderr.lines).toEqual(["e".repeat(4096)]);
  });

  it("has no way in but the two stream constructors", () => {
    // Compiled only: the constructor is private (the typecheck fails if it is not).
    const build = () =>
      // @ts-expect-error the constructor is private: a CappedText is only made by capping
      new CappedText("stderr", "x".repeat(1e6), undefined, { shortenedLines: 0, rest: false });
    expect(typeof build).toBe("function");
  });
});
