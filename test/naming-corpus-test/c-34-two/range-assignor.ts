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
  memberId: string;
  groupInstanceId: string | null;
  rack: string | null;
}

const byId = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Kafka's member order: static members first by instance id, then dynamic ones by member id. */
function compareMembers(a: Member, b: Member): number {
  const aStatic = a.groupInstanceId !== null;
  const bStatic = b.groupInstanceId !== null;
  if (aStatic && bStatic) return byId(a.groupInstanceId!, b.groupInstanceId!);
  if (aStatic) return -1;
  if (bStatic) return 1;
  return byId(a.memberId, b.memberId);
}

/** One topic's assignment in progress (Kafka's TopicAssignmentState). */
class TopicState {
  readonly assigned = new Map<string, number>();
  readonly unassigned: boolean[];
  /** Every partition below it is assigned (partitions are never unassigned again). */
  cursor = 0;
  readonly quota: number;
  extras: number;
  /** Partition to its set of replica racks (empty when no member of the topic has a rack). */
  readonly partitionRacks: Set<string>[];
  readonly needsRackMatching: boolean;
  readonly hasMemberRack: boolean;

  constructor(
    readonly topic: string,
    readonly numPartitions: number,
    readonly members: Member[],
    racks: readonly (readonly (string | null)[])[] | undefined,
  ) {
    this.unassigned = new Array<boolean>(numPartitions).fill(true);
    this.quota = members.length === 0 ? 0 : Math.floor(numPartitions / members.length);
    this.extras = members.length === 0 ? 0 : numPartitions % members.length;
    for (const m of members) this.assigned.set(m.memberId, 0);

    const memberRacks = new Set<string>();
    for (const m of members) if (m.rack !== null) memberRacks.add(m.rack);
    this.hasMemberRack = memberRacks.size > 0;
    this.partitionRacks = [];
    const allRacks = new Set<string>();
    if (this.hasMemberRack) {
      for (let p = 0; p < numPartitions; p++) {
        const set = new Set<string>();
        for (const r of racks?.[p] ?? []) if (r !== null) set.add(r);
        this.partitionRacks.push(set);
        for (const r of set) allRacks.add(r);
      }
    }
    let needs = false;
    if (this.hasMemberRack && [...memberRacks].some((r) => allRacks.has(r))) {
      needs = !this.partitionRacks.every(
        (s) => s.size === allRacks.size && [...s].every((r) => allRacks.has(r)),
      );
    }
    this.needsRackMatching = needs;
  }

  maxAssignable(memberId: string): number {
    const max = this.quota + (this.extras > 0 ? 1 : 0) - (this.assigned.get(memberId) ?? 0);
    return Math.max(0, max);
  }

  racksMatch(member: Member, p: number): boolean {
    if (member.rack === null) return true;
    return this.partitionRacks[p]?.has(member.rack) ?? false;
  }

  assign(memberId: string, partitions: number[], out: Assignment): void {
    if (partitions.length === 0) return;
    const n = (this.assigned.get(memberId) ?? 0) + partitions.length;
    this.assigned.set(memberId, n);
    if (n > this.quota) this.extras--;
    for (const p of partitions) this.unassigned[p] = false;
    const mine = out.get(memberId)!;
    const list = mine.get(this.topic);
    if (list === undefined) mine.set(this.topic, [...partitions]);
    else list.push(...partitions);
  }

  /** Each member in order takes its lowest unassigned partitions (on its rack when `byRack`), up to its share. */
  assignRanges(byRack: boolean, out: Assignment): void {
    let rackIndex: Map<string, number[]> | undefined;
    const rackCursor = new Map<string, number>();
    if (byRack) {
      rackIndex = new Map();
      this.partitionRacks.forEach((racks, p) => {
        for (const r of racks) {
          const list = rackIndex!.get(r);
          if (list === undefined) rackIndex!.set(r, [p]);
          else list.push(p);
        }
      });
    }
    for (const m of this.members) {
      if (byRack && m.rack === null) continue; // no rack to match
      let room = this.maxAssignable(m.memberId);
      if (room === 0) continue;
      const take: number[] = [];
      if (!byRack || m.rack === null) {
        while (this.cursor < this.numPartitions && room > 0) {
          if (this.unassigned[this.cursor]) {
            take.push(this.cursor);
            room--;
          }
          this.cursor++;
        }
      } else {
        const list = rackIndex!.get(m.rack) ?? [];
        let i = rackCursor.get(m.rack) ?? 0;
        while (i < list.length && room > 0) {
          const p = list[i]!;
          if (this.unassigned[p]) {
            take.push(p);
            room--;
          }
          i++;
        }
        rackCursor.set(m.rack, i);
      }
      this.assign(m.memberId, take, out);
    }
  }
}

/** Co-partitioned topics (same members, same count) matched partition by partition together. */
function assignCoPartitioned(states: TopicState[], numPartitions: number, out: Assignment): void {
  let remaining = [...states[0]!.members];
  for (let p = 0; p < numPartitions && remaining.length > 0; p++) {
    const match = remaining.find((m) =>
      states.every((t) => t.racksMatch(m, p) && t.maxAssignable(m.memberId) > 0),
    );
    if (match === undefined) continue;
    for (const t of states) t.assign(match.memberId, [p], out);
    if (states.every((t) => t.maxAssignable(match.memberId) === 0)) {
      remaining = remaining.filter((m) => m !== match);
    }
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
  const out: Assignment = new Map();
  const membersPerTopic = new Map<string, Member[]>();
  for (const [memberId, sub] of subscriptions) {
    out.set(memberId, new Map());
    const rack = sub.rackId === null || sub.rackId === "" ? null : sub.rackId;
    const member: Member = { memberId, groupInstanceId: sub.groupInstanceId, rack };
    for (const topic of new Set(sub.topics)) {
      let list = membersPerTopic.get(topic);
      if (list === undefined) {
        list = [];
        membersPerTopic.set(topic, list);
      }
      list.push(member);
    }
  }

  const states: TopicState[] = [];
  for (const [topic, members] of membersPerTopic) {
    const n = partitionsPerTopic.get(topic);
    if (n === undefined || n === 0) continue;
    members.sort(compareMembers);
    states.push(new TopicState(topic, n, members, partitionRacks.get(topic)));
  }

  const rackAware = states.some((t) => t.needsRackMatching);
  if (!rackAware) {
    // Plain range: member i gets count(i) partitions from start(i).
    for (const t of states) {
      const m = t.members.length;
      t.members.forEach((member, i) => {
        const start = Math.round((i * t.numPartitions) / m);
        const count = Math.round(((i + 1) * t.numPartitions) / m) - start;
        const parts: number[] = [];
        for (let p = start; p < start + count; p++) parts.push(p);
        if (parts.length > 0) out.get(member.memberId)!.set(t.topic, parts);
      });
    }
    return out;
  }
  // Rack pass. Topics grouped by (same members with the same racks, same partition count).
  const groups = new Map<string, TopicState[]>();
  for (const t of states) {
    const key = JSON.stringify([t.numPartitions, t.members.map((m) => [m.memberId, m.rack])]);
    const g = groups.get(key);
    if (g === undefined) groups.set(key, [t]);
    else g.push(t);
  }
  for (const group of groups.values()) {
    if (group.length > 1) assignCoPartitioned(group, group[0]!.numPartitions, out);
    else if (group[0]!.needsRackMatching) group[0]!.assignRanges(true, out);
  }
  // Leftovers: every topic, members in order, lowest free partitions up to each share.
  for (const t of states) t.assignRanges(false, out);

  for (const topics of out.values()) {
    for (const list of topics.values()) list.sort((a, b) => a - b);
  }
  return out;
}
