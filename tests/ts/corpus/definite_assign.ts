let x!: number;
x = 4;
class K { y!: string; constructor() { this.y = "ok"; } }
console.log(x, new K().y);
