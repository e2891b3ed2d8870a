// An uncaught exception: Node exits 1, but without the documented bad-input line (a crash).
throw new TypeError("Cannot read properties of undefined (reading 'length')");
