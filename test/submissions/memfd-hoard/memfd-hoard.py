# Tries (a --cmd program): to hold memory outside every limit the sandbox sets. An anonymous
# memory file (memfd_create) lives in the kernel's shared memory: not in the data limit
# (RLIMIT_DATA), not in the resident size the grader polls (nothing maps it), and not in the 64 MiB
# of the private /tmp. Each file is held to the file-size limit (4 MiB), so it opens many: 1 GiB
# in all (well above the 768 MiB data limit and the 896 MiB tree limit), bounded by a count. It
# says how much it held on standard error and exits 2. Must get: error / memory, or hold no more
# than the data limit; zero credit either way.
import os
import resource
import sys

TARGET = 1024 * 1024 * 1024
CHUNK = b"a" * (1024 * 1024)
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
try:
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
except (ValueError, OSError):
    pass
held = 0
files = []
why = "target reached"
try:
    while held < TARGET and len(files) < 4096:
        fd = os.memfd_create("kit-hoard")
        files.append(fd)
        for _ in range(4):
            if held >= TARGET:
                break
            os.write(fd, CHUNK)
            held += len(CHUNK)
except OSError as e:
    why = f"{type(e).__name__}: {e}"
sys.stderr.write(f"held {held // (1024 * 1024)} MiB in memory files ({len(files)} files; {why})\n")
sys.exit(2)
