namespace Util {
  export const version = "1.0";
  const secret = 42;
  export function reveal(): number { return secret; }
  export class Helper { hi() { return "hi"; } }
}
console.log(Util.version, Util.reveal(), new Util.Helper().hi(), Object.keys(Util));
