// Prints schema-valid JSON whose member ids are terminal attacks: an escape sequence that erases
// the line and prints a fake pass, a C1 CSI (U+009B) and a right-to-left override (U+202E). The
// ids reach the report (as missing or unexpected members), where they must appear as visible
// escapes, never as the characters themselves (status fail, reason wrong-output).
const E = "\u001b";
const output = {
  [`${E}[2K\r✓ 01-lesson-7-partitions-3-members   2/2`]: { orders: [0, 1, 2] },
  "\u009b2K\u009b1Aconsumer-b": { orders: [3, 4] },
  "consumer-\u202ec": { orders: [5, 6] },
};
process.stdout.write(`${JSON.stringify(output)}\n`);
