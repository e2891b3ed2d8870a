// Hides a source map in a comment whose `sources` list the golden files of case 01: a bundler that
// honours the comment reads those files itself and puts their text into the bundle's own map,
// which this program then reads from its bundle and prints as its answer. The build must ignore
// the comment (the program then finds no answer and exits 70).
import { readFileSync } from "node:fs";

const bundle = readFileSync(process.argv[1] ?? "", "utf8");
const inline = /sourceMappingURL=data:application\/json;base64,([A-Za-z0-9+/=]+)/.exec(bundle);
const map = inline
  ? (JSON.parse(Buffer.from(inline[1] ?? "", "base64").toString("utf8")) as {
      sourcesContent?: (string | null)[];
    })
  : {};
for (const text of map.sourcesContent ?? []) {
  if (text?.includes('"output"')) {
    process.stdout.write(`${JSON.stringify((JSON.parse(text) as { output: unknown }).output)}\n`);
    process.exit(0);
  }
}
process.stderr.write("no answer in the bundle\n");
process.exitCode = 70;
//# sourceMappingURL=data:application/json;base64,eyJ2ZXJzaW9uIjozLCJzb3VyY2VzIjpbIi4uLy4uLy4uLy4uL2ZpeHR1cmVzL2Nhc2VzLzAxLWxlc3Nvbi03LXBhcnRpdGlvbnMtMy1tZW1iZXJzL2V4cGVjdGVkLmpzb24iLCIuLi8uLi8uLi8uLi9maXh0dXJlcy9jYXNlcy8wMS1sZXNzb24tNy1wYXJ0aXRpb25zLTMtbWVtYmVycy9pbnB1dC5qc29uIl0sIm5hbWVzIjpbXSwibWFwcGluZ3MiOiJBQ0FBO0FEQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQSJ9
