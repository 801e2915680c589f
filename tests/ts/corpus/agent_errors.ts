class AgentError extends Error {
  constructor(message: string, public readonly code: number, private detail?: unknown) {
    super(message);
    this.name = "AgentError";
  }
  describe(): string { return `${this.name}[${this.code}]: ${this.message}`; }
}
function mustPositive(n: number): asserts n is number { if (n <= 0) throw new AgentError("not positive", 400, { n }); }
try { mustPositive(-1); } catch (e) { if (e instanceof AgentError) console.log(e.describe(), e.code); }
const failing = async (): Promise<never> => { throw new AgentError("async fail", 500); };
failing().catch((e: AgentError) => console.log(e.describe()));
