/**
 * Writing report files where a program may have planted something: a symbolic link (to make the
 * grader, perhaps root, overwrite another file), a FIFO (to hang it) or a socket. The file is
 * opened without following a final symbolic link and without blocking, must turn out to be a
 * regular file, and only then is truncated and written.
 */
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  ftruncateSync,
  openSync,
  writeSync,
} from "node:fs";
import { SetupError } from "./errors.ts";

/**
 * Writes `data` to `path`, creating it (mode 0644, or 0600 with `ownerOnly`) or replacing a regular
 * file's contents.
 *
 * @param options.exclusive create the file only: an existing one (of any kind) is an error, never
 *   written over (the batch's results files, one per submission)
 * @param options.ownerOnly for the owner's eyes alone (the instructor's view of private cases):
 *   created, or an existing file changed, to mode 0600 before anything is written
 * @throws SetupError when `path` is a symbolic link, a FIFO, a socket, a device or a folder,
 *   exists already and `exclusive` is set, or cannot be opened (the message names the path and
 *   what it is)
 */
export function writeReportFile(
  path: string,
  data: string | Uint8Array,
  options: { exclusive?: boolean; ownerOnly?: boolean } = {},
): void {
  let fd: number;
  try {
    fd = openSync(
      path,
      constants.O_WRONLY |
        constants.O_CREAT |
        constants.O_NOFOLLOW |
        constants.O_NONBLOCK |
        (options.exclusive === true ? constants.O_EXCL : 0),
      options.ownerOnly === true ? 0o600 : 0o644,
    );
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") {
      throw new SetupError(`cannot write the report file ${path}: it exists already`);
    }
    const why =
      code === "ELOOP"
        ? "it is a symbolic link"
        : code === "ENXIO"
          ? "it is a FIFO or socket with no reader"
          : code === "EISDIR"
            ? "it is a folder"
            : (error as Error).message;
    throw new SetupError(`cannot write the report file ${path}: ${why}; remove it first`);
  }
  try {
    if (!fstatSync(fd).isFile()) {
      throw new SetupError(
        `cannot write the report file ${path}: it is not a regular file; remove it first`,
      );
    }
    if (options.ownerOnly === true) fchmodSync(fd, 0o600);
    ftruncateSync(fd, 0);
    const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written);
  } finally {
    closeSync(fd);
  }
}
