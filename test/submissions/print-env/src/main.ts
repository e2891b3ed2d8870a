// Prints its whole environment on standard error, where the report shows it: it must hold no
// secret of the grader's.
process.stderr.write(`environment: ${JSON.stringify(process.env)}\n`);
process.exitCode = 70;
