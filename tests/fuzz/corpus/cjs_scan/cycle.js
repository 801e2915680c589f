// CommonJS entry: a cycle (a → b → a), JSON through require, a built-in, module-scope names.
exports.name = "cjs-cycle";
const a = require("./a");
exports.bSawALoaded = a.bSawALoaded;
exports.aDone = a.done;
exports.data = require("./data.json");
exports.sameInstance = require("./a") === a;
exports.file = __filename;
exports.dir = __dirname;
exports.joined = require("path").join("x", "y");
exports.thisIsExports = this === module.exports;
module.exports.count = 3;
Object.defineProperty(exports, "defined", { enumerable: true, value: "by defineProperty" });
