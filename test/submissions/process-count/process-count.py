# Tries (a --cmd program): to start more processes than a run may have (docs/sandbox.md: at most
# 256), the first step of a fork bomb that would exhaust the processes the grader's own user may
# have (in user-namespace mode programs run as that user) and so make other programs, and the
# grader itself, fail to start one. Bounded by a count: it forks up to 600 children that sleep,
# counts those that started, says how many on standard error, and exits 2 (its sandbox kills the
# children). Must get: error / crash, zero credit, and at most 256 processes in the run.
import os
import sys
import time

TRIES = 600
started = 0
why = "all started"
for _ in range(TRIES):
    try:
        pid = os.fork()
    except OSError as e:
        why = f"then {type(e).__name__}"
        break
    if pid == 0:
        time.sleep(60)
        os._exit(0)
    started += 1
sys.stderr.write(f"processes started: {started + 1} of {TRIES + 1} ({why})\n")
sys.exit(2)
