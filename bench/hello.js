// The peer's side of bench/startup: print the same greeting the agent returns.
console.log(JSON.stringify({ greeting: "Hello, world!" }, null, 2));
