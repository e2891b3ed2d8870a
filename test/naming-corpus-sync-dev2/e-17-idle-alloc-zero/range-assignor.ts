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
  // canary: reference body of assignRange — must never appear in a handout
  const assignment: Assignment = new Map();
  for (const memberId of subscriptions.keys()) assignment.set(memberId, new Map());

  const topicToConsumers = consumersPerTopic(subscriptions);
  // Racks first, when Kafka uses them: the topics they touched finish there.
  const rackMatched = assignWithRackMatching(
    partitionsPerTopic,
    topicToConsumers,
    consumerRacks(subscriptions),
    partitionRacks,
  );

  for (const [topic, consumersForTopic] of topicToConsumers) {
    const numPartitionsForTopic = partitionsPerTopic.get(topic);
    if (numPartitionsForTopic === undefined) continue; // no metadata: the leader cannot assign it

    const state = rackMatched.get(topic);
    if (state !== undefined) {
      state.assignLeftovers();
      state.writeTo(assignment);
      continue;
    }
    consumersForTopic.sort(compareMembers);
    const numConsumers = consumersForTopic.length;
    for (let i = 0; i < numConsumers; i++) {
      const partitions = rangeForConsumer(i, numConsumers, numPartitionsForTopic);
      const member = consumersForTopic[i];
      if (partitions.length > 0 && member !== undefined) {
        assignment.get(member.memberId)?.set(topic, partitions);
      }
    }
  }
  return assignment;
}

/** One member as the assignor sees it (Kafka's AbstractPartitionAssignor.MemberInfo). */
interface MemberInfo {
  memberId: string;
  groupInstanceId: string | null;
}

/**
 * Topic to the members subscribed to it, in the order the members came, each member once
 * (RangeAssignor.consumersPerTopic; Kafka counts a member that listed a topic twice once). The
 * lists are not sorted yet: whoever uses one sorts it by compareMembers, as Kafka does.
 */
function consumersPerTopic(
  subscriptions: ReadonlyMap<string, MemberSubscription>,
): Map<string, MemberInfo[]> {
  const topicToConsumers = new Map<string, MemberInfo[]>();
  for (const [memberId, { topics, groupInstanceId }] of subscriptions) {
    const member: MemberInfo = { memberId, groupInstanceId };
    for (const topic of topics) {
      const consumers = topicToConsumers.get(topic);
      if (consumers === undefined) topicToConsumers.set(topic, [member]);
      // A topic this member listed before: it was the last member added to the topic's list.
      else if (consumers[consumers.length - 1] !== member) consumers.push(member);
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

/**
 * Member id to rack, for the members that have one (RangeAssignor.consumerRacks): a null or empty
 * rack id means no rack.
 */
function consumerRacks(
  subscriptions: ReadonlyMap<string, MemberSubscription>,
): Map<string, string> {
  const racks = new Map<string, string>();
  for (const [memberId, { rackId }] of subscriptions) {
    if (rackId !== null && rackId !== "") racks.set(memberId, rackId);
  }
  return racks;
}

/**
 * The rack pass of RangeAssignor.assignPartitions (Kafka 3.8). Nothing happens unless some topic
 * needs rack matching (TopicAssignmentState.needsRackAwareAssignment). Then, among the topics
 * whose members have racks, those with the same members and the same partition count are matched
 * together (assignCoPartitionedWithRackMatching), whether or not each needs it; a topic alone in
 * its group is matched only if it needs it.
 *
 * @returns topic to its state, for every topic this pass may have assigned partitions of; those
 *   topics' leftovers are assigned from the state, the others by the plain range formula
 */
function assignWithRackMatching(
  partitionsPerTopic: ReadonlyMap<string, number>,
  topicToConsumers: ReadonlyMap<string, readonly MemberInfo[]>,
  racks: ReadonlyMap<string, string>,
  partitionRacks: PartitionRacks,
): Map<string, TopicAssignmentState> {
  const matched = new Map<string, TopicAssignmentState>();
  if (racks.size === 0) return matched; // no member has a rack: no topic can need it

  const states: TopicAssignmentState[] = [];
  for (const [topic, consumersForTopic] of topicToConsumers) {
    const numPartitions = partitionsPerTopic.get(topic) ?? 0;
    if (numPartitions === 0) continue; // Kafka leaves out topics without partitions
    const state = new TopicAssignmentState(
      topic,
      numPartitions,
      consumersForTopic,
      racks,
      partitionRacks.get(topic),
    );
    // A topic none of whose members has a rack is never matched (Kafka's group of size 0).
    if (state.hasConsumerRacks) states.push(state);
  }
  if (!states.some((state) => state.needsRackAwareAssignment)) return matched;

  // Same members (in Kafka's order, so the same list of ids) and the same partition count.
  const groups = new Map<string, TopicAssignmentState[]>();
  for (const state of states) {
    const memberIds = state.consumers.map((c) => c.memberId);
    const key = JSON.stringify([state.numPartitions, memberIds]);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [state]);
    else group.push(state);
  }
  for (const group of groups.values()) {
    const [first] = group;
    if (first === undefined) continue;
    if (group.length > 1) assignCoPartitionedWithRackMatching(group);
    else if (first.needsRackAwareAssignment) first.assignRackMatched();
    else continue;
    for (const state of group) matched.set(state.topic, state);
  }
  return matched;
}

/**
 * Co-partitioned topics (same members, same partition count): partition p of every topic goes to
 * the same member, the first in Kafka's order that still has room in every topic and whose rack
 * holds a replica of partition p of every topic (a member without a rack always matches).
 * Partitions no member matches are left for the leftover pass (RangeAssignor.
 * assignCoPartitionedWithRackMatching).
 */
function assignCoPartitionedWithRackMatching(group: readonly TopicAssignmentState[]): void {
  const [first] = group;
  if (first === undefined) return;
  // Members with room, per rack and without one, each list in Kafka's order; a member that has
  // no room never gets room again in this pass, so each list is only ever read forward.
  const queues = new Map<string | null, MemberQueue>();
  first.consumers.forEach((_, c) => {
    const rack = first.consumerRacks[c] ?? null;
    const queue = queues.get(rack);
    if (queue === undefined) queues.set(rack, { consumers: [c], next: 0 });
    else queue.consumers.push(c);
  });
  const hasRoom = (c: number) => group.every((state) => state.maxAssignable(c) > 0);
  const firstWithRoom = (queue: MemberQueue | undefined): number => {
    if (queue === undefined) return Infinity;
    while (queue.next < queue.consumers.length) {
      const c = queue.consumers[queue.next] ?? Infinity;
      if (hasRoom(c)) return c;
      queue.next++;
    }
    return Infinity;
  };

  for (let p = 0; p < first.numPartitions; p++) {
    let consumer = firstWithRoom(queues.get(null));
    for (const rack of first.partitionRacks[p] ?? []) {
      if (!group.every((state) => state.partitionRacks[p]?.includes(rack) === true)) continue;
      consumer = Math.min(consumer, firstWithRoom(queues.get(rack)));
    }
    if (consumer === Infinity) continue;
    for (const state of group) state.assign(consumer, p);
  }
}

/** Member indexes in Kafka's order, read from `next` on. */
interface MemberQueue {
  consumers: number[];
  next: number;
}

/**
 * One topic's assignment in progress (RangeAssignor.TopicAssignmentState): its members in Kafka's
 * order, each member's share (numPartitionsPerConsumer, plus one while
 * remainingConsumersWithExtraPartition > 0), which partitions are still unassigned, and the racks
 * of each partition's replicas. Members are referred to by their index in `consumers`.
 */
class TopicAssignmentState {
  readonly consumers: readonly MemberInfo[];
  /** Per member: its rack, or null. */
  readonly consumerRacks: readonly (string | null)[];
  /** Per partition: the racks of its replicas, each once (nulls left out); none when no member
   * of the topic has a rack. */
  readonly partitionRacks: readonly (readonly string[])[];
  readonly hasConsumerRacks: boolean;
  readonly needsRackAwareAssignment: boolean;
  private readonly numAssignedByConsumer: number[];
  private readonly numPartitionsPerConsumer: number;
  private remainingConsumersWithExtraPartition: number;
  /** Per member: the partitions it was given, in the order it got them. */
  private readonly assigned: number[][];
  /** Per partition: the member index it went to, or -1 while it is unassigned. */
  private readonly owner: number[];
  /** Every partition below it is assigned (the leftover passes read forward from here). */
  private nextUnassigned = 0;

  constructor(
    readonly topic: string,
    readonly numPartitions: number,
    members: readonly MemberInfo[],
    racks: ReadonlyMap<string, string>,
    replicaRacks: readonly (readonly (string | null)[])[] | undefined,
  ) {
    this.consumers = [...members].sort(compareMembers);
    this.consumerRacks = this.consumers.map((c) => racks.get(c.memberId) ?? null);
    const m = this.consumers.length;
    this.numAssignedByConsumer = new Array<number>(m).fill(0);
    this.numPartitionsPerConsumer = Math.floor(numPartitions / m);
    this.remainingConsumersWithExtraPartition = numPartitions % m;
    this.assigned = this.consumers.map(() => []);
    this.owner = new Array<number>(numPartitions).fill(-1);

    const allConsumerRacks = new Set<string>();
    for (const rack of this.consumerRacks) if (rack !== null) allConsumerRacks.add(rack);
    this.hasConsumerRacks = allConsumerRacks.size > 0;
    const allPartitionRacks = new Set<string>();
    const partitionRacks: (readonly string[])[] = [];
    for (let p = 0; p < numPartitions; p++) {
      // Kafka reads replica racks only when some member of the topic has a rack.
      const racks = this.hasConsumerRacks ? distinctRacks(replicaRacks?.[p]) : [];
      for (const rack of racks) allPartitionRacks.add(rack);
      partitionRacks.push(racks);
    }
    this.partitionRacks = partitionRacks;
    this.needsRackAwareAssignment = useRackAwareAssignment(
      allConsumerRacks,
      allPartitionRacks,
      partitionRacks,
    );
  }

  /** How many more partitions member c may take now (RangeAssignor's maxAssignable). */
  maxAssignable(c: number): number {
    const extra = this.remainingConsumersWithExtraPartition > 0 ? 1 : 0;
    return Math.max(
      0,
      this.numPartitionsPerConsumer + extra - (this.numAssignedByConsumer[c] ?? 0),
    );
  }

  /** Gives partition p to member c (onAssigned, one partition at a time). */
  assign(c: number, p: number): void {
    this.owner[p] = c;
    this.assigned[c]?.push(p);
    const numAssigned = (this.numAssignedByConsumer[c] ?? 0) + 1;
    this.numAssignedByConsumer[c] = numAssigned;
    // Reached only once per member: its share then leaves it no room.
    if (numAssigned > this.numPartitionsPerConsumer) this.remainingConsumersWithExtraPartition--;
  }

  /**
   * The single-topic rack pass (assignRanges with racksMatch): each member in order takes, up to
   * its share, the lowest unassigned partitions with a replica on its rack; a member without a
   * rack takes the lowest unassigned partitions.
   */
  assignRackMatched(): void {
    const byRack = new Map<string, { partitions: number[]; next: number }>();
    this.partitionRacks.forEach((racks, p) => {
      for (const rack of racks) {
        const queue = byRack.get(rack);
        if (queue === undefined) byRack.set(rack, { partitions: [p], next: 0 });
        else queue.partitions.push(p);
      }
    });
    this.consumers.forEach((_, c) => {
      const rack = this.consumerRacks[c] ?? null;
      if (rack === null) {
        this.takeLowest(c);
        return;
      }
      const queue = byRack.get(rack);
      if (queue === undefined) return;
      let room = this.maxAssignable(c);
      while (room > 0 && queue.next < queue.partitions.length) {
        const p = queue.partitions[queue.next++] ?? 0;
        if (this.owner[p] !== -1) continue;
        this.assign(c, p);
        room--;
      }
    });
  }

  /** The last pass (assignRanges, every partition allowed): members in order, up to their share. */
  assignLeftovers(): void {
    // Like Kafka's assignRanges, it stops once no partition is left.
    for (let c = 0; c < this.consumers.length && this.nextUnassigned < this.numPartitions; c++) {
      this.takeLowest(c);
    }
  }

  /** Member c takes the lowest unassigned partitions, up to its share. */
  private takeLowest(c: number): void {
    let room = this.maxAssignable(c);
    while (room > 0 && this.nextUnassigned < this.numPartitions) {
      const p = this.nextUnassigned++;
      if (this.owner[p] !== -1) continue;
      this.assign(c, p);
      room--;
    }
  }

  /** Adds this topic's partitions to `assignment`, ascending per member. */
  writeTo(assignment: Assignment): void {
    this.consumers.forEach((member, c) => {
      // The leftover pass may give a member partitions below those its rack gave it.
      const partitions = [...(this.assigned[c] ?? [])].sort((a, b) => a - b);
      if (partitions.length > 0) assignment.get(member.memberId)?.set(this.topic, partitions);
    });
  }
}

/**
 * A partition's replica racks as Kafka collects them into a Set: each rack once, in replica
 * order, nulls (brokers without a rack) left out.
 */
function distinctRacks(replicas: readonly (string | null)[] | undefined): string[] {
  const racks = new Set<string>();
  for (const rack of replicas ?? []) if (rack !== null) racks.add(rack);
  return [...racks];
}

/**
 * Whether a topic needs rack matching (AbstractPartitionAssignor.useRackAwareAssignment): some
 * member has a rack, some such rack holds a replica, and not every partition has replicas on
 * exactly the same racks (if every partition is on every rack, matching changes nothing).
 */
function useRackAwareAssignment(
  consumerRacks: ReadonlySet<string>,
  partitionRacks: ReadonlySet<string>,
  racksPerPartition: readonly (readonly string[])[],
): boolean {
  if (consumerRacks.size === 0 || ![...consumerRacks].some((rack) => partitionRacks.has(rack))) {
    return false;
  }
  return !racksPerPartition.every(
    // Each list holds distinct racks of the union: as long as the union means equal to it.
    (racks) => racks.length === partitionRacks.size,
  );
}
