/** What the range assignor needs to know about one member of the group. */
export interface MemberSubscription {
  /** The topics the member subscribed to (from its decoded subscription), possibly with repeats. */
  topics: readonly string[];
  /** The member's group.instance.id when it is a static member; `null` for a dynamic member. */
  groupInstanceId: string | null;
}

/** Member id to topic to the partitions that member owns, ascending. */
export type Assignment = Map<string, Map<string, number[]>>;

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
 * Cost grows with the total length of all subscriptions plus the partitions assigned (and the
 * sort of each topic's members), never with members x topics.
 *
 * @param partitionsPerTopic topic name to partition count (integer >= 0), from cluster metadata
 * @param subscriptions member id to subscription, in the order the coordinator listed the members
 * @returns every member id of `subscriptions`, each mapped to topic to ascending partitions; a
 *   member with nothing assigned maps to an empty Map, and a topic with no partitions for a
 *   member is absent from that member's Map
 * @throws nothing for valid arguments (the inputs are not modified)
 */
export function assignRange(
  partitionsPerTopic: ReadonlyMap<string, number>,
  subscriptions: ReadonlyMap<string, MemberSubscription>,
): Assignment {
  // canary: reference body of assignRange — must never appear in a handout
  const assignment: Assignment = new Map();
  for (const memberId of subscriptions.keys()) assignment.set(memberId, new Map());

  for (const [topic, consumersForTopic] of consumersPerTopic(subscriptions)) {
    const numPartitionsForTopic = partitionsPerTopic.get(topic);
    if (numPartitionsForTopic === undefined) continue; // no metadata: the leader cannot assign it

    consumersForTopic.sort(compareMembers);
    consumersForTopic.forEach((member, i) => {
      const partitions = rangeForConsumer(i, consumersForTopic.length, numPartitionsForTopic);
      if (partitions.length > 0) assignment.get(member.memberId)?.set(topic, partitions);
    });
  }
  return assignment;
}

/** One member as the assignor sees it (Kafka's AbstractPartitionAssignor.MemberInfo). */
interface MemberInfo {
  memberId: string;
  groupInstanceId: string | null;
}

/**
 * Topic to the members subscribed to it, each member once (AbstractPartitionAssignor's
 * consumersPerTopic; Kafka counts a member that listed a topic twice once). assignRange sorts
 * each list, as Kafka does; the members are visited here in that order already, so each list is
 * built sorted and its sort is one pass (one sort of all members instead of one per topic).
 */
function consumersPerTopic(
  subscriptions: ReadonlyMap<string, MemberSubscription>,
): Map<string, MemberInfo[]> {
  const members = [...subscriptions].map(([memberId, { topics, groupInstanceId }]) => ({
    member: { memberId, groupInstanceId },
    topics,
  }));
  members.sort((a, b) => compareMembers(a.member, b.member));
  const topicToConsumers = new Map<string, MemberInfo[]>();
  for (const { member, topics } of members) {
    for (const topic of topics) {
      const consumers = topicToConsumers.get(topic);
      if (consumers === undefined) topicToConsumers.set(topic, [member]);
      // A topic this member listed before: the member is still last in the topic's list.
      else if (consumers.at(-1) !== member) consumers.push(member);
    }
  }
  return topicToConsumers;
}

/**
 * Kafka's member order (MemberInfo.compareTo): members with a group instance id (static members)
 * first, by instance id; then the others by member id.
 */
function compareMembers(a: MemberInfo, b: MemberInfo): number {
  if (a.groupInstanceId !== null && b.groupInstanceId !== null) {
    return compareCodeUnits(a.groupInstanceId, b.groupInstanceId);
  }
  if (a.groupInstanceId !== null) return -1;
  if (b.groupInstanceId !== null) return 1;
  return compareCodeUnits(a.memberId, b.memberId);
}

/** Java's String.compareTo order: UTF-16 code units, no locale, no normalisation. */
function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The partitions RangeAssignor gives one consumer of a topic: with n partitions and m consumers,
 * every consumer gets numPartitionsPerConsumer (n div m) consecutive partitions and the first
 * consumersWithExtraPartition (n mod m) consumers one more, so consumer i starts at
 * numPartitionsPerConsumer * i + min(i, consumersWithExtraPartition).
 *
 * @param i the consumer's place (0-based) in the topic's consumers, sorted by compareMembers
 * @param numConsumers m, the topic's consumers (at least 1)
 * @param numPartitionsForTopic n, the topic's partition count (an integer >= 0)
 * @returns the consumer's partitions, ascending; empty when n < m leaves it none
 */
function rangeForConsumer(
  i: number,
  numConsumers: number,
  numPartitionsForTopic: number,
): number[] {
  const numPartitionsPerConsumer = Math.floor(numPartitionsForTopic / numConsumers);
  const consumersWithExtraPartition = numPartitionsForTopic % numConsumers;
  const start = numPartitionsPerConsumer * i + Math.min(i, consumersWithExtraPartition);
  const length = numPartitionsPerConsumer + (i < consumersWithExtraPartition ? 1 : 0);
  const partitions: number[] = [];
  for (let p = start; p < start + length; p++) partitions.push(p);
  return partitions;
}
