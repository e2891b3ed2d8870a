// Tries: to hold memory outside every limit the sandbox sets. Data written to a Unix socket that
// nobody reads waits in the kernel's socket buffers (about 200 KiB per connection), which neither
// the data limit (RLIMIT_DATA) nor the polled resident size counts; Node raises its own open-file
// limit to the hard one, so thousands of connections fit. It connects to an abstract socket of its
// own (its network namespace's; Node's permission model does not restrict the network), writes
// until the kernel holds TARGET bytes (1 GiB, well above the 768 MiB data limit and the
// 896 MiB tree limit), says how much on standard error and exits 2. Bounded by a count so that it
// stays polite on a shared machine. Must get: error / memory, or hold no more than the data
// limit (the sandbox bounds the kernel memory a run can pin); zero credit either way.
import { createServer, connect, type Socket } from "node:net";

const TARGET = 1024 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 0x61);
const MAX_CONNECTIONS = 12_000;
const name = `\0kit-socket-buffers-${process.pid}`;

let held = 0;
let connections = 0;
let finished = false;
const peers: Socket[] = [];

function finish(why: string): void {
  if (finished) return;
  finished = true;
  // What the kernel holds: what the writes handed it, less what the other ends read out of it.
  const read = peers.reduce((total, peer) => total + peer.bytesRead, 0);
  const mib = Math.round(Math.max(0, held - read) / (1024 * 1024));
  process.stderr.write(`held ${mib} MiB in socket buffers over ${connections} connections (${why})\n`);
  process.exit(2);
}

/**
 * Writes into one connection a chunk at a time while the kernel takes them (each write's callback
 * says it did); a write still pending after a millisecond means the buffer is full: the next
 * connection then.
 */
function fill(socket: Socket, next: () => void): void {
  let timer: NodeJS.Timeout | undefined;
  const write = () => {
    if (finished) return;
    if (held >= TARGET) return finish("target reached");
    clearTimeout(timer);
    timer = setTimeout(next, 1);
    socket.write(CHUNK, (error) => {
      // A write that failed (the connection reset) holds nothing.
      if (error) return;
      held += CHUNK.length;
      write();
    });
  };
  write();
}

const server = createServer((peer) => {
  // Accepted and never read: what the client writes stays in the kernel.
  peer.pause();
  peers.push(peer);
});
server.on("error", (e) => finish(`server: ${e.message}`));
server.listen(name, () => {
  const open = () => {
    if (finished) return;
    if (connections >= MAX_CONNECTIONS) return finish("connection cap");
    connections++;
    const socket = connect(name, () => fill(socket, open));
    socket.on("error", (e) => finish(`connection ${connections}: ${e.message}`));
  };
  open();
});
setTimeout(() => finish("time"), 60_000).unref();
