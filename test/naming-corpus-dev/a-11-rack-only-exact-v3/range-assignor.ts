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
  /** null when the member has no rack ("" counts as none). */
  rack: string | null;
}

const byId = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function compareMembers(a: Member, b: Member): number {
  const aStatic = a.groupInstanceId !== null;
  const bStatic = b.groupInstanceId !== null;
  if (aStatic && bStatic) return byId(a.groupInstanceId!, b.groupInstanceId!);
  if (aStatic) return -1;
  if (bStatic) return 1;
  return byId(a.memberId, b.memberId);
}

/** Per-topic state: who may still take how much, and which partitions are free. */
class TopicState {
  readonly q: number;
  extras: number;
  readonly count = new Map<string, number>();
  readonly taken: boolean[];
  /** Per partition, the set of racks of its replicas (empty when unknown). */
  readonly partRacks: Set<string>[];
  readonly needsRacks: boolean;
  readonly hasMemberRacks: boolean;

  constructor(
    readonly topic: string,
    readonly n: number,
    readonly members: Member[],
    racks: readonly (readonly (string | null)[])[] | undefined,
  ) {
    const m = members.length;
    this.q = m === 0 ? 0 : Math.floor(n / m);
    this.extras = m === 0 ? 0 : n % m;
    for (const mem of members) this.count.set(mem.memberId, 0);
    this.taken = new Array<boolean>(n).fill(false);
    this.partRacks = [];
    const all = new Set<string>();
    for (let p = 0; p < n; p++) {
      const s = new Set<string>();
      for (const r of racks?.[p] ?? []) if (r !== null) s.add(r);
      for (const r of s) all.add(r);
      this.partRacks.push(s);
    }
    const memberRacks = new Set<string>();
    for (const mem of members) if (mem.rack !== null) memberRacks.add(mem.rack);
    this.hasMemberRacks = memberRacks.size > 0;
    let overlap = false;
    for (const r of memberRacks) if (all.has(r)) overlap = true;
    let allSame = true;
    for (const s of this.partRacks) {
      if (s.size !== all.size) allSame = false;
    }
    this.needsRacks = this.hasMemberRacks && overlap && !allSame;
  }

  maxAssignable(memberId: string): number {
    const c = this.count.get(memberId) ?? 0;
    return Math.max(0, this.q + (this.extras > 0 ? 1 : 0) - c);
  }

  racksMatch(mem: Member, p: number): boolean {
    return mem.rack === null || this.partRacks[p]!.has(mem.rack);
  }

  assign(mem: Member, parts: number[], out: Assignment): void {
    if (parts.length === 0) return;
    const c = (this.count.get(mem.memberId) ?? 0) + parts.length;
    this.count.set(mem.memberId, c);
    if (c > this.q) this.extras--;
    const memberOut = out.get(mem.memberId)!;
    let list = memberOut.get(this.topic);
    if (list === undefined) {
      list = [];
      memberOut.set(this.topic, list);
    }
    for (const p of parts) {
      this.taken[p] = true;
      list.push(p);
    }
  }

  /** Each member in order takes the lowest free partitions that `ok` allows, up to its share. */
  assignRanges(ok: (mem: Member, p: number) => boolean, out: Assignment): void {
    for (const mem of this.members) {
      const max = this.maxAssignable(mem.memberId);
      const parts: number[] = [];
      for (let p = 0; p < this.n && parts.length < max; p++) {
        if (!this.taken[p] && ok(mem, p)) parts.push(p);
      }
      this.assign(mem, parts, out);
    }
  }
}

/** Plain range for one topic: member i gets `count` partitions from `start`. */
function plainRange(topic: string, n: number, members: Member[], out: Assignment): void {
  const m = members.length;
  const q = Math.floor(n / m);
  const r = n % m;
  for (let i = 0; i < m; i++) {
    const start = q * i + Math.min(i, r);
    const count = q + (i < r ? 1 : 0);
    if (count === 0) continue;
    const parts: number[] = [];
    for (let p = start; p < start + count; p++) parts.push(p);
    out.get(members[i]!.memberId)!.set(topic, parts);
  }
}

/** Co-partitioned topics: partition p of every topic goes to the same member. */
function assignCoPartitioned(states: TopicState[], out: Assignment): void {
  const members = states[0]!.members;
  const n = states[0]!.n;
  for (let p = 0; p < n; p++) {
    const mem = members.find((c) => states.every((t) => t.racksMatch(c, p) && t.maxAssignable(c.memberId) > 0));
    if (mem === undefined) continue;
    for (const t of states) t.assign(mem, [p], out);
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
  const out: Assignment = new Map();
  const membersPerTopic = new Map<string, Member[]>();
  for (const [memberId, sub] of subscriptions) {
    out.set(memberId, new Map());
    const member: Member = {
      memberId,
      groupInstanceId: sub.groupInstanceId,
      rack: sub.rackId === null || sub.rackId === "" ? null : sub.rackId,
    };
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

  if (!states.some((t) => t.needsRacks)) {
    // No topic needs racks: plain range, one topic at a time.
    for (const t of states) plainRange(t.topic, t.n, t.members, out);
    return out;
  }

  // Group topics by the same members and the same partition count.
  const groups = new Map<string, TopicState[]>();
  for (const t of states) {
    if (!t.hasMemberRacks) continue;
    const key = JSON.stringify([t.n, t.members.map((m) => m.memberId)]);
    const g = groups.get(key);
    if (g === undefined) groups.set(key, [t]);
    else g.push(t);
  }
  for (const g of groups.values()) {
    if (g.length > 1) assignCoPartitioned(g, out);
    else if (g[0]!.needsRacks) g[0]!.assignRanges((mem, p) => g[0]!.racksMatch(mem, p), out);
  }

  for (const t of states) t.assignRanges(() => true, out);

  for (const m of out.values()) for (const list of m.values()) list.sort((a, b) => a - b);
  return out;
}
