// Tries to leave Unix socket files behind (Node's permission model of Node 20 does not check
// them): in its working folder, next to its own bundle, in /tmp, /var/tmp and /dev/shm, up the
// tree with ../ paths, into the kit's other folders by relative guesses, in the usual places a
// kit is checked out, and wherever its environment says it came from. It never closes the
// servers (closing would remove the files) and exits 70.
// Afterwards no socket file may exist in the kit, the report folder or the real /tmp.
import { createServer } from "node:net";
import { dirname } from "node:path";

const here = dirname(process.argv[1] ?? "/dev/shm/program/main.mjs");
// The grader's environment is not passed on, but a shell that changes folder exports where it
// was before (OLDPWD): where the grader runs, the kit's own folder under npm.
const told = [process.env.OLDPWD, process.env.PWD].filter((f): f is string => f !== undefined);
const folders = [
  ...told,
  ".",
  here,
  "/tmp",
  "/var/tmp",
  "/dev/shm",
  "..",
  "../..",
  "../../..",
  `${here}/..`,
  `${here}/../..`,
  "../test/submissions/crash",
  "../../test/submissions/crash",
  "../../../test/submissions/crash",
  "../../fixtures/cases",
  "/work",
  "/work/main",
  "/root",
  "/home",
  "/autograder",
  "/autograder/source",
  "/github/workspace",
  "/builds",
  "/workspace",
  "/app",
  "/srv",
  "/",
];
const attempts = folders.map((folder, i) => {
  const path = `${folder}/hostile-socket-${i}`;
  return new Promise<string>((resolve) => {
    const server = createServer();
    server.once("error", (error: NodeJS.ErrnoException) =>
      resolve(`${path}: ${error.code ?? error.message}`),
    );
    try {
      server.listen(path, () => resolve(`${path}: listening`));
    } catch (error) {
      resolve(`${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  });
});
const outcomes = await Promise.all(attempts);
// Where it could listen last, so that the report's last lines of standard error show them.
const listening = outcomes.filter((o) => o.endsWith(": listening"));
const denied = outcomes.filter((o) => !o.endsWith(": listening"));
process.stderr.write(
  `sockets listening: ${listening.length} of ${outcomes.length}\n${[...denied, ...listening].join("\n")}\n`,
);
// Exit without closing: a closed server would remove its socket file.
process.exit(70);
