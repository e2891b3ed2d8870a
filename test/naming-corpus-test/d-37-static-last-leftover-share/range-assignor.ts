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

interface Member {
  id: string;
  instanceId: string | null;
  /** null when the member has no rack ("" counts as none). */
  rack: string | null;
}

/** Plain UTF-16 code unit order, like Java's String.compareTo. */
function byId(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Kafka's member order: static members first by instance id, then the rest by member id. */
function compareMembers(a: Member, b: Member): number {
  const aStatic = a.instanceId !== null;
  const bStatic = b.instanceId !== null;
  if (aStatic && bStatic) return byId(a.instanceId!, b.instanceId!);
  if (aStatic) return 1;
  if (bStatic) return -1;
  return byId(a.id, b.id);
}

/** One topic while it is being assigned: who may still take how many, and what is left. */
class TopicState {
  readonly perMember: number;
  extraLeft: number;
  readonly taken: boolean[];
  readonly counts = new Map<string, number>();
  /** Per partition, the set of racks of its replicas (empty when unknown). */
  readonly racks: Set<string>[];
  readonly needsRackMatching: boolean;
  /** Lowest partition that might still be free (everything below is taken). */
  private low = 0;

  constructor(
    readonly topic: string,
    readonly n: number,
    readonly members: Member[],
    replicaRacks: readonly (readonly (string | null)[])[] | undefined,
  ) {
    const m = members.length;
    this.perMember = m === 0 ? 0 : Math.floor(n / m);
    this.extraLeft = m === 0 ? 0 : n % m;
    this.taken = new Array<boolean>(n).fill(false);
    for (const member of members) this.counts.set(member.id, 0);

    this.racks = [];
    for (let p = 0; p < n; p++) {
      const set = new Set<string>();
      for (const rack of replicaRacks?.[p] ?? []) if (rack !== null) set.add(rack);
      this.racks.push(set);
    }
    this.needsRackMatching = this.computeNeedsRackMatching();
  }

  private computeNeedsRackMatching(): boolean {
    const memberRacks = new Set<string>();
    for (const member of this.members) if (member.rack !== null) memberRacks.add(member.rack);
    if (memberRacks.size === 0) return false;
    let anyOnMemberRack = false;
    for (const set of this.racks) {
      for (const rack of set) if (memberRacks.has(rack)) anyOnMemberRack = true;
    }
    if (!anyOnMemberRack) return false;
    const key = (set: Set<string>): string => JSON.stringify([...set].sort(byId));
    const first = key(this.racks[0] ?? new Set());
    return this.racks.some((set) => key(set) !== first);
  }

  /** How many more partitions of this topic the member may take now. */
  room(memberId: string): number {
    const have = this.counts.get(memberId) ?? 0;
    return Math.max(0, this.perMember + (this.extraLeft > 0 ? 1 : 0) - have);
  }

  matches(member: Member, p: number): boolean {
    return member.rack === null || (this.racks[p]?.has(member.rack) ?? false);
  }

  give(member: Member, p: number, assignment: Assignment): void {
    this.taken[p] = true;
    const have = (this.counts.get(member.id) ?? 0) + 1;
    this.counts.set(member.id, have);
    if (have > this.perMember) this.extraLeft--;
    const mine = assignment.get(member.id)!;
    let list = mine.get(this.topic);
    if (list === undefined) {
      list = [];
      mine.set(this.topic, list);
    }
    list.push(p);
  }

  /** Rack pass for a topic on its own: each member takes its lowest free partitions on its rack. */
  rackPass(assignment: Assignment): void {
    for (const member of this.members) {
      let room = this.room(member.id);
      for (let p = 0; p < this.n && room > 0; p++) {
        if (!this.taken[p] && this.matches(member, p)) {
          this.give(member, p, assignment);
          room--;
        }
      }
    }
  }

  /** The plain range answer: member i gets q, the first r one more, consecutive from q*i + min(i, r). */
  plainRange(assignment: Assignment): void {
    const q = this.perMember;
    const r = this.extraLeft;
    this.members.forEach((member, i) => {
      const start = q * i + Math.min(i, r);
      const count = q + (i < r ? 1 : 0);
      for (let p = start; p < start + count; p++) this.give(member, p, assignment);
    });
  }

  /** Whatever is left goes out in member order, lowest first, up to each member's share. */
  leftovers(assignment: Assignment): void {
    for (const member of this.members) {
      let room = this.perMember + 1 - (this.counts.get(member.id) ?? 0);
      while (room > 0) {
        while (this.low < this.n && this.taken[this.low]) this.low++;
        if (this.low >= this.n) return;
        this.give(member, this.low, assignment);
        room--;
      }
    }
  }
}

/** Co-partitioned topics (same members, same count) matched together, partition by partition. */
function coPartitionedPass(states: TopicState[], assignment: Assignment): void {
  const first = states[0]!;
  const remaining = [...first.members];
  for (let p = 0; p < first.n && remaining.length > 0; p++) {
    const index = remaining.findIndex((member) =>
      states.every((s) => s.matches(member, p) && s.room(member.id) > 0),
    );
    if (index < 0) continue;
    const member = remaining[index]!;
    for (const s of states) s.give(member, p, assignment);
    if (states.every((s) => s.room(member.id) === 0)) remaining.splice(index, 1);
  }
}

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
  const assignment: Assignment = new Map();
  const membersByTopic = new Map<string, Member[]>();
  for (const [id, sub] of subscriptions) {
    assignment.set(id, new Map());
    const member: Member = {
      id,
      instanceId: sub.groupInstanceId,
      rack: sub.rackId === null || sub.rackId === "" ? null : sub.rackId,
    };
    for (const topic of new Set(sub.topics)) {
      if (!partitionsPerTopic.has(topic)) continue;
      let list = membersByTopic.get(topic);
      if (list === undefined) {
        list = [];
        membersByTopic.set(topic, list);
      }
      list.push(member);
    }
  }

  const states: TopicState[] = [];
  for (const [topic, members] of membersByTopic) {
    const n = partitionsPerTopic.get(topic) ?? 0;
    if (n === 0) continue;
    members.sort(compareMembers);
    states.push(new TopicState(topic, n, members, partitionRacks.get(topic)));
  }

  if (!states.some((s) => s.needsRackMatching)) {
    // No topic needs racks: the plain range answer, topic by topic.
    for (const s of states) s.plainRange(assignment);
  } else {
    const groups = new Map<string, TopicState[]>();
    for (const s of states) {
      const key = JSON.stringify([s.n, s.members.map((member) => member.id)]);
      const group = groups.get(key);
      if (group === undefined) groups.set(key, [s]);
      else group.push(s);
    }
    for (const group of groups.values()) {
      if (group.length > 1) coPartitionedPass(group, assignment);
      else if (group[0]!.needsRackMatching) group[0]!.rackPass(assignment);
    }
    for (const s of states) s.leftovers(assignment);
  }

  for (const topics of assignment.values()) {
    for (const list of topics.values()) list.sort((a, b) => a - b);
  }
  return assignment;
}
