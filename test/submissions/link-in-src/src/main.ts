// The test copies this submission and adds src/answers.json as a symbolic link, a hard link or a
// FIFO (git keeps none of them reliably). Staging must refuse each by name, before any tool reads
// it: a link would show a golden answer, a FIFO would block the reader.
import answers from "./answers.json";
process.stdout.write(`${JSON.stringify((answers as { output: unknown }).output)}\n`);
