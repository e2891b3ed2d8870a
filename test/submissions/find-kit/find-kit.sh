#!/bin/sh
# A --cmd program that looks for the kit's own reference (examples/python/main.py is a complete
# solution) and runs it: from its folder upwards, from every path in its mount table, and over the
# whole tree. The sandbox gives it a root of its own, so it finds nothing and prints an empty
# answer (status fail, reason wrong-output).
for start in "$PWD" $(awk '{print $4; print $5}' /proc/self/mountinfo 2>/dev/null); do
  d=$start
  while [ -n "$d" ] && [ "$d" != "/" ]; do
    if [ -f "$d/examples/python/main.py" ]; then exec python3 "$d/examples/python/main.py" "$@"; fi
    d=$(dirname "$d")
  done
done
found=$(find / -path /proc -prune -o -name main.py -path '*examples/python/*' -print 2>/dev/null | head -n 1)
if [ -n "$found" ]; then exec python3 "$found" "$@"; fi
echo '{}'
