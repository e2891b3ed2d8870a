// Starts a detached child that would outlive the case, then prints an answer.
// The sandbox forbids child processes: spawning throws, and nothing is left running.
import { spawn } from "node:child_process";
const child = spawn("sleep", ["1234"], { detached: true, stdio: "ignore" });
child.unref();
process.stdout.write("{}\n");
