interface Unused { a: number }
type Also = string;
function where(): string {
  const line = new Error().stack!.split("\n")[1];
  return line.replace(/^.*:(\d+):(\d+)\)?$/, "$1:$2");
}
const w: string = where(); console.log(/^\d+:\d+$/.test(w) ? "pos ok" : "pos " + w);
