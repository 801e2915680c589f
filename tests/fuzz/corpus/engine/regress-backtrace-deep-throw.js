function deep(n) { if (n > 0) return deep(n - 1); for (;;) { try { null.x; } catch (e) {} } }
deep(1500);
