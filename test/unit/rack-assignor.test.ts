// assignRange (solution) with racks: every line of rack-assign.jsonl (Kafka 3.8's RangeAssignor
// run unchanged), and properties that hold for any group (the plain answer when no rack can
// matter, every partition owned once, only subscribed topics).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  assignRange,
  type Assignment,
  type MemberSubscription,
  type PartitionRacks,
} from "../../solution/src/range-assignor.ts";
import { readJsonl, type RackAssignVector } from "../helpers/vectors.ts";

type Input = RackAssignVector["input"];

function assign(input: Input): Assignment {
  return assignRange(
    new Map(Object.entries(input.topics)),
    new Map<string, MemberSubscription>(
      input.members.map((m) => [
        m.memberId,
        { topics: m.topics, groupInstanceId: m.groupInstanceId, rackId: m.rackId },
      ]),
    ),
    new Map(Object.entries(input.partitionRacks ?? {})) as PartitionRacks,
  );
}

/** member -> topic -> partitions, topics with no partitions left out, as plain sorted entries. */
function entries(assignment: Map<string, Map<string, number[]>>): [string, [string, number[]][]][] {
  return [...assignment]
    .map(([m, topics]): [string, [string, number[]][]] => [
      m,
      [...topics].filter(([, ps]) => ps.length > 0).sort(([a], [b]) => (a < b ? -1 : 1)),
    ])
    .sort(([a], [b]) => (a < b ? -1 : 1));
}

function fromVector(expected: RackAssignVector["expected"]): Map<string, Map<string, number[]>> {
  return new Map(Object.entries(expected).map(([m, t]) => [m, new Map(Object.entries(t))]));
}

const vectors = readJsonl<RackAssignVector>("rack-assign.jsonl");

describe("assignRange on rack-assign.jsonl (Kafka 3.8 RangeAssignor with racks)", () => {
  it.each(vectors.map((v, i) => [i + 1, v] as const))("line %i", (_, vector) => {
    expect(entries(assign(vector.input))).toEqual(entries(fromVector(vector.expected)));
  });

  it("covers what the lesson claims about Kafka (not only one kind of group)", () => {
    // Lines with a co-partitioned pair, a rackless member among racked ones, an empty rack, a
    // static member, a zero-partition topic: the file was chosen to hold each.
    const has = (p: (input: Input) => boolean) => vectors.some((v) => p(v.input));
    expect(has((i) => i.members.some((m) => m.rackId === ""))).toBe(true);
    expect(has((i) => i.members.some((m) => m.groupInstanceId !== null))).toBe(true);
    expect(has((i) => Object.values(i.topics).includes(0))).toBe(true);
    expect(
      has((i) => i.members.some((m) => m.rackId === null) && i.members.some((m) => m.rackId)),
    ).toBe(true);
  });
});

describe("assignRange with racks: hand-worked", () => {
  const member = (
    topics: string[],
    rackId: string | null,
    groupInstanceId: string | null = null,
  ) => ({
    topics,
    groupInstanceId,
    rackId,
  });

  it("gives each member the partitions on its rack when the racks differ per partition", () => {
    // t: 2 partitions, p0 only on rack b, p1 only on rack a. Plain range: c0 [0], c1 [1].
    // c0 (rack a) takes p1, its rack's; c1 (rack b) takes p0.
    const out = assignRange(
      new Map([["t", 2]]),
      new Map([
        ["c0", member(["t"], "a")],
        ["c1", member(["t"], "b")],
      ]),
      new Map([["t", [["b"], ["a"]]]]),
    );
    expect(entries(out)).toEqual([
      ["c0", [["t", [1]]]],
      ["c1", [["t", [0]]]],
    ]);
  });

  it("keeps the plain answer when every partition is on every rack", () => {
    const out = assignRange(
      new Map([["t", 2]]),
      new Map([
        ["c0", member(["t"], "b")],
        ["c1", member(["t"], "a")],
      ]),
      new Map([
        [
          "t",
          [
            ["a", "b"],
            ["b", "a"],
          ],
        ],
      ]),
    );
    expect(entries(out)).toEqual([
      ["c0", [["t", [0]]]],
      ["c1", [["t", [1]]]],
    ]);
  });

  it("keeps the plain answer when no member's rack holds a replica", () => {
    const out = assignRange(
      new Map([["t", 2]]),
      new Map([
        ["c0", member(["t"], "x")],
        ["c1", member(["t"], "y")],
      ]),
      new Map([["t", [["b"], ["a"]]]]),
    );
    expect(entries(out)).toEqual([
      ["c0", [["t", [0]]]],
      ["c1", [["t", [1]]]],
    ]);
  });

  it('treats an empty member rack as no rack, and a "" replica rack as a rack name', () => {
    // c0's rack "" is no rack, so no member has a rack: plain answer although p0 is on rack "".
    const racks: PartitionRacks = new Map([["t", [[""], ["a"]]]]);
    const plainOut = assignRange(
      new Map([["t", 2]]),
      new Map([
        ["c0", member(["t"], "")],
        ["c1", member(["t"], null)],
      ]),
      racks,
    );
    expect(entries(plainOut)).toEqual([
      ["c0", [["t", [0]]]],
      ["c1", [["t", [1]]]],
    ]);
  });

  it("moves co-partitioned topics together, partition by partition", () => {
    // t1 and t2: same members, 2 partitions each. p0 of both only on rack b, p1 of both on a.
    // u (needs matching, one member) makes Kafka match at all.
    const out = assignRange(
      new Map([
        ["t1", 2],
        ["t2", 2],
      ]),
      new Map([
        ["c0", member(["t1", "t2"], "a")],
        ["c1", member(["t1", "t2"], "b")],
      ]),
      new Map([
        ["t1", [["b"], ["a"]]],
        ["t2", [["b"], ["a"]]],
      ]),
    );
    expect(entries(out)).toEqual([
      [
        "c0",
        [
          ["t1", [1]],
          ["t2", [1]],
        ],
      ],
      [
        "c1",
        [
          ["t1", [0]],
          ["t2", [0]],
        ],
      ],
    ]);
  });
});

// Groups of up to 6 members over 3 topics and 4 racks, with every shape of rack data.
const RACKS = ["a", "b", "c", ""] as const;
const groupArbitrary = fc
  .record({
    counts: fc.tuple(fc.nat(6), fc.nat(6), fc.nat(6)),
    members: fc.uniqueArray(
      fc.record({
        memberId: fc.constantFrom("c0", "c1", "c2", "c3", "c4", "c5", "__proto__"),
        instance: fc.option(fc.constantFrom("i0", "i1", "i2"), { nil: null }),
        rackId: fc.option(fc.constantFrom(...RACKS), { nil: null }),
        topics: fc.subarray(["t0", "t1", "t2", "gone"]),
      }),
      { minLength: 1, maxLength: 6, selector: (m) => m.memberId },
    ),
    replicaRacks: fc.array(
      fc.array(fc.option(fc.constantFrom(...RACKS), { nil: null }), { maxLength: 3 }),
      {
        minLength: 18,
        maxLength: 18,
      },
    ),
    withRacks: fc.boolean(),
  })
  .map(({ counts, members, replicaRacks, withRacks }) => {
    const topics = { t0: counts[0], t1: counts[1], t2: counts[2] };
    const seen = new Set<string>();
    const input: Input = {
      topics,
      members: members.map((m) => {
        // Duplicate instance ids are invalid input (a broker fences one): keep the first.
        const groupInstanceId = m.instance !== null && !seen.has(m.instance) ? m.instance : null;
        if (groupInstanceId !== null) seen.add(groupInstanceId);
        return { memberId: m.memberId, groupInstanceId, rackId: m.rackId, topics: m.topics };
      }),
    };
    if (withRacks) {
      input.partitionRacks = Object.fromEntries(
        Object.entries(topics).map(([t, n], k) => [t, replicaRacks.slice(k * 6, k * 6 + n)]),
      );
    }
    return input;
  });

/**
 * RangeAssignor.assignPartitions (Kafka 3.8) transcribed line by line, slow on purpose (every
 * member scans every partition): the reference's queues must give the same answers.
 */
function transcribedFromJava(input: Input): Map<string, Map<string, number[]>> {
  const assignment = new Map<string, [string, number][]>();
  for (const m of input.members) assignment.set(m.memberId, []);
  const racks = new Map<string, string>();
  for (const m of input.members) if (m.rackId) racks.set(m.memberId, m.rackId);
  const javaOrder = (a: Input["members"][number], b: Input["members"][number]) => {
    const x = a.groupInstanceId,
      y = b.groupInstanceId;
    if (x !== null && y !== null) return x < y ? -1 : x > y ? 1 : 0;
    if (x !== null) return -1;
    if (y !== null) return 1;
    return a.memberId < b.memberId ? -1 : a.memberId > b.memberId ? 1 : 0;
  };
  type State = {
    topic: string;
    consumers: string[];
    partitionRacks: Set<string>[] | null;
    needs: boolean;
    unassigned: number[];
    numAssigned: Map<string, number>;
    perConsumer: number;
    extra: number;
  };
  const states: State[] = [];
  for (const [topic, n] of Object.entries(input.topics)) {
    const subscribers = input.members.filter((m) => m.topics.includes(topic)).sort(javaOrder);
    if (n === 0 || subscribers.length === 0) continue;
    const consumers = subscribers.map((m) => m.memberId);
    const consumerRacks = new Set(
      consumers.flatMap((c) => (racks.has(c) ? [racks.get(c) as string] : [])),
    );
    let partitionRacks: Set<string>[] | null = null;
    const all = new Set<string>();
    if (consumerRacks.size > 0) {
      partitionRacks = Array.from({ length: n }, (_, p) => {
        const set = new Set<string>();
        for (const r of input.partitionRacks?.[topic]?.[p] ?? []) if (r !== null) set.add(r);
        for (const r of set) all.add(r);
        return set;
      });
    }
    const needs =
      consumerRacks.size > 0 &&
      [...consumerRacks].some((r) => all.has(r)) &&
      !(partitionRacks ?? []).every(
        (set) => set.size === all.size && [...set].every((r) => all.has(r)),
      );
    states.push({
      topic,
      consumers,
      partitionRacks,
      needs,
      unassigned: Array.from({ length: n }, (_, p) => p),
      numAssigned: new Map(consumers.map((c) => [c, 0])),
      perConsumer: Math.floor(n / consumers.length),
      extra: n % consumers.length,
    });
  }
  const max = (s: State, c: string) =>
    Math.max(0, s.perConsumer + (s.extra > 0 ? 1 : 0) - (s.numAssigned.get(c) ?? 0));
  const matches = (s: State, c: string, p: number) =>
    !racks.has(c) || (s.partitionRacks?.[p]?.has(racks.get(c) as string) ?? false);
  const give = (s: State, c: string, ps: number[]) => {
    for (const p of ps) assignment.get(c)?.push([s.topic, p]);
    const n = (s.numAssigned.get(c) ?? 0) + ps.length;
    s.numAssigned.set(c, n);
    if (n > s.perConsumer) s.extra--;
    s.unassigned = s.unassigned.filter((p) => !ps.includes(p));
  };
  const ranges = (s: State, may: (c: string, p: number) => boolean) => {
    for (const c of s.consumers) {
      const ps = s.unassigned.filter((p) => may(c, p)).slice(0, max(s, c));
      if (ps.length > 0) give(s, c, ps);
    }
  };
  if (states.some((s) => s.needs)) {
    const groups = new Map<string, State[]>();
    for (const s of states) {
      const key = JSON.stringify([s.consumers, s.partitionRacks?.length ?? 0]);
      groups.set(key, [...(groups.get(key) ?? []), s]);
    }
    for (const group of groups.values()) {
      const first = group[0] as State;
      if (group.length > 1) {
        const remaining = [...first.consumers];
        for (let p = 0; p < (first.partitionRacks?.length ?? 0); p++) {
          const c = remaining.find((c) => group.every((s) => matches(s, c, p) && max(s, c) > 0));
          if (c === undefined) continue;
          for (const s of group) give(s, c, [p]);
          if (group.every((s) => max(s, c) === 0)) remaining.splice(remaining.indexOf(c), 1);
        }
      } else if (first.needs) ranges(first, (c, p) => matches(first, c, p));
    }
  }
  for (const s of states) ranges(s, () => true);
  return new Map(
    [...assignment].map(([m, tps]) => {
      const topics = new Map<string, number[]>();
      for (const [t, p] of tps) topics.set(t, [...(topics.get(t) ?? []), p]);
      for (const ps of topics.values()) ps.sort((x, y) => x - y);
      return [m, topics];
    }),
  );
}

describe("assignRange with racks: properties (fast-check, 500 groups each)", () => {
  it("agrees with RangeAssignor transcribed line by line", () => {
    // The transcription checks itself on the Kafka vectors first.
    for (const v of vectors)
      expect(entries(transcribedFromJava(v.input))).toEqual(entries(fromVector(v.expected)));
    fc.assert(
      fc.property(groupArbitrary, (input) => {
        expect(entries(assign(input))).toEqual(entries(transcribedFromJava(input)));
      }),
      { numRuns: 2000, seed: 1881 },
    );
  });

  it("gives the plain range answer when no member has a rack", () => {
    fc.assert(
      fc.property(groupArbitrary, (input) => {
        const rackless = { ...input, members: input.members.map((m) => ({ ...m, rackId: null })) };
        const withoutRacks = { ...rackless, partitionRacks: undefined };
        expect(entries(assign(rackless))).toEqual(entries(assign(withoutRacks)));
      }),
      { numRuns: 500, seed: 881 },
    );
  });

  it("owns every partition of a subscribed, known topic exactly once, within its share", () => {
    fc.assert(
      fc.property(groupArbitrary, (input) => {
        const out = assign(input);
        for (const [topic, n] of Object.entries(input.topics)) {
          const subscribers = input.members.filter((m) => m.topics.includes(topic));
          const owned = [...out.values()].flatMap((topics) => topics.get(topic) ?? []);
          expect(owned.sort((x, y) => x - y)).toEqual(
            subscribers.length === 0 ? [] : Array.from({ length: n }, (_, p) => p),
          );
          // Range's balance: every subscriber gets n div m or one more.
          for (const m of subscribers) {
            const mine = out.get(m.memberId)?.get(topic)?.length ?? 0;
            expect(mine).toBeGreaterThanOrEqual(Math.floor(n / subscribers.length));
            expect(mine).toBeLessThanOrEqual(Math.ceil(n / subscribers.length));
          }
        }
      }),
      { numRuns: 500, seed: 3508 },
    );
  });

  it("gives a member only partitions of topics it subscribed to, ascending", () => {
    fc.assert(
      fc.property(groupArbitrary, (input) => {
        const out = assign(input);
        expect([...out.keys()].sort()).toEqual(input.members.map((m) => m.memberId).sort());
        for (const m of input.members) {
          for (const [topic, partitions] of out.get(m.memberId) ?? []) {
            expect(m.topics).toContain(topic);
            expect(partitions).toEqual([...partitions].sort((x, y) => x - y));
          }
        }
      }),
      { numRuns: 500, seed: 2023 },
    );
  });
});
