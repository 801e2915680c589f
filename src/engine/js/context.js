/* context.js — chidori.context(seed?) and chidori.conversation(options?), evaluated by the prelude
 * on first use (loadBuiltin("context.js")) with `lib`, the prelude's own seam and intrinsics.
 *
 * A context is an immutable list of segments built here, in the agent: every builder returns a
 * new frozen context whose parent is the receiver, so contexts made from one base share it. Only
 * prompt(), respond() and compact() cross the seam, as `prompt` calls carrying the segments
 * (`__context`); the host maps them to the provider request (host/context_request.c). digest()
 * is a synchronous, unrecorded `context_digest` call; estimateTokens() is pure. Tool loops run
 * here: each model turn is one `prompt` record, each tool call a `tool` record (registry names)
 * or a `mark` plus the handle's own effects (defineTool handles).
 * A conversation is a small stateful wrapper over one context. Trusts nothing: the host checks
 * every segment again.
 */
(function (lib) {
  "use strict";
  const effect = lib.effect, callSync = lib.callSync, chidori = lib.chidori, plainPrompt = lib.prompt;
  const mark = lib.mark, messageOfError = lib.messageOfError;
  const JSONStringify = lib.JSONStringify, JSONParse = lib.JSONParse, ObjectFreeze = lib.ObjectFreeze;
  const ObjectCreate = lib.ObjectCreate, ObjectKeys = lib.ObjectKeys, ArrayIsArray = lib.ArrayIsArray;
  const StringCtor = lib.StringCtor, TypeErrorCtor = lib.TypeErrorCtor;
  // the builtins captured before guest code ran (primordials.js): never the live prototypes
  const P = lib.primordials;
  const MathCeil = P.MathCeil, MathFloor = P.MathFloor, MathMax = P.MathMax;
  const NumberCtor = P.NumberCtor, NumberIsFinite = P.NumberIsFinite;
  const PromiseThen = P.PromiseThen, PromiseOwn = P.PromiseOwn, MapCtor = P.MapCtor, u = P.uncurry;
  const MapGet = u(P.MapPrototypeGet), MapSet = u(P.MapPrototypeSet), MapForEach = u(P.MapPrototypeForEach);
  const MapSize = u(P.MapPrototypeGetSize), ArrayIndexOf = u(P.ArrayPrototypeIndexOf), ArrayJoin = u(P.ArrayPrototypeJoin);
  const ArraySlice = u(P.ArrayPrototypeSlice), ArrayReverse = u(P.ArrayPrototypeReverse);
  const StringToLowerCase = u(P.StringPrototypeToLowerCase), StringTrim = u(P.StringPrototypeTrim);
  const nodes = new P.WeakMapCtor(); // context → {parent, segment, handles}
  const WeakMapGet = (k) => P.ReflectApply(P.WeakMapPrototypeGet, nodes, [k]);
  const WeakMapSet = (k, v) => P.ReflectApply(P.WeakMapPrototypeSet, nodes, [k, v]);

  const DEFAULT_MAX_TURNS = 10;  // ctx.prompt()'s tool loop, as the original's host loop
  const HANDLE_MAX_TURNS = 8;    // conversation().say()'s loop over defineTool handles
  const SUMMARIZER =
    "You compact conversation history. Summarize the transcript below into a brief that keeps every " +
    "fact, decision, constraint, open question and commitment needed to continue the conversation. " +
    "Reply with the summary only.";

  function deepFreeze(v) {
    if (v !== null && typeof v === "object") {
      ObjectFreeze(v);
      const keys = ObjectKeys(v);
      for (let i = 0; i < keys.length; i++) deepFreeze(v[keys[i]]);
    }
    return v;
  }

  function jsonCopy(what, v) {
    let text;
    try { text = JSONStringify(v); } catch (e) { throw new TypeErrorCtor(what + " is not JSON-serializable: " + messageOfError(e)); }
    return text === undefined ? undefined : JSONParse(text);
  }

  function isHandle(t) { return t !== null && typeof t === "object" && t.__chidoriTool === true; }

  function nodeOf(ctx) {
    const n = WeakMapGet(ctx);
    if (n === undefined) throw new TypeErrorCtor("chidori.context: this method must be called on a context");
    return n;
  }

  function make(parentNode, segment, handles) {
    const ctx = ObjectCreate(proto);
    WeakMapSet(ctx, { parent: parentNode, segment: segment === null ? null : deepFreeze(segment), handles });
    return ObjectFreeze(ctx);
  }

  function append(ctx, segment, handles) {
    const n = nodeOf(ctx);
    return make(n, segment, handles === undefined ? n.handles : handles);
  }

  function flatten(node) {
    const out = [];
    for (let n = node; n !== null; n = n.parent) if (n.segment !== null) out[out.length] = n.segment;
    ArrayReverse(out);
    return out;
  }

  function isTurn(s) {
    return s.kind === "user" || s.kind === "assistant" || s.kind === "toolResult" || s.kind === "message" || s.kind === "summary";
  }

  function options(what, o) {
    if (o === undefined || o === null) return {};
    if (typeof o !== "object") throw new TypeErrorCtor(what + ": options must be an object");
    return o;
  }

  /* ---- one `prompt` call of a context ---- */

  function registryNames(segments, o) {
    const names = [];
    const add = (n) => { if (typeof n === "string" && ArrayIndexOf(names, n) < 0) names[names.length] = n; };
    for (let i = 0; i < segments.length; i++)
      if (segments[i].kind === "tools") for (let k = 0; k < segments[i].names.length; k++) add(segments[i].names[k]);
    if (ArrayIsArray(o.tools)) for (let k = 0; k < o.tools.length; k++) add(o.tools[k]);
    return names;
  }

  function hasInlineTools(segments) {
    for (let i = 0; i < segments.length; i++) if (segments[i].kind === "tools" && segments[i].schemas.length) return true;
    return false;
  }

  // The call's args: the segments, the mode, and the options the host reads.
  function callArgs(segments, o, mode) {
    const args = { __context: segments, __mode: mode };
    if (o.model !== undefined) args.model = o.model;
    if (o.maxTokens !== undefined) args.maxTokens = o.maxTokens;
    if (o.temperature !== undefined) args.temperature = o.temperature;
    if (o.cache !== undefined) args.cache = jsonCopy("the cache option", o.cache);
    if (o.system !== undefined) args.system = o.system;
    if (ArrayIsArray(o.tools)) {
      const names = [];
      for (let i = 0; i < o.tools.length; i++) if (typeof o.tools[i] === "string") names[names.length] = o.tools[i];
      if (names.length) args.tools = names;
    }
    const type = o.type !== undefined ? o.type : o.streamType !== undefined ? o.streamType : o.stream_type;
    if (typeof type === "string") args.type = type;
    return args;
  }

  const STOP_REASONS = { stop: "end_turn", tool_calls: "tool_use", length: "max_tokens" };

  // The original's response object (LlmResponseJson) of one reply.
  function responseOf(r) {
    const usage = r.usage || {};
    const calls = ArrayIsArray(r.toolCalls) ? r.toolCalls : [];
    const blocks = [];
    const content = typeof r.content === "string" ? r.content : "";
    if (content !== "") blocks[blocks.length] = { type: "text", text: content };
    const toolCalls = [];
    for (let i = 0; i < calls.length; i++) {
      const c = calls[i];
      blocks[blocks.length] = { type: "tool_use", id: c.id, name: c.name, input: c.input };
      toolCalls[i] = { id: c.id, name: c.name, input: c.input };
    }
    const stop = r.stopReason === null || r.stopReason === undefined ? (calls.length ? "tool_use" : "end_turn")
      : STOP_REASONS[r.stopReason] !== undefined ? STOP_REASONS[r.stopReason] : r.stopReason;
    return {
      content, blocks, toolCalls, stopReason: stop,
      inputTokens: usage.inputTokens || 0, outputTokens: usage.outputTokens || 0,
      cacheCreationTokens: usage.cacheCreationTokens || 0, cacheReadTokens: usage.cacheReadTokens || 0,
    };
  }

  // A tool's value as the text of a tool_result block, and whether it reports an error.
  function toolText(value) {
    if (typeof value === "string") return value;
    if (value !== null && typeof value === "object" && ArrayIsArray(value.content)) {
      const texts = [];
      for (let i = 0; i < value.content.length; i++)
        if (value.content[i] && value.content[i].type === "text") texts[texts.length] = StringCtor(value.content[i].text);
      if (texts.length) return ArrayJoin(texts, "\n");
    }
    const text = JSONStringify(value === undefined ? null : value);
    return text === undefined ? "null" : text;
  }

  async function runTool(call, handles) {
    const handle = handles !== null ? MapGet(handles, call.name) : undefined;
    try {
      if (handle !== undefined) {
        await mark("tool:" + call.name, { args: call.input });
        return { content: toolText(await handle.run(call.input, chidori)), isError: false };
      }
      const out = await chidori.tool(call.name, call.input);
      return { content: toolText(out), isError: !!(out !== null && typeof out === "object" && out.isError === true) };
    } catch (e) {
      return { content: messageOfError(e), isError: true };
    }
  }

  async function send(ctx, opts, mode) {
    const node = nodeOf(ctx);
    const o = options("chidori.context " + mode, opts);
    const segments = flatten(node);
    const args = callArgs(segments, o, mode);
    const names = registryNames(segments, o);
    let registry = [];
    if (names.length) {
      registry = await effect("tool_schemas", { names, for: "context tools" });
      args.__registry = registry;
    }
    if (mode === "respond") {
      const r = await effect("prompt", args);
      const response = responseOf(r);
      const message = { role: "assistant", content: jsonCopy("the reply", response.blocks) }; // the agent keeps response unfrozen
      return { text: response.content, response, context: append(ctx, { kind: "message", message }) };
    }
    if (registry.length === 0 && !hasInlineTools(segments)) {
      const r = await effect("prompt", args);
      const text = typeof r.content === "string" ? r.content : "";
      const message = { role: "assistant", content: [{ type: "text", text }] };
      return { text, context: append(ctx, { kind: "message", message }) };
    }
    // the tool loop: one record per turn, until a turn asks for no tool
    const maxTurns = NumberIsFinite(NumberCtor(o.maxTurns)) && NumberCtor(o.maxTurns) >= 1 ? MathFloor(NumberCtor(o.maxTurns)) : DEFAULT_MAX_TURNS;
    const turns = [];
    let text = "";
    for (let turn = 0; turn < maxTurns; turn++) {
      args.turn = turn;
      if (turns.length) args.__turns = turns;
      const response = responseOf(await effect("prompt", args));
      text = response.content;
      turns[turns.length] = { role: "assistant", content: response.blocks };
      if (response.toolCalls.length === 0) break;
      const results = [];
      for (let i = 0; i < response.toolCalls.length; i++) {
        const call = response.toolCalls[i];
        const out = await PromiseOwn(runTool(call, node.handles));
        results[i] = { type: "tool_result", tool_use_id: StringCtor(call.id), content: out.content, is_error: out.isError };
      }
      turns[turns.length] = { role: "user", content: results };
    }
    let next = ctx;
    for (let i = 0; i < turns.length; i++) next = append(next, { kind: "message", message: turns[i] });
    return { text, context: next };
  }

  /* ---- compaction ---- */

  function renderBlock(b) {
    if (b === null || typeof b !== "object") return StringCtor(b);
    if (b.type === "text") return b.text;
    if (b.type === "tool_use") return "[tool call " + b.name + ": " + JSONStringify(b.input) + "]";
    if (b.type === "tool_result") return "[tool result: " + b.content + "]";
    return JSONStringify(b);
  }

  function renderSegment(s) {
    switch (s.kind) {
      case "user": return "User: " + s.text;
      case "assistant": return "Assistant: " + s.text;
      case "summary": return "Summary of earlier conversation: " + s.text;
      case "toolResult": return "Tool result (" + s.id + "): " + s.content;
      case "doc": return "Document \"" + s.label + "\": " + s.text;
      case "message": {
        const content = s.message.content || [];
        const parts = [];
        for (let i = 0; i < content.length; i++) parts[i] = renderBlock(content[i]);
        return (s.message.role === "assistant" ? "Assistant" : "User") + ": " + ArrayJoin(parts, "\n");
      }
      default: return "";
    }
  }

  async function compact(ctx, opts) {
    const node = nodeOf(ctx);
    const o = options("chidori.context compact", opts);
    const keepTurns = NumberIsFinite(NumberCtor(o.keepTurns)) ? MathMax(0, MathFloor(NumberCtor(o.keepTurns))) : 2;
    const budget = NumberCtor(o.budgetTokens);
    if (NumberIsFinite(budget) && budget > 0 && estimate(node) <= budget) return ctx;
    const flat = flatten(node);
    let headEnd = 0;
    while (headEnd < flat.length && !isTurn(flat[headEnd])) headEnd++;
    const head = ArraySlice(flat, 0, headEnd), tail = ArraySlice(flat, headEnd, flat.length);
    let turnCount = 0;
    for (let i = 0; i < tail.length; i++) if (isTurn(tail[i])) turnCount++;
    if (turnCount <= keepTurns) return ctx;
    let cut = tail.length, seen = 0;
    for (let i = tail.length - 1; i >= 0; i--) {
      if (isTurn(tail[i]) && ++seen === keepTurns) { cut = i; break; }
    }
    const old = [];
    for (let i = 0; i < cut; i++) if (tail[i].kind !== "cacheBreakpoint") old[old.length] = tail[i];
    if (old.length === 0) return ctx;
    const lines = [];
    for (let i = 0; i < old.length; i++) lines[i] = renderSegment(old[i]);
    const promptOpts = { system: typeof o.instructions === "string" && o.instructions ? o.instructions : SUMMARIZER };
    if (typeof o.model === "string") promptOpts.model = o.model;
    if (o.maxTokens !== undefined) promptOpts.maxTokens = o.maxTokens;
    if (o.cache !== undefined) promptOpts.cache = o.cache;
    const summary = await plainPrompt(ArrayJoin(lines, "\n"), promptOpts);
    let n = make(null, null, node.handles);
    for (let i = 0; i < head.length; i++) n = append(n, head[i]);
    n = append(n, { kind: "summary", text: StringCtor(summary) });
    n = append(n, { kind: "cacheBreakpoint", ttl: o.ttl === "1h" ? "1h" : "5m" });
    for (let i = cut; i < tail.length; i++) n = append(n, tail[i]);
    return n;
  }

  function estimate(node) {
    let chars = 0;
    const segments = flatten(node);
    for (let i = 0; i < segments.length; i++) {
      const s = segments[i];
      if (typeof s.text === "string") chars += s.text.length;
      if (s.kind === "message") chars += JSONStringify(s.message).length;
    }
    return MathCeil(chars / 4);
  }

  /* ---- the Context prototype ---- */

  const proto = ObjectFreeze({
    system(text) { return append(this, { kind: "system", text: StringCtor(text) }); },
    tools(list) {
      const names = [], schemas = [];
      let handles = nodeOf(this).handles;
      const given = list || [];
      for (let i = 0; i < given.length; i++) {
        const t = given[i];
        if (isHandle(t)) {
          const params = t.parameters === undefined ? undefined : jsonCopy("defineTool " + t.name + ": parameters", t.parameters);
          const schema = { name: t.name, description: t.description };
          if (params !== undefined) schema.parameters = params;
          schemas[schemas.length] = schema;
          if (handles === nodeOf(this).handles) {
            const copy = new MapCtor();
            if (handles !== null) MapForEach(handles, (v, k) => { MapSet(copy, k, v); });
            handles = copy;
          }
          MapSet(handles, t.name, t);
        } else {
          names[names.length] = StringCtor(t);
        }
      }
      return append(this, { kind: "tools", names, schemas }, handles);
    },
    doc(label, text) { return append(this, { kind: "doc", label: StringCtor(label), text: StringCtor(text) }); },
    user(text) { return append(this, { kind: "user", text: StringCtor(text) }); },
    assistant(text) { return append(this, { kind: "assistant", text: StringCtor(text) }); },
    toolResult(id, content, isError) {
      return append(this, { kind: "toolResult", id: StringCtor(id), content: StringCtor(content), isError: !!isError });
    },
    cacheBreakpoint(ttl) { return append(this, { kind: "cacheBreakpoint", ttl: ttl === "1h" ? "1h" : "5m" }); },
    prompt(opts) {
      return PromiseThen(PromiseOwn(send(this, opts, "prompt")), (out) => ({ text: out.text, context: out.context }));
    },
    respond(opts) {
      return PromiseThen(PromiseOwn(send(this, opts, "respond")), (out) => ({ response: out.response, context: out.context }));
    },
    compact(opts) { return PromiseOwn(compact(this, opts)); },
    // Synchronous: the digest string itself, not a Promise.
    digest(opts) {
      const o = opts === undefined || opts === null ? null : jsonCopy("digest(options)", opts);
      return callSync("context_digest", { segments: flatten(nodeOf(this)), opts: o });
    },
    // Synchronous: ceil(characters / 4) over the segments' texts and messages.
    estimateTokens() { return estimate(nodeOf(this)); },
  });

  function context(seed) {
    let ctx = make(null, null, null);
    if (seed && typeof seed.system === "string") ctx = ctx.system(seed.system);
    if (seed && ArrayIsArray(seed.tools)) ctx = ctx.tools(seed.tools);
    return ctx;
  }

  /* ---- conversation ---- */

  function stringify(v) { return typeof v === "string" ? v : JSONStringify(v); }

  // say()'s loop over defineTool handles: respond, run what the model asked for, feed it back.
  async function handleLoop(ctx, turnOpts, handles, maxTurns) {
    let current = ctx, text = "";
    for (let turn = 0; turn < maxTurns; turn++) {
      const out = await current.respond(turnOpts);
      current = out.context;
      text = typeof out.response.content === "string" ? out.response.content : "";
      const calls = out.response.toolCalls || [];
      if (calls.length === 0) break;
      for (let i = 0; i < calls.length; i++) {
        const call = calls[i];
        let content, isError = false;
        try {
          const handle = MapGet(handles, call.name);
          if (handle !== undefined) {
            await mark("tool:" + call.name, { args: call.input });
            content = stringify(await handle.run(call.input, chidori));
          } else {
            content = stringify(await chidori.tool(call.name, call.input));
          }
        } catch (e) {
          content = StringCtor(e && e.message ? e.message : e);
          isError = true;
        }
        current = current.toolResult(call.id, content, isError);
      }
    }
    return { text, context: current };
  }

  function conversation(opts) {
    const o = options("chidori.conversation", opts);
    const defaults = {};
    const DEFAULT_KEYS = ["model", "maxTokens", "max_tokens", "temperature", "cache"];
    for (let i = 0; i < DEFAULT_KEYS.length; i++) if (o[DEFAULT_KEYS[i]] !== undefined) defaults[DEFAULT_KEYS[i]] = o[DEFAULT_KEYS[i]];
    const defaultType = typeof o.type === "string" ? o.type : "final";
    const compactOptions = o.compact && typeof o.compact === "object" ? o.compact : null;
    const handles = new MapCtor();
    if (ArrayIsArray(o.tools)) for (let i = 0; i < o.tools.length; i++) if (isHandle(o.tools[i])) MapSet(handles, o.tools[i].name, o.tools[i]);
    const handleTurns = NumberIsFinite(NumberCtor(o.maxTurns)) ? NumberCtor(o.maxTurns) : HANDLE_MAX_TURNS;
    let ctx = context({ system: o.system, tools: o.tools });
    if (o.system || (ArrayIsArray(o.tools) && o.tools.length)) ctx = ctx.cacheBreakpoint(o.cacheTtl === "1h" ? "1h" : "5m");
    const turns = [];
    const turnOptions = (perTurn) => {
      const t = { type: defaultType };
      const dk = ObjectKeys(defaults);
      for (let i = 0; i < dk.length; i++) t[dk[i]] = defaults[dk[i]];
      if (perTurn !== undefined && perTurn !== null) {
        const pk = ObjectKeys(perTurn);
        for (let i = 0; i < pk.length; i++) t[pk[i]] = perTurn[pk[i]];
      }
      return t;
    };
    const api = {
      get context() { return ctx; },
      get length() {
        let n = 0;
        for (let i = 0; i < turns.length; i++) if (turns[i].role === "assistant") n++;
        return n;
      },
      history() {
        const out = [];
        for (let i = 0; i < turns.length; i++) out[i] = { role: turns[i].role, text: turns[i].text };
        return out;
      },
      async say(message, perTurn) {
        const text = StringCtor(message === null || message === undefined ? "" : message);
        if (compactOptions) ctx = await ctx.compact(compactOptions);
        ctx = ctx.user(text);
        turns[turns.length] = { role: "user", text };
        let result;
        if (MapSize(handles) > 0) {
          const t = turnOptions(perTurn);
          delete t.format;
          delete t.strict;
          delete t.nonEmpty;
          result = await PromiseOwn(handleLoop(ctx, t, handles, handleTurns));
        } else {
          result = await ctx.prompt(turnOptions(perTurn));
        }
        ctx = result.context;
        turns[turns.length] = { role: "assistant", text: result.text };
        return result.text;
      },
      async respond(message, perTurn) {
        const text = StringCtor(message === null || message === undefined ? "" : message);
        if (compactOptions) ctx = await ctx.compact(compactOptions);
        ctx = ctx.user(text);
        turns[turns.length] = { role: "user", text };
        const result = await ctx.respond(turnOptions(perTurn));
        ctx = result.context;
        const reply = result.response && typeof result.response.content === "string" ? result.response.content : "";
        turns[turns.length] = { role: "assistant", text: reply };
        return result.response;
      },
      async loop(loopOpts) {
        const lo = loopOpts || {};
        const exitList = ArrayIsArray(lo.exit) ? lo.exit : lo.exit !== null && lo.exit !== undefined ? [lo.exit] : ["exit", "quit"];
        const exits = [];
        for (let i = 0; i < exitList.length; i++) exits[i] = StringToLowerCase(StringCtor(exitList[i]));
        const maxTurns = NumberIsFinite(NumberCtor(lo.maxTurns)) ? NumberCtor(lo.maxTurns) : Infinity;
        let turn = 0;
        while (turn < maxTurns) {
          const promptText = typeof lo.prompt === "function" ? lo.prompt(turn) : lo.prompt || "You:";
          const raw = await chidori.input(promptText, lo.inputOptions || { type: "message" });
          const message = StringTrim(StringCtor(raw === null || raw === undefined ? "" : raw));
          if (message === "" && lo.skipEmpty !== false) continue;
          if (ArrayIndexOf(exits, StringToLowerCase(message)) !== -1) break;
          const reply = await PromiseOwn(api.say(message, lo.turn));
          if (typeof lo.onReply === "function") await lo.onReply(reply, message);
          turn += 1;
          if (typeof lo.until === "function" && lo.until(message, reply)) break;
        }
        return api.history();
      },
    };
    return api;
  }

  return ObjectFreeze({ context, conversation });
})
