namespace Prompt {
  export interface Message { role: "system" | "user" | "assistant"; content: string }
  export const defaultSystem = "You are helpful.";
  export function build(user: string, system: string = defaultSystem): Message[] {
    return [{ role: "system", content: system }, { role: "user", content: user }];
  }
  export namespace Format {
    export const sep = "\n---\n";
    export function render(ms: Message[]): string { return ms.map((m) => `${m.role}: ${m.content}`).join(sep); }
  }
}
const msgs: Prompt.Message[] = Prompt.build("hi");
console.log(Prompt.Format.render(msgs));
