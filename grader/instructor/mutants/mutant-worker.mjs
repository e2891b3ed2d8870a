/**
 * A worker thread of in-process.ts: runs a mutant's bundle on one case by calling the `run`
 * function its main.ts exports (arguments and input in, exit code and output text out), with no
 * process of its own. Plain JavaScript, so the grader's own bundle (launch.mjs) can start it as is.
 *
 * Each bundle is imported once per worker and its `run` called for every case: a mutant is the
 * reference with one mistake, and the reference keeps no state between calls. Anything a mutant
 * prints itself (console, process.stdout) is not part of what `run` returns, so such a run is
 * marked, and in-process.ts runs that case again as a process.
 */
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";

/** Bundle path to the promise of its module. */
const modules = new Map();

let wroteAround = false;
const swallow = () => {
  wroteAround = true;
  return true;
};
for (const name of ["log", "info", "warn", "error", "debug", "trace", "dir", "table"]) {
  console[name] = swallow;
}
process.stdout.write = swallow;
process.stderr.write = swallow;

/**
 * @param {{ bundle: string, argv: string[], stdin: string }} task the bundle's path, the
 *   program's arguments and its standard input
 * @returns {Promise<{ threw: boolean, exitCode: number, stdout: string, stderr: string,
 *   wroteAround: boolean, durationMs: number }>} what `run` returned (or that it threw), whether
 *   the mutant printed around it, and the call's wall time in ms
 * @throws Error when the bundle does not load or exports no `run` (the kit's own fault)
 */
export default async function runMutant({ bundle, argv, stdin }) {
  let loaded = modules.get(bundle);
  if (loaded === undefined) {
    loaded = import(pathToFileURL(bundle).href);
    modules.set(bundle, loaded);
  }
  const { run } = await loaded;
  if (typeof run !== "function") throw new Error(`${bundle} exports no run function`);
  wroteAround = false;
  const started = performance.now();
  try {
    const { exitCode, stdout, stderr } = run(argv, stdin);
    const durationMs = performance.now() - started;
    return { threw: false, exitCode, stdout, stderr, wroteAround, durationMs };
  } catch {
    const durationMs = performance.now() - started;
    return { threw: true, exitCode: 70, stdout: "", stderr: "", wroteAround, durationMs };
  }
}
