// grader/instructor/random/random-cases.ts's generator (--random N --seed S): which cases carry
// racks, what those racks look like, and that a case whose racks Kafka would not match has the
// plain range answer. Grading with --random runs in test/e2e/private-cases.test.ts.
import kafkajs from "kafkajs";
import { describe, expect, it } from "vitest";
import {
  caseMeta,
  generateInput,
  type GeneratedInput,
} from "../../grader/instructor/random/random-cases.ts";
import { expectedOutput } from "../../grader/verdict/outcome.ts";
import { assignRange, type MemberSubscription } from "../../solution/src/range-assignor.ts";
import { decodeSubscription } from "../../solution/src/subscription.ts";

const encode = (topics: string[], userData: Buffer | null) =>
  kafkajs.AssignerProtocol.MemberMetadata.encode({
    version: 0,
    topics,
    userData: userData as Buffer,
  }).toString("hex");

const SEED = 7;
const generated: GeneratedInput[] = Array.from({ length: 400 }, (_, i) =>
  generateInput(SEED, i + 1, encode),
);
const withRacks = generated.filter((g) => g.racks !== null);

/** Member id to decoded subscription, as the program reads it. */
function decoded(g: GeneratedInput) {
  return new Map(
    g.input.members.map((m) => [
      m.memberId,
      { ...decodeSubscription(Buffer.from(m.metadata, "hex")), groupInstanceId: m.groupInstanceId },
    ]),
  );
}

function assign(g: GeneratedInput, racks: boolean) {
  const subscriptions = new Map<string, MemberSubscription>();
  for (const [id, s] of decoded(g)) {
    subscriptions.set(id, {
      topics: s.topics,
      groupInstanceId: s.groupInstanceId ?? null,
      rackId: racks ? s.rackId : null,
    });
  }
  return assignRange(
    new Map(Object.entries(g.input.topics)),
    subscriptions,
    racks ? new Map(Object.entries(g.input.partitionRacks ?? {})) : new Map(),
  );
}

describe("--random's cases with racks", () => {
  it("are the same for the same seed and index, whatever N", () => {
    expect(generateInput(SEED, 12, encode)).toEqual(generated[11]);
    expect(generateInput(SEED + 1, 12, encode)).not.toEqual(generated[11]);
  });

  it("are about 3 in 10, and only they have partitionRacks", () => {
    expect(withRacks.length).toBeGreaterThan(80);
    expect(withRacks.length).toBeLessThan(160);
    for (const g of generated) {
      expect("partitionRacks" in g.input).toBe(g.racks !== null);
    }
  });

  it("list racks only for known topics, one replica list of 0-3 racks per partition", () => {
    for (const g of withRacks) {
      for (const [topic, lists] of Object.entries(g.input.partitionRacks ?? {})) {
        expect(Object.hasOwn(g.input.topics, topic)).toBe(true);
        expect(lists).toHaveLength(g.input.topics[topic] ?? -1);
        for (const list of lists) expect(list.length).toBeLessThanOrEqual(3);
      }
    }
  });

  it('draw the edge cases: v3 members with a rack, with "", with null; v0 members beside them', () => {
    const racks = withRacks.flatMap((g) => [...decoded(g).values()]);
    const v3 = racks.filter((s) => s.version === 3);
    expect(v3.some((s) => s.rackId === "")).toBe(true);
    expect(v3.some((s) => s.rackId === null)).toBe(true);
    expect(v3.some((s) => s.rackId === "use1-az1")).toBe(true);
    expect(v3.some((s) => s.rackId === "USE1-AZ1")).toBe(true);
    expect(racks.some((s) => s.version === 0)).toBe(true);
  });

  it('draw replica lists with null, with "" (a rack name), and empty ones', () => {
    const lists = withRacks.flatMap((g) => Object.values(g.input.partitionRacks ?? {}).flat());
    expect(lists.some((l) => l.includes(null))).toBe(true);
    expect(lists.some((l) => l.includes(""))).toBe(true);
    expect(lists.some((l) => l.length === 0)).toBe(true);
    expect(lists.some((l) => l.length === 3)).toBe(true);
  });

  it("have the plain range answer where no topic needs rack matching (by construction)", () => {
    const off = withRacks.filter((g) => g.racks?.mayMatch === false && g.mode === "assign");
    expect(off.length).toBeGreaterThan(10);
    for (const g of off) expect(assign(g, true)).toEqual(assign(g, false));
  });

  it("otherwise often have another answer than the plain range one: rack matching runs", () => {
    const on = withRacks.filter((g) => g.racks?.mayMatch === true && g.mode === "assign");
    const changed = on.filter(
      (g) =>
        JSON.stringify([...assign(g, true)].map(([m, t]) => [m, [...t]])) !==
        JSON.stringify([...assign(g, false)].map(([m, t]) => [m, [...t]])),
    );
    expect(changed.length).toBeGreaterThan(on.length / 4);
  });
});

describe("--random's sync cases", () => {
  const sync = generated.filter((g) => g.mode === "sync");
  const assignOrSync = generated.filter((g) => g.mode === "assign" || g.mode === "sync");

  it("are about a quarter of the assign draws, and only they give members assignment user data", () => {
    expect(sync.length / assignOrSync.length).toBeGreaterThan(0.15);
    expect(sync.length / assignOrSync.length).toBeLessThan(0.35);
    for (const g of generated.filter((x) => x.mode !== "sync")) {
      for (const m of g.input.members) expect(m).not.toHaveProperty("assignmentUserData");
    }
  });

  it("draw null (absent), empty and non-empty user data, as hex of whole bytes", () => {
    const values = sync.flatMap((g) => g.input.members.map((m) => m.assignmentUserData));
    expect(values).toContain(undefined);
    expect(values).toContain("");
    const bytes = values.filter((v): v is string => v !== undefined && v !== "");
    expect(bytes.length).toBeGreaterThan(0);
    for (const v of bytes) expect(v).toMatch(/^([0-9a-f]{2}){1,8}$/);
  });

  it("give members only the input's documented fields, and are extension cases of the sync stage", () => {
    for (const g of sync.slice(0, 20)) {
      for (const m of g.input.members) {
        const fields = Object.keys(m).filter((k) => k !== "assignmentUserData");
        expect(fields.sort()).toEqual(
          ["memberId", "metadata", ...("groupInstanceId" in m ? ["groupInstanceId"] : [])].sort(),
        );
      }
    }
    expect(caseMeta(1, 7, "sync", null)).toMatchObject({
      mode: "sync",
      required: false,
      lesson: "the-assignment-bytes",
    });
    expect(caseMeta(1, 7, "sync", { mayMatch: true })).toMatchObject({ required: false });
  });
});

describe("caseMeta and expectedOutput", () => {
  it("make a case with racks an extension case of the rack stage, the others required", () => {
    expect(caseMeta(1, 7, "assign", null)).toMatchObject({
      required: true,
      lesson: "the-range-assignor",
    });
    expect(caseMeta(1, 7, "assign", { mayMatch: true })).toMatchObject({
      required: false,
      lesson: "rack-aware-assignment",
    });
    expect(caseMeta(1, 7, "decode", { mayMatch: false })).toMatchObject({
      required: false,
      lesson: "the-subscription-bytes",
    });
  });

  it("leave rackId out of a decode case without racks, and keep it in one with racks", () => {
    const output = { a: { version: 0, topics: ["t"], userData: null, rackId: null } };
    expect(expectedOutput("decode", false, output)).toEqual({
      a: { version: 0, topics: ["t"], userData: null },
    });
    expect(expectedOutput("decode", true, output)).toEqual(output);
    const assignment = { a: { t: [0, 1] } };
    expect(expectedOutput("assign", false, assignment)).toEqual(assignment);
  });
});
