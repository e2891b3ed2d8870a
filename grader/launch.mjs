// `npm run grade` starts here. The grader is TypeScript; compiling it at every start (tsx) cost
// about half a second, so it runs from one esbuild bundle in the kit's own .grader/ folder (never a
// shared temporary folder a submission could write), rebuilt when any grader source changes and
// written atomically (a temporary name, then rename), so two graders starting at once are safe.
// Where the kit folder cannot be written, it compiles the grader at start with tsx instead.
import { createHash } from "node:crypto";
import {
  closeSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
} from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

// File descriptors this process inherited without close-on-exec (a `exec 200>lock` in the shell
// that started it) would pass on to every program: close them first. Node's own are close-on-exec.
closeInheritedDescriptors();

/** Closes every descriptor above 2 that lacks O_CLOEXEC (Linux: /proc/self/fdinfo). */
function closeInheritedDescriptors() {
  let fds;
  try {
    fds = readdirSync("/proc/self/fd");
  } catch {
    return; // not Linux
  }
  for (const name of fds) {
    const fd = Number(name);
    if (!(fd > 2)) continue;
    try {
      const flags = /^flags:\s+(\d+)/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, "utf8"));
      // O_CLOEXEC is 02000000 (octal).
      if (flags !== null && (parseInt(flags[1], 8) & 0o2000000) === 0) closeSync(fd);
    } catch {
      // The descriptor of the folder listing itself, gone by now.
    }
  }
}

const kit = fileURLToPath(new URL("../", import.meta.url));
const grader = join(kit, "grader");
const cacheDir = join(kit, ".grader");

/** Every grader source (path, size, mtime), the package manifest and the Node version, hashed. */
function sourceKey() {
  const hash = createHash("sha256").update(process.version);
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : 1,
    )) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(ts|json|mjs)$/.test(entry.name)) {
        const s = statSync(path);
        hash.update(`${path}\0${s.size}\0${s.mtimeMs}\n`);
      }
    }
  };
  walk(grader);
  const pkg = statSync(join(kit, "package.json"));
  hash.update(`package.json\0${pkg.size}\0${pkg.mtimeMs}\n`);
  return hash.digest("hex").slice(0, 16);
}

/**
 * The bundle's folder for the current sources, built if missing. Code splitting keeps what only
 * some commands use (--batch's ajv, --watch's chokidar, the instructor kit's mutants) in chunks of
 * their own, loaded when first imported: one bundle file would import every package at start.
 * Built into a temporary folder, then renamed into place (a rename of a folder is atomic; when
 * another grader got there first, its folder is used and ours removed). Bundles no grader has
 * started from for a day are removed.
 */
async function compiled() {
  const dir = join(cacheDir, `cli-${sourceKey()}`);
  const entryFile = join(dir, "cli.mjs");
  if (existsSync(entryFile)) {
    markInUse(dir);
    pruneUnused(dir);
    return entryFile;
  }
  const { build } = await import("esbuild");
  mkdirSync(cacheDir, { recursive: true, mode: 0o755 });
  const temporary = `${dir}.${process.pid}.tmp`;
  rmSync(temporary, { recursive: true, force: true });
  await build({
    entryPoints: [join(grader, "cli.ts")],
    outdir: temporary,
    entryNames: "[name]",
    chunkNames: "chunk-[hash]",
    outExtension: { ".js": ".mjs" },
    bundle: true,
    splitting: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    // A map beside each chunk, its sources relative to it (grader/*.ts), so that a grader error's
    // stack names the TypeScript line rather than the chunk's; the .ts files hold the text.
    sourcemap: "linked",
    sourcesContent: false,
    logLevel: "silent",
  });
  try {
    renameSync(temporary, dir);
  } catch (error) {
    rmSync(temporary, { recursive: true, force: true });
    if (!existsSync(entryFile)) throw error;
  }
  markInUse(dir);
  pruneUnused(dir);
  return entryFile;
}

/**
 * Removes the bundles of other sources or other Node versions that no grader has started from for
 * a day. Not sooner: a grader loads its chunks as it needs them, so removing the bundle of one
 * still running (another Node version's, or the one from before an edit) would break it mid-way.
 */
function pruneUnused(current) {
  let names;
  try {
    names = readdirSync(cacheDir);
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(cacheDir, name);
    if (!name.startsWith("cli-") || path === current || name.endsWith(".tmp")) continue;
    try {
      if (Date.now() - statSync(path).mtimeMs > UNUSED_MS)
        rmSync(path, { recursive: true, force: true });
    } catch {
      // Removed by another grader meanwhile, or a kit this user cannot write.
    }
  }
}

/** How long a bundle no grader has started from is kept (ms): longer than any grading runs. */
const UNUSED_MS = 24 * 60 * 60 * 1000;

/** Records that a grader starts from the bundle in `dir` (its folder's mtime), where it can. */
function markInUse(dir) {
  try {
    const now = new Date();
    utimesSync(dir, now, now);
  } catch {
    // A kit this user cannot write: nothing is removed from it either.
  }
}

// Stacks of the grader's own errors through the bundle's source maps. Set here, not with
// --enable-source-maps in NODE_OPTIONS, so that no program the grader starts inherits it.
process.setSourceMapsEnabled(true);
let entry;
try {
  entry = pathToFileURL(await compiled()).href;
} catch {
  // A read-only kit: compile on the fly with tsx, since no bundle can be written.
  await import("tsx/esm");
  entry = pathToFileURL(join(grader, "cli.ts")).href;
}
await import(entry);
