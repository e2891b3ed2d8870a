// The test copies this submission and adds 300 more files to src/: staging must refuse a
// submission over its file cap (200) without copying them all.
process.stdout.write("{}\n");
