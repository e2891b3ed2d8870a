// The shared-run harness: the grader's own code, started inside the sandbox as
// `node --input-type=module -e <this text>` (so no file of the kit is ever visible to the program),
// that runs several cases of one submission in one process. It judges nothing: for each case it
// imports the bundle anew under a distinct URL (a fresh instance of every module of the
// submission), calls its exported `run(argv, stdin)` as main.ts's program part would, and reports
// what that call printed and returned, with what it noticed around it. The grader keeps a case's
// report only when it is a clean pass (shared-run.ts); anything else is run again alone.
//
// Standard input: one JSON document { bundle, outputCapBytes, cases: [{ args, input }] }. The key
// that signs every report is in KIT_SHARED_KEY, removed from the environment before any of the
// program's code runs, so the program can neither read it nor sign a report of its own. Reports go
// to standard output, one line each: `<payload>.<HMAC-SHA256 of "<sequence>:<payload>">`, the
// payload `n exitCode cpuMs wallMs flags stdout stderr` (space-separated; the texts in base64,
// flags comma-separated, "-" for none).
//
// The program runs in this realm and may change any built-in: everything the harness uses after
// the program's first line has run is taken here first (methods called through bound `call`), so
// that a report says what happened whatever the program did to the built-ins.
/* global queueMicrotask */
import { Buffer } from "node:buffer";
import { createHmac, createSecretKey } from "node:crypto";
import { EventEmitter } from "node:events";
import { fstatSync, readFileSync, writeSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { setImmediate } from "node:timers";
import { pathToFileURL } from "node:url";

const uncurry = Function.prototype.call.bind.bind(Function.prototype.call);
const ownKeys = Reflect.ownKeys;
const ownDescriptor = Reflect.getOwnPropertyDescriptor;
const defineProperty = Reflect.defineProperty;
const deleteProperty = Reflect.deleteProperty;
const getPrototypeOf = Reflect.getPrototypeOf;
const isExtensible = Reflect.isExtensible;
const is = Object.is;
const round = Math.round;
const isInteger = Number.isInteger;
const bufferFrom = Buffer.from;
const bufferConcat = Buffer.concat;
const isEncoding = Buffer.isEncoding;
const bufferToString = uncurry(Buffer.prototype.toString);
const bufferSubarray = uncurry(Buffer.prototype.subarray);
const byteLength = uncurry(ownDescriptor(getPrototypeOf(Uint8Array.prototype), "byteLength").get);
const push = uncurry(Array.prototype.push);
const entries = Object.entries;
const hmac = createHmac;
const sample = createHmac("sha256", "sample");
const hmacUpdate = uncurry(getPrototypeOf(sample).update);
const hmacDigest = uncurry(getPrototypeOf(sample).digest);
const eventNames = uncurry(EventEmitter.prototype.eventNames);
const listenerCount = uncurry(EventEmitter.prototype.listenerCount);
const now = uncurry(performance.now, performance);
const cpuUsage = process.cpuUsage.bind(process);
const realExit = process.exit.bind(process);
const activeResourcesInfo =
  typeof process.getActiveResourcesInfo === "function"
    ? process.getActiveResourcesInfo.bind(process)
    : () => [];
const PromiseOf = Promise;
const setImmediateOf = setImmediate;
const queueMicrotaskOf = queueMicrotask;
const Uint8ArrayOf = Uint8Array;
const fileSize = (fd) => fstatSync(fd).size;

const key = createSecretKey(Buffer.from(process.env.KIT_SHARED_KEY ?? "", "hex"));
delete process.env.KIT_SHARED_KEY;
const job = JSON.parse(readFileSync(0, "utf8"));
// Every report's HMAC is made now, before the program's first line: making one runs code the
// program can reach (createHmac reads the key's `type` getter on crypto.KeyObject.prototype and
// sets `_options` on the new Hmac through its prototypes), which would hand it the key, or an Hmac
// to sign a report of its own with. Updating and finishing one reads only its own properties.
const macs = [];
for (let i = 0; i < job.cases.length; i++) push(macs, hmac("sha256", key));
const bundleUrl = pathToFileURL(job.bundle).href;
const cap = job.outputCapBytes;
/** What process.argv[1] says during a case: this harness, a name no file has. */
const HARNESS_PATH = new URL("./kit-shared-harness", bundleUrl).pathname;
const argv = process.argv;
const nodePath = argv[0];

let written = 0;
let sequence = 0;
/** Writes one signed report on standard output (a file the grader reads). */
function report(payload) {
  const mac = macs[sequence];
  hmacUpdate(mac, `${sequence}:${payload}`);
  const line = bufferFrom(`${payload}.${hmacDigest(mac, "hex")}\n`, "latin1");
  const length = byteLength(line);
  sequence++;
  let at = 0;
  while (at < length) at += writeSync(1, line, at, length - at);
  written += length;
}

// The shared state a case could change and a later case could see: the global object, the
// built-ins' constructors and prototypes, the built-in modules a program may import, and the
// process object. Each is compared property by property (descriptor identity) after every case.
const builtinModules = [
  "buffer",
  "crypto",
  "events",
  "fs",
  "module",
  "os",
  "path",
  "stream",
  "string_decoder",
  "timers",
  "url",
  "util",
  "v8",
  "vm",
];
const modules = [];
for (const name of builtinModules) {
  try {
    modules.push((await import(`node:${name}`)).default);
  } catch {
    // Not in this Node version.
  }
}
// Lazily defined globals become plain values on first read: read them all now, so that a case
// that merely reads one is not taken for one that changed it. Not the fetch family (loading it
// takes longer than the rest together): a case that reads one runs alone, as one that changed it.
const FETCH_FAMILY = new Set([
  "fetch",
  "FormData",
  "Headers",
  "Request",
  "Response",
  "WebSocket",
  "EventSource",
  "CloseEvent",
  "MessageEvent",
]);
for (const owner of [globalThis, process]) {
  for (const name of ownKeys(owner)) {
    if (owner === globalThis && FETCH_FAMILY.has(name)) continue;
    try {
      void owner[name];
    } catch {
      // A getter that throws is left as it is.
    }
  }
}

const watched = [];
{
  const seen = new Set();
  const add = (o) => {
    if ((typeof o === "object" || typeof o === "function") && o !== null && !seen.has(o)) {
      seen.add(o);
      watched.push(o);
      if (typeof o === "function") add(o.prototype);
    }
  };
  add(globalThis);
  for (const name of ownKeys(globalThis)) add(ownDescriptor(globalThis, name)?.value);
  const iterators = [
    [][Symbol.iterator](),
    new Map()[Symbol.iterator](),
    new Set()[Symbol.iterator](),
    ""[Symbol.iterator](),
    /./[Symbol.matchAll](""),
    (function* () {})(),
    (async function* () {})(),
  ];
  for (const it of iterators)
    for (let p = getPrototypeOf(it); p !== null; p = getPrototypeOf(p)) add(p);
  for (const f of [function () {}, async function () {}, function* () {}, async function* () {}])
    add(getPrototypeOf(f));
  add(getPrototypeOf(Uint8Array));
  for (const o of [process, process.stdout, process.stderr, process.env]) {
    for (let p = o; p !== null; p = getPrototypeOf(p)) add(p);
  }
  // The streams' own state (corked, ending, ended, destroyed, default encoding): a case's writes
  // go to the capture, but alone main.ts writes its answer through the stream after run, so a
  // stream corked, ended or set to hex there prints nothing or something else.
  for (const s of [process.stdout, process.stderr]) add(s._writableState);
  for (const m of modules) {
    add(m);
    for (const name of ownKeys(m)) {
      const d = ownDescriptor(m, name);
      if (d !== undefined && typeof d.value === "function") add(d.value);
    }
  }
}

/** Every watched object's own properties, prototype and extensibility, as comparable entries. */
function snapshot() {
  const list = [];
  for (let i = 0; i < watched.length; i++) {
    const o = watched[i];
    const keys = ownKeys(o);
    push(list, getPrototypeOf(o), isExtensible(o), keys.length);
    for (let j = 0; j < keys.length; j++) {
      const k = keys[j];
      const d = ownDescriptor(o, k);
      push(list, k, d.value, d.get, d.set, d.writable, d.enumerable, d.configurable);
    }
  }
  const names = eventNames(process);
  for (let i = 0; i < names.length; i++) push(list, names[i], listenerCount(process, names[i]));
  return list;
}
function sameSnapshot(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!is(a[i], b[i])) return false;
  return true;
}

/** A stream's capture: at most `cap + 1` bytes kept, all counted. */
function capture() {
  const chunks = [];
  let kept = 0;
  let total = 0;
  let odd = false;
  const add = (chunk, encoding) => {
    let bytes;
    if (typeof chunk === "string")
      bytes = bufferFrom(
        chunk,
        typeof encoding === "string" && isEncoding(encoding) ? encoding : "utf8",
      );
    else if (chunk instanceof Uint8ArrayOf) bytes = bufferFrom(chunk);
    else {
      odd = true;
      return;
    }
    total += byteLength(bytes);
    if (kept <= cap) {
      const take = bufferSubarray(bytes, 0, cap + 1 - kept);
      push(chunks, take);
      kept += byteLength(take);
    }
  };
  const write = (chunk, encoding, callback) => {
    add(chunk, encoding);
    const done = typeof encoding === "function" ? encoding : callback;
    if (typeof done === "function") queueMicrotaskOf(() => done(null));
    return true;
  };
  return {
    add,
    write,
    text: () => bufferToString(bufferConcat(chunks), "base64"),
    total: () => total,
    odd: () => odd,
  };
}

// The streams' write methods are their prototype's: the capture is an own property, then removed.
const streams = [process.stdout, process.stderr];
const ownWrites = [ownDescriptor(process.stdout, "write"), ownDescriptor(process.stderr, "write")];
/** Puts the captures in place of the standard streams' write methods. */
function setWrites(out, err) {
  defineProperty(streams[0], "write", { value: out, writable: true, configurable: true });
  defineProperty(streams[1], "write", { value: err, writable: true, configurable: true });
}
/** Puts the streams' own write back; false when the case had replaced the capture itself. */
function restoreWrites(out, err) {
  const kept =
    ownDescriptor(streams[0], "write")?.value === out &&
    ownDescriptor(streams[1], "write")?.value === err;
  for (let i = 0; i < 2; i++) {
    if (ownWrites[i] === undefined) deleteProperty(streams[i], "write");
    else defineProperty(streams[i], "write", ownWrites[i]);
  }
  return kept;
}

// The console's first write to a stream sets up what every later one reuses (an error listener's
// bookkeeping on the stream): done once here, into a capture, so that a case's first console.log
// is not taken for a change to the stream.
{
  const out = capture();
  const err = capture();
  setWrites(out.write, err.write);
  console.log("");
  console.error("");
  restoreWrites(out.write, err.write);
}

/**
 * The environment as one text. Not JSON.stringify: it looks up `toJSON` on every pair through
 * Array.prototype, where a case's getter could run after its checks and answer for the old text.
 */
function envText() {
  const pairs = entries(process.env);
  let text = "";
  for (let i = 0; i < pairs.length; i++) text = `${text}${pairs[i][0]}=${pairs[i][1]}\0`;
  return text;
}

const baseline = snapshot();
const env = envText();
const resources = activeResourcesInfo().length;
const stderrAtStart = fileSize(2);
const cases = job.cases;

for (let n = 0; n < cases.length; n++) {
  const args = cases[n].args;
  const input = cases[n].input;
  let flags = "";
  // After these, nothing more in this process can be vouched for.
  let last = false;
  const flag = (name, ends = false) => {
    flags = flags === "" ? name : `${flags},${name}`;
    last ||= ends;
  };
  if (fileSize(1) !== written || fileSize(2) !== stderrAtStart) flag("around", true);
  argv.length = 0;
  // Not the bundle's path: main.ts runs its program part only when Node started the bundle itself.
  push(argv, nodePath, HARNESS_PATH);
  const callArgs = [];
  for (let i = 0; i < args.length; i++) {
    push(argv, args[i]);
    push(callArgs, args[i]);
  }
  process.exitCode = undefined;
  const out = capture();
  const err = capture();
  setWrites(out.write, err.write);
  const before = cpuUsage();
  const started = now();
  let exitCode = "null";
  let returnedStderr = 0;
  try {
    const program = await import(`${bundleUrl}?kit-case=${n}`);
    const run = program.run;
    if (typeof run !== "function") flag("no-run");
    else {
      const result = run(callArgs, input);
      const code = typeof result === "object" && result !== null ? result.exitCode : undefined;
      const stdout = typeof result === "object" && result !== null ? result.stdout : undefined;
      const stderr = typeof result === "object" && result !== null ? result.stderr : undefined;
      if (!isInteger(code) || typeof stdout !== "string" || typeof stderr !== "string") {
        flag("result");
      } else {
        // As main.ts's program part does after run: both texts written, then the exit code set.
        out.add(stdout);
        err.add(stderr);
        returnedStderr = bufferFrom(stderr, "utf8").length;
        exitCode = `${code}`;
      }
    }
    // Whatever the call left for the event loop's next turn runs now, still captured.
    await new PromiseOf((resolve) => setImmediateOf(resolve));
  } catch {
    flag("threw");
  }
  const used = cpuUsage(before);
  const wallMs = round(now() - started);
  if (!restoreWrites(out.write, err.write)) flag("globals", true);
  // Standard error beyond what run returned (a console.error): its text may name this harness.
  if (err.total() !== returnedStderr) flag("stderr");
  if (process.exitCode !== undefined) flag("exit-code");
  if (out.odd() || err.odd()) flag("write");
  if (out.total() > cap || err.total() > cap) flag("cap");
  if (activeResourcesInfo().length !== resources) flag("pending");
  if (envText() !== env) flag("env", true);
  if (!sameSnapshot(baseline, snapshot())) flag("globals", true);
  if (fileSize(1) !== written || fileSize(2) !== stderrAtStart) flag("around", true);
  const cpuMs = round((used.user + used.system) / 1000);
  const texts = out.total() > cap || err.total() > cap ? "- -" : `${out.text()} ${err.text()}`;
  report(`${n} ${exitCode} ${cpuMs} ${wallMs} ${flags === "" ? "-" : flags} ${texts}`);
  // Past what this process can vouch for: the grader goes on without it.
  if (last) break;
}
realExit(0);
