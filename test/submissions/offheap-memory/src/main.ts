// Holds twenty 100 MB Buffers (2 GB) outside the JavaScript heap, where --max-old-space-size
// does not reach: only the kernel's data limit stops it (status error, reason memory; never a
// pass, and never a crash that hides why).
const held: Buffer[] = [];
for (let i = 0; i < 20; i++) held.push(Buffer.alloc(100 * 1024 * 1024, i + 1));
process.stdout.write(`{"held": ${held.length}}\n`);
