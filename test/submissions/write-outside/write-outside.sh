#!/bin/sh
# Tries (a --cmd program): to write outside the private folders of its run (/tmp, /var/tmp,
# /dev/shm). Each place is tried as a file and, where the program owns the folder, by making it
# writable first (chmod needs no capability, only ownership: in user-namespace mode the run's own
# tmpfs mounts, /dev among them, belong to the namespace's root, which is the program's uid). It
# lists what it could write and exits 2. Must get: error / crash, zero credit, and
# `writes outside the private folders: none`.
wrote=""
for dir in / /dev /dev/shm/program /proc "$PWD" /usr /etc /bin; do
  chmod u+w "$dir" 2>/dev/null
  if (: > "$dir/kit-write-outside") 2>/dev/null; then
    wrote="$wrote $dir"
    rm -f "$dir/kit-write-outside" 2>/dev/null
  fi
done
echo "writes outside the private folders:${wrote:- none}" >&2
exit 2
