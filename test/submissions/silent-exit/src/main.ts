// Prints nothing and exits 0 (status fail, reason invalid-output: empty output is not JSON).
process.exitCode = 0;
