// Writes terminal escape sequences on standard error: move up, erase the line, print a fake pass,
// then hide what follows. The report must show them as visible escapes, never act on them.
const E = "\u001b";
process.stderr.write(`${E}[1A${E}[2K\r${E}[32m✓ 01-lesson-7-partitions-3-members   2/2${E}[0m${E}[8m\u202e\n`);
process.exitCode = 70;
