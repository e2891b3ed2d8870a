// Writes the standalone input validator into starter/src and solution/src (see validator-source.ts).
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { VALIDATOR_TARGETS, validatorFiles } from "./validator-source.ts";

const { js, dts } = validatorFiles();
for (const target of VALIDATOR_TARGETS) {
  const dir = fileURLToPath(new URL(`../${target}/`, import.meta.url));
  writeFileSync(`${dir}input-validator.js`, js);
  writeFileSync(`${dir}input-validator.d.ts`, dts);
  console.log(`wrote ${target}/input-validator.js and input-validator.d.ts`);
}
