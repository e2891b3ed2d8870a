// Tries (a folder of a --batch): to fail a classmate's build. The test makes this folder's
// src/range-assignor.ts a hard link to a classmate's (what extracting a student's tar archive into
// the batch folder does with a hard-link entry naming the classmate's file, once that one is
// there); staging refuses a file with more than one hard link, in both folders. Besides that file,
// this folder is the starter's main program and helpers, copied in by the test. Must get: zero
// credit itself, and the classmate's grade unchanged (full marks for the reference).
throw new Error("the test copies starter/src/main.ts over this file");
