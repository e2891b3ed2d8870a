// Allocates until the heap limit kills it (status error, reason memory).
const hoard: number[][] = [];
for (;;) hoard.push(new Array(1_000_000).fill(7));
