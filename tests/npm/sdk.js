// tests/npm/sdk.js — the official openai and @anthropic-ai/sdk packages against a local fake
// provider (fake_provider.py): printed by sdk_agent.js under chidori and by sdk_node.mjs under
// Node, and compared. Every request goes through the global fetch.
import OpenAI, { toFile, NotFoundError } from "openai";
import Anthropic, { RateLimitError } from "@anthropic-ai/sdk";

export async function results(base) {
  const out = {};
  const oa = new OpenAI({ apiKey: "sk-test", baseURL: base + "/v1", maxRetries: 0 });
  const chat = await oa.chat.completions.create({ model: "gpt-test", messages: [{ role: "user", content: "hello" }] });
  out.chat = { text: chat.choices[0].message.content, usage: chat.usage, id: chat.id };
  const { data: raw, response } = await oa.chat.completions.create({ model: "gpt-test", messages: [{ role: "user", content: "raw" }] }).withResponse();
  out.withResponse = { status: response.status, requestId: response.headers.get("x-request-id"), text: raw.choices[0].message.content };
  const stream = await oa.chat.completions.create({ model: "gpt-test", messages: [{ role: "user", content: "streamed" }], stream: true });
  const deltas = [];
  for await (const chunk of stream) deltas.push(chunk.choices[0].delta.content ?? "|" + chunk.choices[0].finish_reason);
  out.chatStream = deltas;
  const models = [];
  for await (const m of oa.models.list()) models.push(m.id);
  out.models = models;
  const file = await oa.files.create({ file: await toFile(new TextEncoder().encode("line one\nline two\n"), "notes.jsonl"), purpose: "fine-tune" });
  out.upload = { filename: file.filename, bytes: file.bytes, purpose: file.purpose, content: file.content };
  const emb = await oa.embeddings.create({ model: "emb-test", input: ["abc", "z"], encoding_format: "float" });
  out.embeddings = emb.data.map((d) => d.embedding);
  try {
    await oa.beta.assistants.retrieve("nope");
    out.notFound = "no error";
  } catch (e) {
    out.notFound = { isNotFound: e instanceof NotFoundError, status: e.status, message: e.message };
  }

  const an = new Anthropic({ apiKey: "sk-ant-test", baseURL: base, maxRetries: 0 });
  const msg = await an.messages.create({ model: "claude-test", max_tokens: 64, messages: [{ role: "user", content: "bonjour" }] });
  out.message = { text: msg.content[0].text, stop: msg.stop_reason, usage: msg.usage };
  const events = [];
  const ms = an.messages.stream({ model: "claude-test", max_tokens: 64, messages: [{ role: "user", content: "flux" }] });
  ms.on("text", (t) => events.push(t));
  const final = await ms.finalMessage();
  out.messageStream = { events, text: final.content[0].text, stop: final.stop_reason, output: final.usage.output_tokens };
  try {
    await an.messages.create({ model: "overloaded", max_tokens: 8, messages: [{ role: "user", content: "x" }] });
    out.rateLimited = "no error";
  } catch (e) {
    out.rateLimited = { isRateLimit: e instanceof RateLimitError, status: e.status, type: e.error?.error?.type, requestId: e.requestID ?? e.request_id ?? null };
  }
  return out;
}
