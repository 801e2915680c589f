// error: 2:18
const a = (1 + 2));
