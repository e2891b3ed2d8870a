// Tries (an upload to Gradescope's run_autograder, templates/gradescope/): to have another folder
// on the autograder's disk graded in its place. run_autograder lists the upload's src/main.ts files
// with `find -printf '%d\t%p\n'` and keeps the lines that end in /src/main.ts; a folder name that
// holds a newline splits a path into two lines, and the second can name any folder. The test puts
// this file (a program that answers `{}` to everything) at `<upload>/x<newline><F>/src/main.ts`,
// where <F> is a folder outside the upload holding the kit's reference (a link to solution/), so
// that the only line kept names the reference. Must get: zero points (the upload's own program
// graded, or the upload refused), never the reference's marks.
process.stdout.write("{}\n");
