/** What the range assignor needs to know about one member of the group. */
export interface MemberSubscription {
  /** The topics the member subscribed to (from its decoded subscription), possibly with repeats. */
  topics: readonly string[];
  /** The member's group.instance.id when it is a static member; `null` for a dynamic member. */
  groupInstanceId: string | null;
}

/** Member id to topic to the partitions that member owns, ascending. */
export type Assignment = Map<string, Map<string, number[]>>;

interface Member {
  memberId: string;
  groupInstanceId: string | null;
}

/** Java's String.compareTo: UTF-16 code units, which is what `<` does on JS strings. */
function byId(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Static members first (by instance id), then dynamic ones by member id. */
function compareMembers(a: Member, b: Member): number {
  const aStatic = a.groupInstanceId !== null;
  const bStatic = b.groupInstanceId !== null;
  if (aStatic && bStatic) return byId(a.groupInstanceId!, b.groupInstanceId!);
  if (aStatic) return -1;
  if (bStatic) return 1;
  return byId(a.memberId, b.memberId);
}

/**
 * Assigns partitions to members exactly as Kafka's range assignor does
 * (clients/src/main/java/org/apache/kafka/clients/consumer/RangeAssignor.java, Kafka 3.x).
 *
 * For every topic independently: take the members subscribed to it (each once), in Kafka's member
 * order (members with a group instance id first, by instance id; then the rest by member id; both
 * compared by UTF-16 code units, as Java's String.compareTo does); with n partitions and m members
 * every member gets n div m consecutive partitions and the first n mod m members one more, member
 * i starting at (n div m) * i + min(i, n mod m). A subscribed topic missing from
 * `partitionsPerTopic` is skipped; a topic nobody subscribed to is not assigned.
 *
 * @param partitionsPerTopic topic name to partition count (integer >= 0), from cluster metadata
 * @param subscriptions member id to subscription, in the order the coordinator listed the members
 * @returns every member id of `subscriptions`, each mapped to topic to ascending partitions
 */
export function assignRange(
  partitionsPerTopic: ReadonlyMap<string, number>,
  subscriptions: ReadonlyMap<string, MemberSubscription>,
): Assignment {
  const assignment: Assignment = new Map();
  const subscribers = new Map<string, Member[]>();

  for (const [memberId, subscription] of subscriptions) {
    assignment.set(memberId, new Map());
    const member: Member = { memberId, groupInstanceId: subscription.groupInstanceId ?? null };
    for (const topic of new Set(subscription.topics)) {
      let list = subscribers.get(topic);
      if (list === undefined) {
        list = [];
        subscribers.set(topic, list);
      }
      list.push(member);
    }
  }

  for (const [topic, members] of subscribers) {
    const numPartitions = partitionsPerTopic.get(topic);
    if (numPartitions === undefined) continue; // not in the metadata: skip it

    members.sort(compareMembers);
    const m = members.length;
    const perMember = Math.floor(numPartitions / m);
    const withExtra = numPartitions % m;

    for (let i = 0; i < m; i++) {
      const start = perMember * i + Math.min(i, withExtra);
      const length = perMember + (i < withExtra ? 1 : 0);
      if (length === 0) continue;
      const partitions: number[] = [];
      for (let p = start; p < start + length; p++) partitions.push(p);
      partitions.sort(); // ascending
      assignment.get(members[i]!.memberId)!.set(topic, partitions);
    }
  }

  return assignment;
}
