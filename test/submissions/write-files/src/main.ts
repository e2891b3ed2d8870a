// Tries to leave files behind: in its working folder and in /tmp. Both must be denied.
import { writeFileSync } from "node:fs";
for (const path of ["left-behind.txt", `/tmp/hostile-was-here-${process.pid}`]) {
  writeFileSync(path, "hostile\n"); // throws ERR_ACCESS_DENIED under the sandbox
}
process.stdout.write("{}\n");
