// assignRange (solution) against Kafka's RangeAssignor outputs, hand-worked cases and properties.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  assignRange,
  type Assignment,
  type MemberSubscription,
} from "../../solution/src/range-assignor.ts";
import { readJson, readJsonl, type AssignVector } from "../helpers/vectors.ts";

type Members = [memberId: string, topics: string[], groupInstanceId?: string | null][];

function assign(partitionsPerTopic: Record<string, number>, members: Members): Assignment {
  return assignRange(
    new Map(Object.entries(partitionsPerTopic)),
    new Map<string, MemberSubscription>(
      members.map(([memberId, topics, groupInstanceId]) => [
        memberId,
        { topics, groupInstanceId: groupInstanceId ?? null, rackId: null },
      ]),
    ),
  );
}

/** The vectors' shape: member -> topic -> partitions, topics with no partitions left out. */
function plain(assignment: Assignment): Map<string, Map<string, number[]>> {
  return new Map(
    [...assignment].map(([member, topics]) => [
      member,
      new Map([...topics].filter(([, partitions]) => partitions.length > 0)),
    ]),
  );
}

function fromVector(expected: AssignVector["expected"]): Map<string, Map<string, number[]>> {
  return new Map(
    Object.entries(expected).map(([member, topics]) => [
      member,
      new Map(Object.entries(topics).filter(([, partitions]) => partitions.length > 0)),
    ]),
  );
}

function runVector(vector: AssignVector): void {
  const members: Members = vector.input.members.map((m) => [
    m.memberId,
    m.topics,
    m.groupInstanceId,
  ]);
  expect(plain(assign(vector.input.partitionsPerTopic, members))).toEqual(
    fromVector(vector.expected),
  );
}

describe("assignRange on assign.jsonl (Kafka 3.8 RangeAssignor)", () => {
  const vectors = readJsonl<AssignVector>("assign.jsonl");
  it.each(vectors.map((v, i) => [i + 1, v] as const))("line %i", (_, vector) => runVector(vector));
});

describe("assignRange on the large groups", () => {
  it("assign-large.json: 2,000 dynamic members, 200 topics", () => {
    runVector(readJson<AssignVector>("assign-large.json"));
  });
  it("assign-large-static.json: about a tenth static members", () => {
    runVector(readJson<AssignVector>("assign-large-static.json"));
  });
});

const asObject = (assignment: Assignment) =>
  Object.fromEntries([...assignment].map(([m, t]) => [m, Object.fromEntries(t)]));

describe("assignRange by hand", () => {
  it("7 partitions, 3 members: 7 div 3 = 2, 7 mod 3 = 1 -> 0-2, 3-4, 5-6", () => {
    const result = assign({ t: 7 }, [
      ["c", ["t"]],
      ["a", ["t"]],
      ["b", ["t"]],
    ]);
    expect(asObject(result)).toEqual({ a: { t: [0, 1, 2] }, b: { t: [3, 4] }, c: { t: [5, 6] } });
  });

  it("3 topics x 3 partitions, 2 members: the first member gets 6, the second 3", () => {
    const topics = ["t0", "t1", "t2"];
    const result = asObject(
      assign({ t0: 3, t1: 3, t2: 3 }, [
        ["m1", topics],
        ["m0", topics],
      ]),
    );
    expect(result).toEqual({
      m0: { t0: [0, 1], t1: [0, 1], t2: [0, 1] },
      m1: { t0: [2], t1: [2], t2: [2] },
    });
  });

  it("orders member ids as strings: consumer-10 before consumer-2", () => {
    const result = asObject(
      assign({ t: 3 }, [
        ["consumer-2", ["t"]],
        ["consumer-10", ["t"]],
      ]),
    );
    expect(result).toEqual({ "consumer-10": { t: [0, 1] }, "consumer-2": { t: [2] } });
  });

  it("orders by UTF-16 code units: 'Z' < '_' < 'a', and U+1F600 before U+FF41", () => {
    const result = asObject(
      assign({ t: 4 }, [
        ["a", ["t"]],
        ["_", ["t"]],
        ["\uff41", ["t"]],
        ["\u{1f600}", ["t"]],
      ]),
    );
    // Code units: "_" 0x5F, "a" 0x61, "\u{1f600}" 0xD83D..., "\uff41" 0xFF41.
    expect(result).toEqual({
      _: { t: [0] },
      a: { t: [1] },
      "\u{1f600}": { t: [2] },
      "\uff41": { t: [3] },
    });
  });

  it("puts static members first, by instance id, an empty instance id included", () => {
    const result = asObject(
      assign({ t: 4 }, [
        ["a", ["t"]],
        ["b", ["t"], "zeta"],
        ["c", ["t"], ""],
        ["d", ["t"], "alpha"],
      ]),
    );
    // Static by instance id: c (""), d ("alpha"), b ("zeta"); then dynamic a.
    expect(result).toEqual({ c: { t: [0] }, d: { t: [1] }, b: { t: [2] }, a: { t: [3] } });
  });

  it("keeps every member, skips unknown topics and leaves unsubscribed topics unassigned", () => {
    const result = asObject(
      assign({ known: 2, nobody: 5, empty: 0 }, [
        ["m1", ["known", "ghost"]],
        ["m2", ["ghost", "empty"]],
      ]),
    );
    expect(result).toEqual({ m1: { known: [0, 1] }, m2: {} });
  });

  it("counts a member that lists a topic twice once", () => {
    const result = asObject(
      assign({ t: 4 }, [
        ["a", ["t", "t"]],
        ["b", ["t"]],
      ]),
    );
    expect(result).toEqual({ a: { t: [0, 1] }, b: { t: [2, 3] } });
  });

  it("treats __proto__ and constructor as ordinary member ids and topic names", () => {
    const partitionsPerTopic = new Map([
      ["__proto__", 3],
      ["constructor", 1],
    ]);
    const subscriptions = new Map<string, MemberSubscription>([
      [
        "constructor",
        { topics: ["__proto__", "constructor"], groupInstanceId: null, rackId: null },
      ],
      ["__proto__", { topics: ["__proto__"], groupInstanceId: null, rackId: null }],
    ]);
    const byHand = assignRange(partitionsPerTopic, subscriptions);
    // "__proto__" (0x5F) sorts before "constructor" (0x63): it gets 2 of 3, constructor 1.
    expect(byHand.get("__proto__")).toEqual(new Map([["__proto__", [0, 1]]]));
    expect(byHand.get("constructor")).toEqual(
      new Map([
        ["__proto__", [2]],
        ["constructor", [0]],
      ]),
    );
  });

  it("does not modify its arguments", () => {
    const topics = ["b", "a"];
    const partitionsPerTopic = new Map([["a", 2]]);
    const subscriptions = new Map([["m", { topics, groupInstanceId: null, rackId: null }]]);
    assignRange(partitionsPerTopic, subscriptions);
    expect(topics).toEqual(["b", "a"]);
    expect([...partitionsPerTopic]).toEqual([["a", 2]]);
  });
});

describe("assignRange properties (fast-check)", () => {
  // Kafka's member order, written out from MemberInfo.compareTo for the properties.
  const codeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const kafkaOrder = (a: [string, string | null], b: [string, string | null]) =>
    a[1] !== null && b[1] !== null
      ? codeUnits(a[1], b[1])
      : a[1] !== null
        ? -1
        : b[1] !== null
          ? 1
          : codeUnits(a[0], b[0]);

  const name = fc.oneof(
    fc.constantFrom(
      "__proto__",
      "constructor",
      "toString",
      "consumer-2",
      "consumer-10",
      "Z",
      "a",
      "é",
    ),
    fc.string({ maxLength: 4, unit: "binary" }),
  );
  const group = fc
    .record({
      topics: fc.uniqueArray(name, { maxLength: 6 }),
      partitions: fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 6, maxLength: 6 }),
      unknownTopics: fc.uniqueArray(name, { maxLength: 2 }),
      members: fc.uniqueArray(
        fc.record({
          memberId: name,
          instance: fc.option(name, { nil: null }),
          picks: fc.array(fc.nat(7)),
        }),
        { selector: (m) => m.memberId, maxLength: 12 },
      ),
    })
    .filter(({ members }) => {
      const instances = members.flatMap((m) => (m.instance === null ? [] : [m.instance]));
      return new Set(instances).size === instances.length;
    })
    .map(({ topics, partitions, unknownTopics, members }) => {
      const partitionsPerTopic = new Map(topics.map((t, i) => [t, partitions[i] ?? 0]));
      const pool = [...topics, ...unknownTopics.filter((t) => !partitionsPerTopic.has(t))];
      const subscriptions = new Map<string, MemberSubscription>(
        members.map((m) => [
          m.memberId,
          {
            topics: m.picks.flatMap((p) =>
              pool.length === 0 ? [] : [pool[p % pool.length] ?? ""],
            ),
            groupInstanceId: m.instance,
            rackId: null,
          },
        ]),
      );
      return { partitionsPerTopic, subscriptions };
    });

  it("assigns each known subscribed topic's partitions exactly once, to subscribers only, as Kafka orders them", () => {
    fc.assert(
      fc.property(group, ({ partitionsPerTopic, subscriptions }) => {
        const result = assignRange(partitionsPerTopic, subscriptions);
        // Every member present, nobody else.
        expect([...result.keys()].sort()).toEqual([...subscriptions.keys()].sort());

        for (const [topic, n] of partitionsPerTopic) {
          const subscribers = [...subscriptions]
            .filter(([, s]) => s.topics.includes(topic))
            .map(([memberId, s]): [string, string | null] => [memberId, s.groupInstanceId])
            .sort(kafkaOrder);
          const owners = [...result].filter(([, topics]) => (topics.get(topic) ?? []).length > 0);
          if (subscribers.length === 0) {
            expect(owners).toEqual([]);
            continue;
          }
          const m = subscribers.length;
          const q = Math.floor(n / m);
          const r = n % m;
          subscribers.forEach(([memberId], i) => {
            const start = q * i + Math.min(i, r);
            const length = q + (i < r ? 1 : 0);
            const expected = Array.from({ length }, (_, k) => start + k);
            expect(result.get(memberId)?.get(topic) ?? []).toEqual(expected);
          });
          // Together the ranges cover 0..n-1 exactly once, and only subscribers own any.
          const all = owners.flatMap(([, topics]) => topics.get(topic) ?? []).sort((a, b) => a - b);
          expect(all).toEqual(Array.from({ length: n }, (_, k) => k));
          for (const [owner] of owners) expect(subscriptions.get(owner)?.topics).toContain(topic);
        }
        // Nothing is assigned for topics the metadata lacks.
        for (const topics of result.values()) {
          for (const topic of topics.keys()) expect(partitionsPerTopic.has(topic)).toBe(true);
        }
      }),
      { numRuns: 500, seed: 20261130 },
    );
  });
});
