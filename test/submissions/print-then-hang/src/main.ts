// Prints something that looks like an answer, then never exits (status timeout).
process.stdout.write('{"consumer-a": {"orders": [0, 1, 2]}}\n');
setInterval(() => {}, 1000);
