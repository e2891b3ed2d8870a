// Imports the golden answer through a symlink inside its own folder, without an extension, so
// the import text looks local. The build must refuse the file the symlink points to.
// @ts-expect-error: no such module for the type checker
import answers from "./answers";
process.stdout.write(`${JSON.stringify((answers as { output: unknown }).output)}\n`);
