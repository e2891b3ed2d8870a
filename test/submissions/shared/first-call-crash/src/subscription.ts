// Throws on its first call in a module instance: every case, alone, crashes (exit 70).
import { decodeSubscription as reference } from "./reference-subscription.ts";
export * from "./reference-subscription.ts";

let called = false;

export function decodeSubscription(bytes: Uint8Array): ReturnType<typeof reference> {
  if (!called) {
    called = true;
    throw new Error("first call");
  }
  return reference(bytes);
}
