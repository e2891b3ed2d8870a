/**
 * The one error a subscription decoder throws for bytes that are not a valid
 * ConsumerProtocolSubscription. The program (main.ts) catches this type alone: it turns it into
 * exit code 1 and the line `error: member "<id>": <message>` on standard error. Any other
 * exception is a crash (exit 70), so a decoder must never let a RangeError or TypeError escape
 * for bad bytes.
 */

/** What a decoder knows when a read fails. */
export interface DecodeErrorDetails {
  /**
   * Path of the field whose read failed, with Kafka's field names (ConsumerProtocolSubscription.json)
   * and 0-based indexes: `version`, `topics`, `topics[1]`, `userData`, `ownedPartitions[0].topic`,
   * `ownedPartitions[0].partitions[2]`, `generationId`, `rackId`.
   */
  readonly field: string;
  /** Byte offset (from the start of the subscription, 0-based) of the first byte of that read. */
  readonly offset: number;
  /** What the read needed, e.g. `string needs 4 bytes` or `a version >= 0`. */
  readonly expected: string;
  /** What it found instead, e.g. `only 2 remain` or `found -1`. */
  readonly found: string;
  /** The member whose bytes these are, when the caller knows it (main.ts fills it in). */
  readonly memberId?: string | undefined;
}

/**
 * Thrown for bytes that are not a valid subscription.
 *
 * `message` is built from the details: `topics[1]: string needs 4 bytes at offset 11, only 2 remain`,
 * prefixed with `member "<id>": ` when `memberId` is set.
 *
 * @example
 *   throw new SubscriptionDecodeError({
 *     field: "topics[1]", offset: 11, expected: "string needs 4 bytes", found: "only 2 remain",
 *   });
 */
export class SubscriptionDecodeError extends Error implements DecodeErrorDetails {
  readonly field: string;
  readonly offset: number;
  readonly expected: string;
  readonly found: string;
  readonly memberId: string | undefined;

  constructor(details: DecodeErrorDetails) {
    const where = `${details.field}: ${details.expected} at offset ${details.offset}, ${details.found}`;
    super(
      details.memberId === undefined
        ? where
        : `member ${JSON.stringify(details.memberId)}: ${where}`,
    );
    this.name = "SubscriptionDecodeError";
    this.field = details.field;
    this.offset = details.offset;
    this.expected = details.expected;
    this.found = details.found;
    this.memberId = details.memberId;
  }

  /** The same error, attributed to a member (returns a new error; this one is left unchanged). */
  forMember(memberId: string): SubscriptionDecodeError {
    return new SubscriptionDecodeError({ ...this.details(), memberId });
  }

  /** The details as a plain object (for reports and tests). */
  details(): DecodeErrorDetails {
    return {
      field: this.field,
      offset: this.offset,
      expected: this.expected,
      found: this.found,
      memberId: this.memberId,
    };
  }
}
