/**
 * verdict.ts's import of `printable` (its messages quote a program's first line of standard
 * error): the one definition is in report/escape.ts, with every other escape reports use.
 */
export { printable } from "../report/escape.ts";
