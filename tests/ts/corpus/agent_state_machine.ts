enum Phase { Idle, Planning, Acting, Done = 99 }
type Transition = { from: Phase; to: Phase; reason?: string };
abstract class Agent<S extends object> {
  protected history: Transition[] = [];
  constructor(protected state: S, private phase: Phase = Phase.Idle) {}
  protected move(to: Phase, reason?: string): void {
    this.history.push({ from: this.phase, to, reason });
    this.phase = to;
  }
  abstract step(): boolean;
  get current(): string { return Phase[this.phase]; }
  runAll(max = 10): Transition[] { let i = 0; while (this.step() && i++ < max); return this.history; }
}
class Counter extends Agent<{ n: number }> {
  step(): boolean {
    const s = this.state!;
    if (s.n >= 2) { this.move(Phase.Done, "limit"); return false; }
    s.n++;
    this.move(s.n % 2 ? Phase.Planning : Phase.Acting);
    return true;
  }
}
const c = new Counter({ n: 0 });
console.log(JSON.stringify(c.runAll()), c.current);
