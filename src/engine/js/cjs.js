/* cjs.js — CommonJS for a run: require(), module.exports, exports, __filename/__dirname, cycles
 * as Node has them, JSON through require, and the registry ES imports of CommonJS and JSON files
 * read from (modules.c).
 *
 * Evaluated lazily, the first time a run meets a CommonJS or JSON module, as a script whose value
 * is a function; modules.c calls it with `natives` (C functions never reachable from guest code):
 * load(specifier, importer) asks the host op `__module_load` (synchronous, like every internal
 * call) for {key, format, source}; allowBuiltin(specifier, importer) asks the host whether the
 * import policy allows Node built-ins; compile(source, key) wraps a CommonJS source in its
 * function, with the run's `process` (node/process.js: empty env) as a module-scope binding. Modules are cached per run by key, so every require() of a file shares one instance.
 * Trusts nothing a module does: it only ever reaches what the host op resolves in the project.
 */
(function (natives) {
  "use strict";
  const hostLoad = natives.load;
  const allowBuiltin = natives.allowBuiltin;
  const compile = natives.compile;
  const builtinName = natives.builtinName;
  const requireBuiltin = natives.requireBuiltin;
  const agentExports = natives.agentExports;
  const JSONParse = JSON.parse;
  const ReflectApply = Reflect.apply;
  const ObjectCreate = Object.create;
  const ObjectHasOwn = Object.hasOwn;
  const ObjectFreeze = Object.freeze;
  const ObjectDefineProperty = Object.defineProperty;
  // Own data properties, defined: a setter a package put on Object.prototype (or
  // Function.prototype) never sees or swallows what this file stores on its objects.
  const define = (o, k, v) => ObjectDefineProperty(o, k, { value: v, writable: true, configurable: true, enumerable: true });
  const ErrorCtor = Error;
  const SyntaxErrorCtor = SyntaxError;
  const TypeErrorCtor = TypeError;
  const StringSlice = (s, a, b) => ReflectApply(String.prototype.slice, s, [a, b]);
  const StringLastIndexOf = (s, c) => ReflectApply(String.prototype.lastIndexOf, s, [c]);

  // What CommonJS modules see as `process` is the run's one process object (node/process.js): no
  // host environment, arguments or working folder reach it.
  const processShim = requireBuiltin("process");

  const modules = ObjectCreate(null);   // key → module object (cached for the run)
  const pending = ObjectCreate(null);   // key → source registered by an ES import, not yet run
  const scanned = ObjectCreate(null);   // key → the export names the static scan found
  // folder + "\0" + specifier → the key the host answered: the host resolves from the importer's
  // folder, so a require() of a module already in `modules` need not ask it (read and send the file)
  // again; a key deleted from require.cache is asked for again, as Node does
  const resolved = ObjectCreate(null);

  function codeError(code, message) {
    const e = new ErrorCtor(message);
    define(e, "code", code);
    return e;
  }

  function dirOf(key) {
    const i = StringLastIndexOf(key, "/");
    return i < 0 ? "." : StringSlice(key, 0, i);
  }

  function parseJSON(key, source) {
    try {
      return JSONParse(source);
    } catch (e) {
      throw new SyntaxErrorCtor(key + ": invalid JSON (" + (e && e.message) + ")");
    }
  }

  function newModule(key) {
    // a literal defines its fields (no setter runs); `require` is one of them
    return { id: key, filename: key, path: dirOf(key), exports: {}, loaded: false, children: [], require: makeRequire(key) };
  }

  // Runs a CommonJS source as module `key` (the module is cached first, so a cycle sees the
  // exports as they are at that moment, as in Node).
  function run(key, source) {
    const module = newModule(key);
    modules[key] = module;
    let ok = false;
    try {
      const fn = compile(source, key);
      ReflectApply(fn, module.exports, [module.exports, module.require, module, key, dirOf(key), processShim]);
      ok = true;
    } finally {
      if (!ok) delete modules[key];
    }
    module.loaded = true;
    return module;
  }

  function makeRequire(importer) {
    function require(specifier) {
      if (typeof specifier !== "string" || specifier === "")
        throw new TypeErrorCtor("require(): the module name must be a non-empty string, got " + typeof specifier);
      if (specifier === "chidori:agent") return agentExports;
      const builtin = builtinName(specifier);
      if (builtin !== null) {
        allowBuiltin(specifier, importer);
        return requireBuiltin(specifier);
      }
      const memo = dirOf(importer) + "\0" + specifier;
      if (ObjectHasOwn(resolved, memo) && ObjectHasOwn(modules, resolved[memo])) return modules[resolved[memo]].exports;
      const found = hostLoad(specifier, importer);
      const key = found.key;
      resolved[memo] = key;
      if (ObjectHasOwn(modules, key)) return modules[key].exports;
      if (found.format === "json") {
        const module = newModule(key);
        module.exports = parseJSON(key, found.source);
        module.loaded = true;
        modules[key] = module;
        return module.exports;
      }
      if (found.format !== "cjs") {
        throw codeError("ERR_REQUIRE_ESM", "require() of ES module `" + key + "` from `" + importer + "` is not supported: " +
          "it is an ES module (import/export); load it with `import` from an ES module instead");
      }
      return run(key, found.source).exports;
    }
    define(require, "resolve", (specifier) => {
      if (builtinName(specifier) !== null) return specifier;
      return hostLoad(specifier, importer).key;
    });
    define(require, "cache", modules);
    return require;
  }

  return ObjectFreeze({
    // An ES import met CommonJS or JSON at `key`: keep its source until the module evaluates.
    register(key, format, source, names) {
      if (format === "json") {
        const value = parseJSON(key, source);
        if (!ObjectHasOwn(modules, key)) {
          const module = newModule(key);
          module.exports = value;
          module.loaded = true;
          modules[key] = module;
        }
        return;
      }
      scanned[key] = names;
      if (!ObjectHasOwn(modules, key)) pending[key] = source;
    },
    names(key) {
      return ObjectHasOwn(scanned, key) ? scanned[key] : [];
    },
    // The exports of `key`, running it now if nobody has yet.
    evaluate(key) {
      if (ObjectHasOwn(modules, key)) return modules[key].exports;
      const p = pending[key];
      if (p === undefined) throw new ErrorCtor("internal error: module `" + key + "` was not registered");
      delete pending[key];
      return run(key, p).exports;
    },
  });
})
