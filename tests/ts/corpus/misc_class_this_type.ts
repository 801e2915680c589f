class Builder {
  private parts: string[] = [];
  add(p: string): this { this.parts.push(p); return this; }
  build(): string { return this.parts.join(" "); }
}
console.log(new Builder().add("a").add("b").build());
