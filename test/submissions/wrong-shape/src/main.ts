// Prints JSON of the wrong shape: partitions as strings (status fail, reason invalid-output).
process.stdout.write(JSON.stringify({ "consumer-1": { orders: ["0", "1"] } }) + "\n");
