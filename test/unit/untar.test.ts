// scripts/chromium.ts's tar reader, on archives built here byte by byte (ustar: 512-byte headers,
// octal fields, data padded to 512 bytes, two zero blocks at the end).
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { untar } from "../../scripts/chromium.ts";

/** One entry: a header (name, mode, size, type) and its data padded to a whole block. */
function entry(name: string, type: string, data = "", mode = 0o644): Buffer {
  const header = Buffer.alloc(512);
  header.write(name, 0, "utf8");
  header.write(`${mode.toString(8).padStart(7, "0")}\0`, 100, "ascii");
  header.write(`${data.length.toString(8).padStart(11, "0")}\0`, 124, "ascii");
  header.write(type, 156, "ascii");
  header.write("ustar\u000000", 257, "ascii");
  const body = Buffer.alloc(Math.ceil(data.length / 512) * 512);
  body.write(data, "utf8");
  return Buffer.concat([header, body]);
}
const archive = (...entries: Buffer[]) => Buffer.concat([...entries, Buffer.alloc(1024)]);

const root = mkdtempSync(join(tmpdir(), "kit-untar-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const fresh = () => mkdtempSync(join(root, `${n++}-`));

describe("untar", () => {
  it("writes folders and files with their bytes and modes, skipping pax headers", () => {
    const dir = fresh();
    const big = "x".repeat(600); // two blocks of data: the next header is at 512 + 1024
    untar(
      archive(
        entry("lib/", "5", "", 0o755),
        entry("PaxHeader", "x", "30 path=ignored/by/this/reader\n"),
        entry("lib/libnss3.so", "0", "ELF", 0o755),
        entry("fonts.conf", "0", big),
      ),
      dir,
    );
    expect(readdirSync(dir).sort()).toEqual(["fonts.conf", "lib"]);
    expect(readFileSync(join(dir, "lib", "libnss3.so"), "utf8")).toBe("ELF");
    expect(statSync(join(dir, "lib", "libnss3.so")).mode & 0o777).toBe(0o755);
    expect(readFileSync(join(dir, "fonts.conf"), "utf8")).toBe(big);
    expect(statSync(join(dir, "fonts.conf")).mode & 0o777).toBe(0o644);
  });

  it("refuses a name that leaves the folder, and a link, writing nothing", () => {
    const [escape, link] = [fresh(), fresh()];
    expect(() => untar(archive(entry("../outside", "0", "x")), escape)).toThrow(
      /tar entry "\.\.\/outside" would be written outside /,
    );
    expect(() => untar(archive(entry("lib/link.so", "2")), link)).toThrow(
      'tar entry "lib/link.so" has type "2"',
    );
    expect([...readdirSync(escape), ...readdirSync(link)]).toEqual([]);
    expect(readdirSync(root).filter((name) => name === "outside")).toEqual([]);
  });
});
