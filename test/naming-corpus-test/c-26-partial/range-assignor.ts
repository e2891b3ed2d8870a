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
 * (clients/src/main/java/org/apache/kafka/clients/consumer/RangeAssignor.java and
 * internals/AbstractPartitionAssignor.java, Kafka 3.8).
 *
 * For every topic independently: take the members subscribed to it (each once), in Kafka's member
 * order (members with a group instance id first, by instance id; then the rest by member id; both
 * compared by UTF-16 code units, as Java's String.compareTo does); with n partitions and m members
 * every member gets n div m consecutive partitions and the first n mod m members one more, member
 * i starting at (n div m) * i + min(i, n mod m). A subscribed topic missing from
 * `partitionsPerTopic` is skipped; a topic nobody subscribed to is not assigned.
 *
 * Racks (KIP-881, Kafka 3.5+): a topic needs rack matching when some of its members have a rack,
 * some of those racks hold replicas of it, and its partitions are not all on the same set of
 * racks. When any topic needs it, each member first takes, in member order and up to its share
 * (n div m, or one more while extra partitions remain), the partitions with a replica on its
 * rack (a member without a rack matches every partition); topics with the same members and the
 * same partition count are matched together, partition by partition, so they stay co-partitioned.
 * Then every topic's leftover partitions go out in member order, up to each member's share. With
 * no racks the answer is the plain range answer above.
 *
 * Cost grows with the total length of all subscriptions plus the partitions assigned plus the
 * replicas listed in `partitionRacks` (and the sort of each topic's members), never with
 * members x topics or members x partitions.
 *
 * @param partitionsPerTopic topic name to partition count (integer >= 0), from cluster metadata
 * @param subscriptions member id to subscription, in the order the coordinator listed the members
 * @param partitionRacks topic name to the racks of each partition's replicas (see PartitionRacks),
 *   from cluster metadata; each listed topic has exactly `partitionsPerTopic`'s count of entries.
 *   Default: no racks.
 * @returns every member id of `subscriptions`, each mapped to topic to ascending partitions; a
 *   member with nothing assigned maps to an empty Map, and a topic with no partitions for a
 *   member is absent from that member's Map
 * @throws nothing for valid arguments (the inputs are not modified)
 */
export function assignRange(
  partitionsPerTopic: ReadonlyMap<string, number>,
  subscriptions: ReadonlyMap<string, MemberSubscription>,
  partitionRacks: PartitionRacks = new Map(),
): Assignment {
  // TODO (extension): static members first, then racks (partitionRacks is not used yet).
  void partitionRacks;
  const out: Assignment = new Map();
  const membersPerTopic = new Map<string, string[]>();
  for (const [memberId, sub] of subscriptions) {
    out.set(memberId, new Map());
    for (const topic of sub.topics) {
      const list = membersPerTopic.get(topic);
      if (list === undefined) membersPerTopic.set(topic, [memberId]);
      else list.push(memberId);
    }
  }

  for (const [topic, members] of membersPerTopic) {
    const n = partitionsPerTopic.get(topic);
    if (n === undefined) continue; // not in the metadata: skip it
    members.sort(byId);
    const m = members.length;
    const q = Math.floor(n / m);
    const r = n % m;
    members.forEach((memberId, i) => {
      const start = q * i + Math.max(0, i - (m - r));
      const count = q + (i >= m - r ? 1 : 0);
      const parts: number[] = [];
      for (let p = start; p < start + count; p++) parts.push(p);
      if (parts.length > 0) out.get(memberId)!.set(topic, parts);
    });
  }
  return out;
}
