function greet(name: string) { return "hi " + name; }
namespace greet { export const polite = "good day"; }
console.log(greet("x"), greet.polite);
