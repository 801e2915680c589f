export default abstract class Base { abstract run(): string; hello() { return "base"; } }
class Impl extends Base { run() { return "run"; } }
console.log(new Impl().run(), new Impl().hello());
