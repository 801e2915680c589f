class Store<S> {
  private listeners: Array<(s: S) => void> = [];
  constructor(private state: S) {}
  subscribe = (l: (s: S) => void): (() => void) => { this.listeners.push(l); return () => {}; };
  set = (p: Partial<S>): void => { this.state = { ...this.state, ...p }; this.listeners.forEach((l) => l(this.state)); };
}
const st = new Store({ a: 1, b: 2 });
st.subscribe((s) => console.log(JSON.stringify(s)));
st.set({ b: 3 });
