// A dynamic import with a template string: esbuild would bundle every file the pattern matches,
// here every golden answer of the kit. The build must refuse them.
const id = "01-lesson-7-partitions-3-members";
const expected = (await import(`../../../../fixtures/cases/${id}/expected.json`)) as {
  default: { output: unknown };
};
process.stdout.write(`${JSON.stringify(expected.default.output)}\n`);
