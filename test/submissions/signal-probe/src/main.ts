// Counts the processes it could signal, with signal 0 (which delivers nothing: it only checks the
// permission): every pid from 1 to well past its own, and its parent's. A sandboxed case must find
// none but itself.
const signalable: number[] = [];
const last = Math.min(process.pid + 100_000, 4_194_304);
for (let pid = 1; pid <= last; pid++) {
  try {
    process.kill(pid, 0);
    signalable.push(pid);
  } catch {
    // ESRCH: no such process; EPERM: exists, but not ours to signal.
  }
}
process.stderr.write(`probe ${process.pid} (parent ${process.ppid}) could signal: ${JSON.stringify(signalable)}\n`);
process.exitCode = 70;
