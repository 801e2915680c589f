type Events = { start: { id: number }; stop: { id: number; reason: string } };
class Bus<E extends Record<string, object>> {
  private handlers: { [K in keyof E]?: Array<(e: E[K]) => void> } = {};
  on<K extends keyof E>(k: K, h: (e: E[K]) => void): () => void {
    (this.handlers[k] ??= []).push(h);
    return () => { this.handlers[k] = this.handlers[k]!.filter((x) => x !== h); };
  }
  emit<K extends keyof E>(k: K, e: E[K]): number { const hs = this.handlers[k] ?? []; hs.forEach((h) => h(e)); return hs.length; }
}
const bus = new Bus<Events>();
const off = bus.on("start", (e) => console.log("start", e.id));
bus.on("stop", ({ id, reason }) => console.log("stop", id, reason));
console.log(bus.emit("start", { id: 1 }));
off();
console.log(bus.emit("start", { id: 2 }), bus.emit("stop", { id: 3, reason: "done" }));
