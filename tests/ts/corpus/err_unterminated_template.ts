// error: 2:9
let t = `abc ${1}
