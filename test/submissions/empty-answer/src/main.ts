// Prints an empty object for every case (status fail: wrong-output, or wrong-error for bad input).
process.stdout.write("{}\n");
