// Sleeps 2.5 s without using the CPU, then throws. With --timeout 1000 that is a failure that
// took more than half the time limit, so it counts towards skipping like a timeout: after three
// such cases every later case is skipped, whatever the machine's load.
setTimeout(() => {
  throw new Error("slow crash: gave up after 2.5 s");
}, 2500);
