/**
 * The one order the grader sorts ids and names in, wherever it shows or compares them: plain
 * UTF-16 code units, as Kafka's Java String.compareTo (never locale order).
 */
export function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
