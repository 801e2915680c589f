const one = 1, two = 2;
function three(): number { return 3; }
export { one, two as deux, three };
console.log(one, two, three());
