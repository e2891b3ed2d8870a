// Maps an import to the golden answer through its own tsconfig.json "paths". The build ignores a
// submission's tsconfig.json, so this import does not resolve.
// @ts-expect-error: no such module for the type checker
import answers from ".answers";
process.stdout.write(`${JSON.stringify((answers as { output: unknown }).output)}\n`);
