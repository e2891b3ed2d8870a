/** What the range assignor needs to know about one member of the group. */
export interface MemberSubscription {
  /** The topics the member subscribed to (from its decoded subscription), possibly with repeats. */
  topics: readonly string[];
  /** The member's group.instance.id when it is a static member; `null` for a dynamic member. */
  groupInstanceId: string | null;
  /**
   * The member's rack (its `client.rack`: the `rackId` of a version-3 subscription), as decoded;
   * `null` or `""` means the member has no rack.
   */
  rackId: string | null;
}

/**
 * Topic to one entry per partition (partition 0 first), each the racks of that partition's
 * replicas in replica order, `null` for a replica whose broker has no rack. A topic absent from
 * the map has replicas without racks.
 */
export type PartitionRacks = ReadonlyMap<string, readonly (readonly (string | null)[])[]>;

/** Member id to topic to the partitions that member owns, ascending. */
export type Assignment = Map<string, Map<string, number[]>>;

const byId = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Assigns partitions to members exactly as Kafka's range assignor does
 * (clients/src/main/java/org/apache/kafka/clients/consumer/RangeAssignor.java).
 *
 * For every topic independently: take the members subscribed to it, sorted by member id
 * (UTF-16 code units); with n partitions and m members every member gets n div m consecutive
 * partitions and the first n mod m members one more, member i starting at
 * (n div m) * i + min(i, n mod m). A subscribed topic missing from `partitionsPerTopic` is
 * skipped; a topic nobody subscribed to is not assigned.
 *
 * @param partitionsPerTopic topic name to partition count (integer >= 0), from cluster metadata
 * @param subscriptions member id to subscription, in the order the coordinator listed the members
 * @param partitionRacks not used yet (the rack stage is an extension)
 * @returns every member id of `subscriptions`, each mapped to topic to ascending partitions
 * @throws nothing for valid arguments (the inputs are not modified)
 */
export function assignRange(
  partitionsPerTopic: ReadonlyMap<string, number>,
  subscriptions: ReadonlyMap<string, MemberSubscription>,
  partitionRacks: PartitionRacks = new Map(),
): Assignment {
  // TODO (extension): static members first, racks.
  void partitionRacks;
  const result: Assignment = new Map();
  const consumersPerTopic = new Map<string, string[]>();
  for (const [memberId, sub] of subscriptions) {
    result.set(memberId, new Map());
    for (const topic of sub.topics) {
      const list = consumersPerTopic.get(topic) ?? [];
      list.push(memberId);
      consumersPerTopic.set(topic, list);
    }
  }

  for (const [topic, consumers] of consumersPerTopic) {
    const n = partitionsPerTopic.get(topic);
    if (n === undefined) continue;
    consumers.sort(byId);
    const m = consumers.length;
    const q = Math.floor(n / m);
    const r = n % m;
    for (let i = 0; i < m; i++) {
      const start = q * i + Math.min(i, r);
      const count = q + (i < r ? 1 : 0);
      if (count === 0) continue;
      const partitions: number[] = [];
      for (let p = start; p < start + count; p++) partitions.push(p);
      result.get(consumers[i]!)!.set(topic, partitions);
    }
  }
  return result;
}
