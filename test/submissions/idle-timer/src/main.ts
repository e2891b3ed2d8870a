// Waits forever without using the CPU: only the wall-clock limit stops it (status timeout).
setInterval(() => {}, 1000);
