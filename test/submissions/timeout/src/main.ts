// Never finishes: the grader must stop it at the time limit (status timeout).
for (;;) {
  // busy
}
