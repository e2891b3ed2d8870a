// Prints something that is not JSON and exits 0 (status fail, reason invalid-output).
process.stdout.write("consumer-1: orders 0 1 2\n");
