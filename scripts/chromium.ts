/**
 * Headless Chromium from the npm registry, for the browser test and `npm run screenshot`: the
 * chrome-headless-shell binary that the package @sparticuz/chromium ships brotli-compressed in its
 * `bin/` folder, with the shared libraries it needs that a bare Linux lacks (NSS, NSPR, expat: its
 * al2023 archive) and a font (Open Sans: its fonts archive). Nothing is downloaded: the package's
 * own loader (`executablePath()`) is not used, because it sets up those libraries only when its
 * environment says AWS Lambda, Vercel or CodeBuild (`isRunningInAmazonLinux2023`), and unpacks to
 * fixed names under the temporary folder that concurrent runs would share. Here each launch
 * unpacks into a folder of its own, points the browser at the bundled libraries
 * (`LD_LIBRARY_PATH`) and fonts (`FONTCONFIG_PATH`) through the browser's environment alone, and
 * removes the folder when closed.
 */
import {
  createReadStream,
  createWriteStream,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, normalize, sep } from "node:path";
import { pipeline } from "node:stream/promises";
import { brotliDecompressSync, createBrotliDecompress } from "node:zlib";
import { chromium, type Browser } from "playwright-core";

/** The launch flags: no sandbox (tests may run as root), nothing fetched or synced in the background. */
export const CHROMIUM_ARGS: readonly string[] = [
  "--no-sandbox",
  "--no-zygote",
  "--disable-background-networking",
  "--disable-gpu",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** A running browser and the way to stop it (which also removes its unpacked files). */
export interface KitChromium {
  readonly browser: Browser;
  /** Chromium's version, as `chromium --version` prints it (e.g. "Chromium 147.0.7727.0"). */
  readonly version: string;
  close(): Promise<void>;
}

/** The package's folder of compressed files (chromium.br, al2023.tar.br, fonts.tar.br, ...). */
export function chromiumPackageBin(): string {
  // The package's main entry is build/cjs/index.cjs; its archives are in bin/ beside build/.
  const entry = createRequire(import.meta.url).resolve("@sparticuz/chromium");
  return join(dirname(entry), "..", "..", "bin");
}

/**
 * The regular files and folders of an uncompressed POSIX (ustar) tar archive, written under
 * `into`. pax headers are skipped; any other entry type (a link, a device) or a name that would
 * leave `into` is refused.
 *
 * @throws Error naming the entry for an unsupported type or an unsafe name
 */
export function untar(archive: Uint8Array, into: string): void {
  const text = (at: number, length: number) => {
    const field = Buffer.from(archive.buffer, archive.byteOffset + at, length);
    const end = field.indexOf(0);
    return field.toString("utf8", 0, end === -1 ? length : end);
  };
  let at = 0;
  while (at + 512 <= archive.length && archive[at] !== 0) {
    const prefix = text(at + 345, 155);
    const name = (prefix === "" ? "" : `${prefix}/`) + text(at, 100);
    const size = Number.parseInt(text(at + 124, 12).trim() || "0", 8);
    const mode = Number.parseInt(text(at + 100, 8).trim() || "644", 8);
    const type = text(at + 156, 1);
    const data = at + 512;
    const target = normalize(join(into, name));
    if (!target.startsWith(into + sep) && target !== into)
      throw new Error(`tar entry ${JSON.stringify(name)} would be written outside ${into}`);
    if (type === "5") mkdirSync(target, { recursive: true });
    else if (type === "0" || type === "") {
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, archive.subarray(data, data + size), { mode: mode & 0o755 });
    } else if (type !== "x" && type !== "g")
      throw new Error(`tar entry ${JSON.stringify(name)} has type ${JSON.stringify(type)}`);
    at = data + Math.ceil(size / 512) * 512;
  }
}

/** Escapes text for an XML element's content. */
const xmlText = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * Unpacks the package's Chromium into a new temporary folder and launches it headless with
 * playwright-core.
 *
 * Layout of the folder: `chromium` (the binary), `lib/` (the bundled shared libraries, first on
 * the browser's `LD_LIBRARY_PATH`), `fonts/` (the bundled fonts and a fonts.conf that names only
 * them, so text renders the same on every machine).
 *
 * @throws Error when the package is not installed, or the browser does not start (playwright's
 *   message, with the browser's standard error)
 */
export async function launchChromium(): Promise<KitChromium> {
  const bin = chromiumPackageBin();
  const dir = mkdtempSync(join(tmpdir(), "kit-chromium-"));
  try {
    const executable = join(dir, "chromium");
    await pipeline(
      createReadStream(join(bin, "chromium.br")),
      createBrotliDecompress(),
      createWriteStream(executable, { mode: 0o700 }),
    );
    // The archive holds lib/*.so.
    untar(brotliDecompressSync(readFileSync(join(bin, "al2023.tar.br"))), dir);
    const lib = join(dir, "lib");
    const fonts = join(dir, "fonts");
    mkdirSync(fonts);
    untar(brotliDecompressSync(readFileSync(join(bin, "fonts.tar.br"))), fonts);
    // The package's own fonts.conf names Lambda's folders; this one names the unpacked fonts only.
    writeFileSync(
      join(fonts, "fonts.conf"),
      `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n` +
        `  <dir>${xmlText(join(fonts, "fonts"))}</dir>\n` +
        `  <cachedir>${xmlText(join(dir, "fontconfig-cache"))}</cachedir>\n</fontconfig>\n`,
    );
    const inherited = process.env.LD_LIBRARY_PATH;
    const browser = await chromium.launch({
      executablePath: executable,
      args: [...CHROMIUM_ARGS],
      env: {
        ...process.env,
        LD_LIBRARY_PATH: inherited ? `${lib}:${inherited}` : lib,
        FONTCONFIG_PATH: fonts,
      },
    });
    return {
      browser,
      version: `Chromium ${browser.version()}`,
      async close() {
        try {
          await browser.close();
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
