// Readers for the repo's copies of the Kafka vectors (test/vectors, copied from ../shared/vectors).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const VECTORS_DIR = fileURLToPath(new URL("../vectors/", import.meta.url));

/** Every line of a .jsonl vector file, parsed. */
export function readJsonl<T>(name: string): T[] {
  return readFileSync(`${VECTORS_DIR}${name}`, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as T);
}

/** A .json vector file, parsed. */
export function readJson<T>(name: string): T {
  return JSON.parse(readFileSync(`${VECTORS_DIR}${name}`, "utf8")) as T;
}

/** java-subscriptions.jsonl: a subscription Kafka's Java client serialized, and what it reads back. */
export interface JavaSubscriptionVector {
  description: string;
  version: number;
  topics: string[];
  userData: string | null;
  ownedPartitions: { topic: string; partition: number }[];
  generationId: number | null;
  rackId: string | null;
  hex: string;
}

/** librdkafka-subscriptions.jsonl: bytes captured from librdkafka, with Kafka's decoding. */
export interface LibrdkafkaSubscriptionVector {
  description: string;
  client: string;
  hex: string;
  kafkaDecodes: Omit<JavaSubscriptionVector, "description" | "hex">;
  remaining: number;
  timesSeen: number;
}

/** decode.jsonl: what Kafka's decoder makes of bytes, valid or not. */
export interface DecodeVector {
  hex: string;
  note: string;
  expected:
    | { error: string }
    | (Omit<JavaSubscriptionVector, "description" | "hex"> & { remaining: number });
}

/** assign.jsonl and assign-large*.json: RangeAssignor's answer for a group. */
export interface AssignVector {
  description?: string;
  input: {
    partitionsPerTopic: Record<string, number>;
    members: { memberId: string; groupInstanceId: string | null; topics: string[] }[];
  };
  expected: Record<string, Record<string, number[]>>;
}

/** rack-assign.jsonl: RangeAssignor's answer for a group with racks (Kafka 3.8, KIP-881). */
export interface RackAssignVector {
  input: {
    topics: Record<string, number>;
    /** Topic to, per partition, the racks of its replicas (`null`: a broker without a rack). */
    partitionRacks?: Record<string, (string | null)[][]>;
    members: {
      memberId: string;
      groupInstanceId: string | null;
      rackId: string | null;
      topics: string[];
    }[];
  };
  expected: Record<string, Record<string, number[]>>;
}

/** assignment.jsonl: what Kafka writes for an assignment, and what it reads from bytes. */
export type AssignmentVector =
  | {
      mode: "encode-assignment";
      note: string;
      input: {
        version: number;
        /** Topic to partitions, or `[topic, partitions]` pairs (kept in order). */
        assignment: Record<string, number[]> | [string, number[]][];
        userData: string | null;
      };
      expected: { hex: string } | { error: string };
    }
  | {
      mode: "decode-assignment";
      note: string;
      input: { hex: string };
      expected:
        | {
            version: number;
            /** `[topic, partition]` pairs in wire order. */
            partitions: [string, number][];
            userData: string | null;
            remaining: number;
          }
        | { error: string };
    };
