# Tries (a --cmd program): to leave something behind that outlives its run and reach a later run
# through it: a key in its user keyring. The kernel keeps a user's keyring, keyed by uid, after
# that user's last process has ended; as root the grader runs programs as run identities in the
# machine's own user namespace, and hands an identity to the next run (a later case, another
# submission, another grading) once a run ends. On every case it first looks for a key an earlier
# run left in its user keyring and says what it found, then leaves one holding the start of its
# own input (a private case's input would do as well), set to expire after a minute so that the
# machine is not left with it. It exits 2 (what it found is the first line of standard error).
# Must get: error / crash, zero credit, and no case finding what another run left.
import ctypes
import os
import sys

SYS_ADD_KEY, SYS_KEYCTL = 248, 250  # x86_64
KEY_SPEC_USER_KEYRING = -4
KEYCTL_SET_TIMEOUT, KEYCTL_SEARCH, KEYCTL_READ = 15, 10, 11
NAME = b"kit-keyring-leftover"

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
data = sys.stdin.read()
found = libc.syscall(
    SYS_KEYCTL, KEYCTL_SEARCH, KEY_SPEC_USER_KEYRING, b"user", NAME, 0
)
if found >= 0:
    buf = ctypes.create_string_buffer(200)
    n = libc.syscall(SYS_KEYCTL, KEYCTL_READ, ctypes.c_long(found), buf, 200)
    text = buf.raw[: max(0, min(n, 200))].decode("utf-8", "replace")
    sys.stderr.write(f"found a key an earlier run left: {text!r}\n")
else:
    sys.stderr.write("found no key of an earlier run\n")
left = f"uid {os.getuid()} left: {' '.join(data.split())[:80]}".encode()
key = libc.syscall(SYS_ADD_KEY, b"user", NAME, left, len(left), KEY_SPEC_USER_KEYRING)
if key >= 0:
    libc.syscall(SYS_KEYCTL, KEYCTL_SET_TIMEOUT, ctypes.c_long(key), 60)
sys.exit(2)
