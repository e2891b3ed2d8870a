// Floods standard output with blocking writes, so the pipe fills faster than anything could use
// it (status error, reason output-cap).
import { writeSync } from "node:fs";
const line = "x".repeat(1024) + "\n";
for (;;) writeSync(1, line);
