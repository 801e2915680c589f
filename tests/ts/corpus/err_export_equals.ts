// error: 3:8
const x = 1;
export = x;
