// Floods standard error with blocking writes (status error, reason output-cap).
import { writeSync } from "node:fs";
const line = "e".repeat(1024) + "\n";
for (;;) writeSync(2, line);
