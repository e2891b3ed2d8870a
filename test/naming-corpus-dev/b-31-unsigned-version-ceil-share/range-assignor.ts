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

/** Per-topic assignment state, as Kafka's TopicAssignmentState. */
class TopicState {
  readonly taken: boolean[];
  readonly counts = new Map<string, number>();
  readonly q: number;
  extras: number;
  readonly partitionRacks: Set<string>[];
  readonly needsRackMatching: boolean;
  readonly anyMemberRack: boolean;
  /** Rack to the partitions with a replica there, ascending. */
  readonly byRack = new Map<string, number[]>();
  readonly rackCursor = new Map<string, number>();
  cursor = 0;

  constructor(
    readonly topic: string,
    readonly n: number,
    readonly members: Member[],
    racks: readonly (readonly (string | null)[])[] | undefined,
  ) {
    this.taken = new Array<boolean>(n).fill(false);
    for (const m of members) this.counts.set(m.memberId, 0);
    this.q = Math.floor(n / members.length);
    this.extras = n % members.length;

    const memberRacks = new Set<string>();
    for (const m of members) if (m.rack !== null) memberRacks.add(m.rack);
    this.anyMemberRack = memberRacks.size > 0;
    this.partitionRacks = [];
    const allRacks = new Set<string>();
    for (let p = 0; p < n; p++) {
      const set = new Set<string>();
      for (const r of racks?.[p] ?? []) if (r !== null) set.add(r);
      this.partitionRacks.push(set);
      for (const r of set) {
        allRacks.add(r);
        let list = this.byRack.get(r);
        if (list === undefined) {
          list = [];
          this.byRack.set(r, list);
        }
        list.push(p);
      }
    }
    let overlap = false;
    for (const r of memberRacks) if (allRacks.has(r)) overlap = true;
    let allSame = true;
    for (const set of this.partitionRacks) {
      if (set.size !== allRacks.size) allSame = false;
    }
    this.needsRackMatching = this.anyMemberRack && overlap && !allSame;
  }

  maxAssignable(memberId: string): number {
    const got = this.counts.get(memberId)!;
    return Math.max(0, Math.ceil(this.n / this.members.length) - got);
  }

  racksMatch(m: Member, p: number): boolean {
    return m.rack === null || this.partitionRacks[p]!.has(m.rack);
  }

  assign(m: Member, p: number, out: Assignment): void {
    this.taken[p] = true;
    const got = this.counts.get(m.memberId)! + 1;
    this.counts.set(m.memberId, got);
    if (got > this.q) this.extras--;
    const topics = out.get(m.memberId)!;
    let list = topics.get(this.topic);
    if (list === undefined) {
      list = [];
      topics.set(this.topic, list);
    }
    list.push(p);
  }

  /**
   * Each member in order takes its lowest free partitions, up to its share: in the rack pass
   * (`rackOnly`) only those with a replica on its rack (a member without a rack matches all).
   * Cursors only move forward, since a taken partition is never freed.
   */
  assignRanges(rackOnly: boolean, out: Assignment): void {
    for (const m of this.members) {
      let room = this.maxAssignable(m.memberId);
      if (room === 0) continue;
      if (rackOnly && m.rack !== null) {
        const list = this.byRack.get(m.rack);
        if (list === undefined) continue;
        let c = this.rackCursor.get(m.rack) ?? 0;
        while (room > 0 && c < list.length) {
          const p = list[c]!;
          if (!this.taken[p]) {
            this.assign(m, p, out);
            room--;
          }
          c++;
        }
        this.rackCursor.set(m.rack, c);
      } else {
        while (room > 0 && this.cursor < this.n) {
          if (!this.taken[this.cursor]) {
            this.assign(m, this.cursor, out);
            room--;
          }
          this.cursor++;
        }
      }
    }
  }
}

/** A key naming a topic's members (in order) and their racks, for co-partitioning groups. */
function membersKey(members: Member[]): string {
  return JSON.stringify(members.map((m) => [m.memberId, m.rack]));
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
 * @param partitionRacks topic name to the racks of each partition's replicas (see PartitionRacks)
 * @returns every member id of `subscriptions`, each mapped to topic to ascending partitions
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

  const useRacks = states.some((s) => s.needsRackMatching);
  if (useRacks) {
    const groups = new Map<string, TopicState[]>();
    for (const s of states) {
      if (!s.anyMemberRack) continue;
      const key = `${s.n}|${membersKey(s.members)}`;
      let g = groups.get(key);
      if (g === undefined) {
        g = [];
        groups.set(key, g);
      }
      g.push(s);
    }
    for (const group of groups.values()) {
      if (group.length === 1) {
        const s = group[0]!;
        if (s.needsRackMatching) s.assignRanges(true, out);
      } else {
        assignCoPartitioned(group, out);
      }
    }
  }

  for (const s of states) s.assignRanges(false, out);

  for (const topics of out.values()) {
    for (const list of topics.values()) list.sort((a, b) => a - b);
  }
  return out;
}

/** Co-partitioned topics: partition p of every topic goes to the first member that fits in all. */
function assignCoPartitioned(group: TopicState[], out: Assignment): void {
  const first = group[0]!;
  const remaining = [...first.members];
  for (let p = 0; p < first.n; p++) {
    const idx = remaining.findIndex((m) =>
      group.every((s) => s.racksMatch(m, p) && s.maxAssignable(m.memberId) > 0),
    );
    if (idx < 0) continue;
    const m = remaining[idx]!;
    for (const s of group) s.assign(m, p, out);
    if (group.every((s) => s.maxAssignable(m.memberId) === 0)) {
      remaining.splice(idx, 1);
      if (remaining.length === 0) break;
    }
  }
}
