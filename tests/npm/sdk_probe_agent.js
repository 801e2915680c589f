// tests/npm/sdk_probe_agent.js — one request from each SDK; prints how each ended (tests/cases_npm_sdks.py:
// the SSRF guard and the policy gate refuse them).
import { run } from "chidori:agent";
import OpenAI from "openai";
import Anthropic from "@anthropic-ai/sdk";
run(async (input) => {
  const out = {};
  try {
    const oa = new OpenAI({ apiKey: "sk-test", baseURL: input.base + "/v1", maxRetries: 0 });
    await oa.chat.completions.create({ model: "m", messages: [{ role: "user", content: "x" }] });
    out.openai = "sent";
  } catch (e) { out.openai = e.constructor.name + ": " + String(e.cause?.message ?? e.message); }
  try {
    const an = new Anthropic({ apiKey: "sk-test", baseURL: input.base, maxRetries: 0 });
    await an.messages.create({ model: "m", max_tokens: 4, messages: [{ role: "user", content: "x" }] });
    out.anthropic = "sent";
  } catch (e) { out.anthropic = e.constructor.name + ": " + String(e.cause?.message ?? e.message); }
  return out;
});
