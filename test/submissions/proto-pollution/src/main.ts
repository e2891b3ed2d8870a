// Prints an answer whose keys try to pollute the grader's prototypes when parsed carelessly.
// The grader must judge it as an ordinary wrong answer and stay unpolluted.
process.stdout.write(
  '{"__proto__": {"orders": [0, 1, 2]}, "constructor": {"prototype": [1]}, "consumer-a": {"__proto__": [3]}}\n',
);
