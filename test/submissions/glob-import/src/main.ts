// Computed imports: esbuild expands a template string or a concatenation into every file the
// pattern matches, reading the folders to find them, so the bundle (or the build errors) would
// list every case's name and hold every golden answer. The build must refuse each before bundling.
const id = process.argv[2] ?? "01-lesson-7-partitions-3-members";
const viaTemplate = (await import(`../../../../fixtures/cases/${id}/expected.json`)) as {
  default: { output: unknown };
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const viaRequire = require("../../../../fixtures/cases/" + id + "/expected.json") as {
  output: unknown;
};
const dir = "../../../../private-cases/";
const viaVariable = (await import(dir + id + "/expected.json")) as { default: unknown };
process.stdout.write(
  `${JSON.stringify([viaTemplate.default.output, viaRequire.output, viaVariable.default])}\n`,
);
