// A module-level cache by member id: a member's first subscription is used for every later call.
// Cases 07 and 16 have members m1, m2, m3 with different subscriptions, so 16 fails only where it
// sees 07's module state.
import { assignRange as reference, type MemberSubscription } from "./reference-range-assignor.ts";
export * from "./reference-range-assignor.ts";

const cache = new Map<string, MemberSubscription>();

export function assignRange(...args: Parameters<typeof reference>): ReturnType<typeof reference> {
  const [partitionsPerTopic, subscriptions, racks] = args;
  const cached = new Map<string, MemberSubscription>();
  for (const [memberId, subscription] of subscriptions) {
    if (!cache.has(memberId)) cache.set(memberId, subscription);
    cached.set(memberId, cache.get(memberId) as MemberSubscription);
  }
  return reference(partitionsPerTopic, cached, racks);
}
