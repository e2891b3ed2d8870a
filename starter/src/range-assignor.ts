import { NotImplementedError } from "./not-implemented.ts";

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
  // TODO: one range assignment per topic, in Kafka's member order (LESSON.md#the-range-assignor).
  throw new NotImplementedError("assignRange");
}
