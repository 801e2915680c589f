//! mode: eval
//! env: CHIDORI_JS_DEADLINE_MS=5000
//! exit: 0
//! stdout: json:SyntaxError
//! stdout: eval:SyntaxError
//! stdout: regexp:SyntaxError
//! max-seconds: 15
// 100k-deep nesting must give clean errors, never a native stack overflow
function t(name, fn) { try { fn(); console.log(name + ":ok"); } catch (e) { console.log(name + ":" + e.name); } }
t("json", () => JSON.parse("[".repeat(100000) + "]".repeat(100000)));
t("eval", () => eval("(".repeat(100000) + "1" + ")".repeat(100000)));
t("regexp", () => new RegExp("(?:".repeat(100000) + "a" + ")".repeat(100000)));
