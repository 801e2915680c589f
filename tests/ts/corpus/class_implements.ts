interface Greeter { greet(): string }
interface Named { name: string }
class G implements Greeter, Named {
  name = "g";
  greet() { return "hi " + this.name; }
}
console.log(new G().greet());
