// A wrong answer of 150,000 members, about 3 MB of JSON (under the 4 MiB output cap): status
// fail, reason wrong-output. Comparing, diagnosing and explaining it in full kept the grader busy
// for about a second a case; judged by its size, its explanation is two sentences with the counts.
const members: string[] = [];
for (let i = 0; i < 150_000; i++) members.push(`"m${i}":{"orders":[${i % 7}]}`);
process.stdout.write(`{${members.join(",")}}\n`);
