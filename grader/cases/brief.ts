/**
 * A case's input in brief, for the line a report shows under a failure and for the test code a
 * platform shows next to each test: the topics with their partition counts and the members in
 * input order, each list cut after a few entries.
 */
import type { Case } from "./load.ts";

/**
 * `3 topics ("t0":3, "t1":3, "t2":3); 2 members in input order: "m1", "m0" (static "i-1")`: up
 * to 6 topics and 8 members, the rest counted; names as JSON strings, not yet escaped for a report
 * (the caller's textLine does that). An input with `partitionRacks` ends with the topics it gives
 * replica racks for (`; replica racks for "t0", "t2"`, up to 6): the members' racks are inside
 * their subscription bytes, which the grader does not decode.
 */
export function inputBrief(c: Pick<Case, "input">): string {
  const topics = Object.entries(c.input.topics);
  const shownTopics = topics.slice(0, 6).map(([t, n]) => `${JSON.stringify(t)}:${n}`);
  if (topics.length > 6) shownTopics.push(`+${topics.length - 6} more`);
  const members = c.input.members;
  const shownMembers = members
    .slice(0, 8)
    .map((m) =>
      m.groupInstanceId === undefined || m.groupInstanceId === null
        ? JSON.stringify(m.memberId)
        : `${JSON.stringify(m.memberId)} (static ${JSON.stringify(m.groupInstanceId)})`,
    );
  if (members.length > 8) shownMembers.push(`+${members.length - 8} more`);
  const rackTopics = Object.keys(c.input.partitionRacks ?? {});
  const shownRacks = rackTopics.slice(0, 6).map((t) => JSON.stringify(t));
  if (rackTopics.length > 6) shownRacks.push(`+${rackTopics.length - 6} more`);
  const racks =
    c.input.partitionRacks === undefined
      ? ""
      : `; replica racks for ${shownRacks.join(", ") || "no topic"}`;
  return `${topics.length} topic${topics.length === 1 ? "" : "s"} (${shownTopics.join(", ") || "none"}); ${members.length} member${members.length === 1 ? "" : "s"} in input order: ${shownMembers.join(", ") || "none"}${racks}`;
}
