#!/usr/bin/env python3
r"""The kit's program in Python 3, standard library only: an example of a --cmd submission.

    python3 main.py [--decode | --sync] [FILE]

Reads one JSON document (FILE, or standard input): the topics the leader knows (name to
partition count) and every member's id, optional group instance id and
ConsumerProtocolSubscription bytes as hex. Decodes every subscription (versions 0-3, exactly as
Kafka's Java client), runs Kafka's range assignor and prints member id -> topic -> partitions as
one JSON object. With --decode it prints each member's {version, topics, userData} instead;
with --sync, member id -> the hex of the ConsumerProtocolAssignment bytes the leader sends that
member in SyncGroup (its partitions, and the optional "assignmentUserData" of the input as its
user data: absent is null).

Exit codes: 0 success; 1 a member's bytes are not a valid subscription (first line of standard
error: error: member "<id>": <field>: <what> at offset <n>, <found>); 2 the input is not the
documented JSON; 70 any other exception (a bug), with its traceback.

Where Python differs from Java and JavaScript, and what this program does about it:
- Strings: Python compares code points, Kafka (Java's String.compareTo) UTF-16 code units. They
  disagree for characters above U+FFFF against U+E000..U+FFFF ('\U0001F600' > '\uFF5E' in Python,
  but its first code unit 0xD83D sorts before 0xFF5E). The sort key is the UTF-16-BE encoding.
- Invalid UTF-8 in a topic name becomes U+FFFD (errors="replace"). Python's decoder and the
  reference's WHATWG TextDecoder both replace each maximal invalid subpart with one U+FFFD; they
  agreed on 200,000 random malformed strings. Java's decoder emits fewer U+FFFD than both for
  surrogates encoded in UTF-8 (ED A0..BF ..); the kit follows Node there (test/vectors/README.md),
  and no golden case depends on that count.
- JSON: Python's json accepts NaN/Infinity (JavaScript's JSON.parse does not: rejected here) and
  writes lone surrogates raw (JSON.stringify escapes them: so does this program).
"""

import json
import re
import struct
import sys
import traceback

EXIT_OK, EXIT_BAD_SUBSCRIPTION, EXIT_BAD_INPUT, EXIT_BUG = 0, 1, 2, 70
HIGHEST_SUBSCRIPTION_VERSION = 3
ASSIGNMENT_VERSION = 3  # what a Kafka 3.4+ leader writes (ConsumerProtocol.CONSUMER_PROTOCOL_V3)
USAGE = "usage: main [--decode | --sync] [FILE]   (reads standard input when FILE is absent)"

# JavaScript's \s (the reference strips it from metadata): Python's \s is a different set.
JS_WHITESPACE = "\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
WHITESPACE_RE = re.compile(f"[{JS_WHITESPACE}]+")
METADATA_RE = re.compile(f"[0-9a-fA-F{JS_WHITESPACE}]*")
LONE_SURROGATE_RE = re.compile("[\ud800-\udfff]")


class InputError(Exception):
    """Input that is not the documented JSON: exit 2."""


class DecodeError(Exception):
    """Bytes that are not a valid subscription: exit 1."""

    def __init__(self, field, offset, expected, found):
        super().__init__(f"{field}: {expected} at offset {offset}, {found}")


def to_json(value):
    """JSON.stringify: compact, non-ASCII kept, lone surrogates escaped as \\udxxx."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return LONE_SURROGATE_RE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def utf16_key(text):
    """Sort key for Java's String.compareTo order: UTF-16 code units, big-endian bytes."""
    return text.encode("utf-16-be", "surrogatepass")


def java_utf8(data):
    """The bytes as Java's new String(bytes, UTF_8) reads them: malformed UTF-8 becomes U+FFFD by
    Java's rules (an encoded surrogate ED A0 80 is one U+FFFD; Python's "replace" gives three)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    out, i, n = [], 0, len(data)

    def cont(k):
        return k < n and data[k] & 0xC0 == 0x80

    while i < n:
        b1 = data[i]
        if b1 < 0x80:
            out.append(chr(b1))
            i += 1
        elif 0xC2 <= b1 <= 0xDF:
            if i + 1 >= n:
                out.append("\ufffd")
                break
            if cont(i + 1):
                out.append(chr(((b1 & 0x1F) << 6) | (data[i + 1] & 0x3F)))
                i += 2
            else:
                out.append("\ufffd")
                i += 1
        elif 0xE0 <= b1 <= 0xEF:
            bad2 = not cont(i + 1) or (b1 == 0xE0 and data[i + 1] < 0xA0)
            out.append("\ufffd")  # replaced below when the sequence is whole
            if i + 2 >= n:
                if i + 1 < n and bad2:
                    i += 1
                    continue
                break
            if bad2 or not cont(i + 2):
                i += 1 if bad2 else 2
                continue
            c = ((b1 & 0x0F) << 12) | ((data[i + 1] & 0x3F) << 6) | (data[i + 2] & 0x3F)
            if not 0xD800 <= c <= 0xDFFF:
                out[-1] = chr(c)
            i += 3
        elif 0xF0 <= b1 <= 0xF7:
            bad2 = (b1 > 0xF4 or not cont(i + 1)
                    or (b1 == 0xF0 and data[i + 1] < 0x90) or (b1 == 0xF4 and data[i + 1] > 0x8F))
            out.append("\ufffd")
            if i + 3 >= n:
                if (i + 1 < n and bad2) or b1 > 0xF4:
                    i += 1
                elif i + 2 < n and not cont(i + 2):
                    i += 2
                else:
                    break
                continue
            if bad2 or not cont(i + 2) or not cont(i + 3):
                i += 1 if bad2 else (2 if not cont(i + 2) else 3)
                continue
            out[-1] = chr(((b1 & 0x07) << 18) | ((data[i + 1] & 0x3F) << 12)
                          | ((data[i + 2] & 0x3F) << 6) | (data[i + 3] & 0x3F))
            i += 4
        else:
            out.append("\ufffd")
            i += 1
    return "".join(out)


# --------------------------------------------------------------------------------------------
# Reading Kafka's primitive types


class Reader:
    """Big-endian signed reads that check the remaining length first."""

    def __init__(self, data):
        self.data = data
        self.offset = 0

    @property
    def remaining(self):
        return len(self.data) - self.offset

    def need(self, field, length, what):
        if length > self.remaining:
            plural = "" if length == 1 else "s"
            raise DecodeError(
                field, self.offset, f"{what} needs {length} byte{plural}",
                f"only {self.remaining} remain",
            )

    def take(self, field, length, what):
        self.need(field, length, what)
        chunk = self.data[self.offset:self.offset + length]
        self.offset += length
        return chunk

    def int16(self, field):
        return int.from_bytes(self.take(field, 2, "int16"), "big", signed=True)

    def int32(self, field):
        return int.from_bytes(self.take(field, 4, "int32"), "big", signed=True)

    def nullable_string(self, field):
        length = self.int16(field)
        if length < 0:
            return None
        return java_utf8(self.take(field, length, "string"))

    def string(self, field):
        length_offset = self.offset
        value = self.nullable_string(field)
        if value is None:
            found = int.from_bytes(self.data[length_offset:length_offset + 2], "big", signed=True)
            raise DecodeError(
                field, length_offset, "a string length >= 0 (the field is not nullable)",
                f"found {found}",
            )
        return value

    def nullable_bytes(self, field):
        length = self.int32(field)
        if length < 0:
            return None
        return self.take(field, length, "bytes")

    def array(self, field, min_item_bytes, read_item):
        count_offset = self.offset
        count = self.int32(field)
        if count < 0:
            raise DecodeError(
                field, count_offset, "an array length >= 0 (the field is not nullable)",
                f"found {count}",
            )
        if count * min_item_bytes > self.remaining:
            raise DecodeError(
                field, count_offset,
                f"{count} elements need at least {count * min_item_bytes} bytes",
                f"only {self.remaining} remain",
            )
        return [read_item(f"{field}[{i}]") for i in range(count)]


def decode_subscription(data):
    """ConsumerProtocolSubscription versions 0-3; a newer version is read as 3."""
    reader = Reader(data)
    version = reader.int16("version")
    if version < 0:
        raise DecodeError("version", 0, "a version >= 0", f"found {version}")
    read_as = min(version, HIGHEST_SUBSCRIPTION_VERSION)
    topics = reader.array("topics", 2, reader.string)
    user_data = reader.nullable_bytes("userData")
    subscription = {
        "version": version,
        "topics": topics,
        "userData": user_data,
        "ownedPartitions": [],
        "generationId": -1,
        "rackId": None,
    }
    if read_as >= 1:
        def owned(field):
            return {
                "topic": reader.string(f"{field}.topic"),
                "partitions": reader.array(f"{field}.partitions", 4, reader.int32),
            }

        subscription["ownedPartitions"] = reader.array("ownedPartitions", 6, owned)
    if read_as >= 2:
        subscription["generationId"] = reader.int32("generationId")
    if read_as >= 3:
        subscription["rackId"] = reader.nullable_string("rackId")
    return subscription  # bytes after a complete body are ignored, as Kafka does


# --------------------------------------------------------------------------------------------
# The range assignor


def assign_range(partitions_per_topic, members, partition_racks=None):
    """members: (memberId, groupInstanceId or None, topics, rackId or None) in input order.
    partition_racks: topic -> per partition the racks of its replicas (None: no rack).
    Kafka 3.8's RangeAssignor, racks included (KIP-881), written plainly: every member scans
    every partition, which is fine at this size."""
    partition_racks = partition_racks or {}
    assignment = {member_id: {} for member_id, _, _, _ in members}
    racks = {m: r for m, _, _, r in members if r}  # None and "" are no rack
    members_per_topic = {}
    for member_id, instance_id, topics, _ in members:
        for topic in dict.fromkeys(topics):  # a topic listed twice counts once
            members_per_topic.setdefault(topic, []).append((member_id, instance_id))

    def member_order(member):
        member_id, instance_id = member
        if instance_id is not None:  # static members first ("" included), by instance id
            return (0, utf16_key(instance_id))
        return (1, utf16_key(member_id))

    states = []
    for topic, subscribers in members_per_topic.items():
        count = partitions_per_topic.get(topic)
        if not count:
            continue  # not in the metadata, or no partitions: nothing to assign
        subscribers.sort(key=member_order)
        consumers = [member_id for member_id, _ in subscribers]
        member_racks = {racks[c] for c in consumers if c in racks}
        replica_racks = [
            {r for r in (partition_racks.get(topic, [[]] * count)[p]) if r is not None}
            if member_racks else set()
            for p in range(count)
        ]
        all_racks = set().union(*replica_racks)
        needs = bool(member_racks & all_racks) and any(rs != all_racks for rs in replica_racks)
        per_member, extra = divmod(count, len(consumers))
        states.append({
            "topic": topic, "count": count, "consumers": consumers, "racks": replica_racks,
            "has_racks": bool(member_racks), "needs": needs, "per_member": per_member,
            "extra": extra, "taken": {c: 0 for c in consumers}, "owner": [None] * count,
        })

    def room(state, c):
        return max(0, state["per_member"] + (1 if state["extra"] > 0 else 0) - state["taken"][c])

    def matches(state, c, p):
        return c not in racks or racks[c] in state["racks"][p]

    def give(state, c, p):
        state["owner"][p] = c
        state["taken"][c] += 1
        if state["taken"][c] > state["per_member"]:
            state["extra"] -= 1

    def ranges(state, may):
        for c in state["consumers"]:
            free = [p for p in range(state["count"]) if state["owner"][p] is None and may(c, p)]
            for p in free[:room(state, c)]:
                give(state, c, p)

    if any(state["needs"] for state in states):
        groups = {}
        for state in states:
            if state["has_racks"]:
                key = (state["count"], tuple(state["consumers"]))
                groups.setdefault(key, []).append(state)
        for group in groups.values():
            if len(group) > 1:  # co-partitioned: partition p of every topic to one member
                for p in range(group[0]["count"]):
                    for c in group[0]["consumers"]:
                        if all(matches(s, c, p) and room(s, c) > 0 for s in group):
                            for s in group:
                                give(s, c, p)
                            break
            elif group[0]["needs"]:
                ranges(group[0], lambda c, p, s=group[0]: matches(s, c, p))
    for state in states:
        ranges(state, lambda c, p: True)
        for p, c in enumerate(state["owner"]):
            assignment[c].setdefault(state["topic"], []).append(p)
    return assignment


# --------------------------------------------------------------------------------------------
# The assignment bytes (SyncGroup)


def encode_assignment(partitions, user_data):
    """ConsumerProtocolAssignment version 3, as Kafka's ConsumerProtocol.serializeAssignment
    writes it, all big-endian: int16 version; int32 count of topic entries, then per topic an
    int16 UTF-8 byte length, the name, an int32 count and the int32 partitions (in the order
    given); int32 user-data length (-1 for null) and its bytes. partitions: topic -> partitions,
    in the member's assignment order; a topic with no partitions gets no entry."""
    entries = [(topic, parts) for topic, parts in partitions.items() if parts]
    out = [struct.pack(">h", ASSIGNMENT_VERSION), struct.pack(">i", len(entries))]
    for topic, parts in entries:
        # As TextEncoder does (the reference): a lone surrogate is written as U+FFFD.
        name = LONE_SURROGATE_RE.sub("\ufffd", topic).encode("utf-8")
        if len(name) > 0x7FFF:
            raise ValueError(f"topic name of {len(name)} UTF-8 bytes is longer than 32767")
        out.append(struct.pack(">h", len(name)) + name)
        out.append(struct.pack(f">i{len(parts)}i", len(parts), *parts))
    if user_data is None:
        out.append(struct.pack(">i", -1))
    else:
        out.append(struct.pack(">i", len(user_data)) + user_data)
    return b"".join(out)


# --------------------------------------------------------------------------------------------
# Input


def reject_constant(name):
    raise ValueError(f"{name} is not JSON")


def is_integer(value):
    if isinstance(value, bool):
        return False
    if isinstance(value, float):
        return value.is_integer()
    return isinstance(value, int)


def validate(data):
    """The checks of fixtures/schema/input.schema.json, then duplicates and odd hex."""
    if not isinstance(data, dict):
        raise InputError("input does not match input.schema.json: (root): must be object")
    problems = []
    for key in ("topics", "members"):
        if key not in data:
            problems.append(f"(root): must have required property '{key}'")
    for key in data:
        if key not in ("topics", "partitionRacks", "members"):
            problems.append(f"(root): must NOT have additional properties ({to_json(key)})")
    topics = data.get("topics", {})
    if not isinstance(topics, dict):
        problems.append("/topics: must be object")
    else:
        for name, count in topics.items():
            if not is_integer(count) or not 0 <= count <= 2**31 - 1:
                problems.append(f"/topics/{name}: must be an integer from 0 to 2147483647")
    partition_racks = data.get("partitionRacks", {})
    if not isinstance(partition_racks, dict):
        problems.append("/partitionRacks: must be object")
    else:
        for name, lists in partition_racks.items():
            where = f"/partitionRacks/{name}"
            if not isinstance(lists, list) or not all(
                isinstance(replicas, list)
                and all(r is None or isinstance(r, str) for r in replicas)
                for replicas in lists
            ):
                problems.append(f"{where}: must be an array of arrays of string or null")
    members = data.get("members", [])
    if not isinstance(members, list):
        problems.append("/members: must be array")
        members = []
    for i, member in enumerate(members):
        where = f"/members/{i}"
        if not isinstance(member, dict):
            problems.append(f"{where}: must be object")
            continue
        for key in ("memberId", "metadata"):
            if key not in member:
                problems.append(f"{where}: must have required property '{key}'")
        for key in member:
            if key not in ("memberId", "groupInstanceId", "metadata", "assignmentUserData"):
                problems.append(f"{where}: must NOT have additional properties ({to_json(key)})")
        if "memberId" in member and not isinstance(member["memberId"], str):
            problems.append(f"{where}/memberId: must be string")
        instance_id = member.get("groupInstanceId")
        if instance_id is not None and not isinstance(instance_id, str):
            problems.append(f"{where}/groupInstanceId: must be string,null")
        if "metadata" in member:
            metadata = member["metadata"]
            if not isinstance(metadata, str):
                problems.append(f"{where}/metadata: must be string")
            elif not METADATA_RE.fullmatch(metadata):
                problems.append(f"{where}/metadata: must be hex digits and white space")
        if "assignmentUserData" in member:
            user_data = member["assignmentUserData"]
            if not isinstance(user_data, str):
                problems.append(f"{where}/assignmentUserData: must be string")
            elif not METADATA_RE.fullmatch(user_data):
                problems.append(f"{where}/assignmentUserData: must be hex digits and white space")
    if problems:
        lines = "\n".join(f"  {p}" for p in problems)
        raise InputError(f"input does not match input.schema.json:\n{lines}")

    for name, lists in data.get("partitionRacks", {}).items():
        where = "/partitionRacks/" + name.replace("~", "~0").replace("/", "~1")
        if name not in data["topics"]:
            raise InputError(f"{where}: topic {to_json(name)} is not in topics")
        count = data["topics"][name]
        if len(lists) != count:
            raise InputError(
                f"{where}: {len(lists)} rack lists for {count} partitions (one list per partition)"
            )
    member_ids, instance_ids = set(), set()
    for i, member in enumerate(members):
        member_id = member["memberId"]
        if member_id in member_ids:
            raise InputError(f"/members/{i}: duplicate memberId {to_json(member_id)}")
        member_ids.add(member_id)
        instance_id = member.get("groupInstanceId")
        if instance_id is not None:
            if instance_id in instance_ids:
                raise InputError(
                    f"/members/{i}: duplicate groupInstanceId {to_json(instance_id)}"
                    " (a broker fences one of them)"
                )
            instance_ids.add(instance_id)
        if len(WHITESPACE_RE.sub("", member["metadata"])) % 2 != 0:
            raise InputError(f"/members/{i}/metadata: odd number of hex digits")
        if len(WHITESPACE_RE.sub("", member.get("assignmentUserData", ""))) % 2 != 0:
            raise InputError(f"/members/{i}/assignmentUserData: odd number of hex digits")
    return data


def read_input(path):
    try:
        if path is None:
            raw = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as file:
                raw = file.read()
    except OSError as error:
        raise InputError(f"cannot read {path or 'standard input'}: {error}") from None
    text = raw.decode("utf-8", errors="replace")
    try:
        data = json.loads(text, parse_constant=reject_constant)
    except (ValueError, RecursionError) as error:
        raise InputError(f"input is not JSON: {error}") from None
    return validate(data)


def parse_args(argv):
    decode, sync, positionals, options_done = False, False, [], False
    for arg in argv:
        if options_done or arg == "-" or not arg.startswith("-"):
            positionals.append(arg)
        elif arg == "--":
            options_done = True
        elif arg == "--decode":
            decode = True
        elif arg == "--sync":
            sync = True
        else:
            raise InputError(f"unknown option {arg}")
    if len(positionals) > 1:
        raise InputError("expected at most one FILE")
    if decode and sync:
        raise InputError("--decode and --sync cannot be given together")
    return decode, sync, (positionals[0] if positionals else None)


# --------------------------------------------------------------------------------------------
# The program


def run(argv):
    try:
        decode_only, sync, path = parse_args(argv)
    except InputError as error:
        sys.stderr.write(f"error: {error}\n{USAGE}\n")
        return EXIT_BAD_INPUT
    try:
        data = read_input(path)
        decoded = []
        for member in data["members"]:
            hex_digits = WHITESPACE_RE.sub("", member["metadata"])
            try:
                decoded.append((member, decode_subscription(bytes.fromhex(hex_digits))))
            except DecodeError as error:
                sys.stderr.write(f"error: member {to_json(member['memberId'])}: {error}\n")
                return EXIT_BAD_SUBSCRIPTION
        if decode_only:
            output = {
                member["memberId"]: {
                    "version": sub["version"],
                    "topics": sub["topics"],
                    "userData": None if sub["userData"] is None else sub["userData"].hex(),
                    "rackId": sub["rackId"],
                }
                for member, sub in decoded
            }
        else:
            partitions = {name: int(count) for name, count in data["topics"].items()}
            members = [
                (member["memberId"], member.get("groupInstanceId"), sub["topics"], sub["rackId"])
                for member, sub in decoded
            ]
            output = assign_range(partitions, members, data.get("partitionRacks"))
            if sync:
                user_data = {
                    member["memberId"]: (
                        bytes.fromhex(WHITESPACE_RE.sub("", member["assignmentUserData"]))
                        if "assignmentUserData" in member else None
                    )
                    for member in data["members"]
                }
                output = {
                    member_id: encode_assignment(partitions_of, user_data[member_id]).hex()
                    for member_id, partitions_of in output.items()
                }
    except InputError as error:
        sys.stderr.write(f"error: {error}\n")
        return EXIT_BAD_INPUT
    sys.stdout.buffer.write(f"{to_json(output)}\n".encode("utf-8"))
    sys.stdout.flush()
    return EXIT_OK


def main():
    try:
        return run(sys.argv[1:])
    except Exception:  # a bug, not bad input
        sys.stderr.write(f"internal error (a bug, not bad input):\n{traceback.format_exc()}")
        return EXIT_BUG


if __name__ == "__main__":
    sys.exit(main())
