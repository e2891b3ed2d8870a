// Tries: to inject into every report format through member and topic names, which reports quote:
// characters XML 1.0 cannot hold at all (U+FFFE, U+FFFF, a lone surrogate written as a JSON
// escape, NUL), a CDATA end and a comment start, HTML and Markdown (a closing </details>, a
// table cell break, an image), a spreadsheet formula, and GitHub workflow commands (a `::error`
// line and its `%0A` escaped form, a stop-commands resume). It prints a wrong answer (exit 0) whose
// member ids and topic names are those strings, and the same strings on standard error. Must get:
// fail / wrong-output, zero credit, every report well-formed (JUnit parses as XML 1.0 with none of
// those characters), and no line of standard output that GitHub would read as a command.
const NAMES = [
  "\uffff-noncharacter",
  "\ufffe-noncharacter",
  "\ud800-lone-surrogate",
  "nul-\u0000-inside",
  "]]><injected/><![CDATA[",
  "<!-- comment",
  "</details><img src=x onerror=alert(1)>",
  "| cell | break |",
  "=HYPERLINK(\"http://x\",\"y\")",
  "\n::error title=pwned::injected annotation",
  "%0A::error::escaped form",
  "::stop-commands::resume-token",
];
const answer: Record<string, Record<string, number[]>> = {};
NAMES.forEach((name, i) => {
  answer[name] = { [name]: [i] };
});
process.stdout.write(JSON.stringify(answer));
process.stderr.write(`${NAMES.join("\n")}\n`);
