// Exits with Kafka-unrelated failure code 70, as main.ts does for a bug (status error, reason crash).
process.stderr.write(
  "internal error (a bug, not bad input):\nTypeError: boom\n    at main (src/main.ts:3:1)\n",
);
process.exitCode = 70;
