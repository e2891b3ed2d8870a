// Names a source map file outside the submission (../../answers.map, which the test writes next to
// its copy of this submission, listing the golden files of case 01 in `sources`): a bundler that
// honours the comment reads the map and the files it lists. The build must ignore the comment.
process.stderr.write("no answer\n");
process.exitCode = 70;
//@ sourceMappingURL=../../answers.map
/*# sourceMappingURL=../../answers.map */
//# sourceMappingURL=../../answers.map
