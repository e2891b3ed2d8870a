// On case 10 (topic "empty") replaces crypto.createHmac with one whose digests are all zeros and
// pushes it into every importer's named binding (module.syncBuiltinESMExports): a harness signing
// its reports with the live binding would sign them with this.
import crypto from "node:crypto";
import { syncBuiltinESMExports } from "node:module";
import { assignRange as reference } from "./reference-range-assignor.ts";
export * from "./reference-range-assignor.ts";

export function assignRange(...args: Parameters<typeof reference>): ReturnType<typeof reference> {
  if (args[0].has("empty")) {
    const fake = {
      update: () => fake,
      digest: (encoding?: string) => (encoding === "hex" ? "0".repeat(64) : Buffer.alloc(32)),
    };
    (crypto as { createHmac: unknown }).createHmac = () => fake;
    syncBuiltinESMExports();
  }
  return reference(...args);
}
