// A chidori.* member this runtime does not have names itself when called, and reads as absent.
import { chidori, run } from "chidori:agent";
import util from "node:util";

run(async () => {
  let called, destructured;
  try { chidori.frobnicate("x"); } catch (e) { called = e.constructor.name + ": " + e.message; }
  const { prompt, frobnicate } = chidori;
  try { frobnicate(); } catch (e) { destructured = e.message; }
  const awaited = await chidori; // then is not invented
  // an inherited name is read as Reflect.get reads it, with chidori (what the guest holds) as receiver
  Object.defineProperty(Object.prototype, "whoAmI", { get() { return this === chidori; }, configurable: true });
  const receiverIsProxy = chidori.whoAmI;
  delete Object.prototype.whoAmI;
  return {
    called, destructured,
    typeofMissing: typeof chidori.frobnicate,
    typeofKnown: typeof chidori.context,
    inMissing: "frobnicate" in chidori,
    inKnown: "conversation" in chidori,
    detected: chidori.frobnicate ? "present" : "absent",
    optional: chidori.frobnicate == null,
    promptIsFunction: typeof prompt === "function",
    keysHaveNoStandIn: !Object.keys(chidori).includes("frobnicate"),
    json: JSON.stringify(chidori).length > 2,
    awaitedIsChidori: awaited === chidori,
    symbol: chidori[Symbol.iterator] === undefined,
    sameStandIn: chidori.frobnicate === chidori.frobnicate && chidori.frobnicate !== chidori.other,
    toJSONAbsent: chidori.toJSON === undefined && !("toJSON" in chidori),
    inherited: chidori.toString === Object.prototype.toString,
    receiverIsProxy,
    markIsMember: chidori.mark === chidori.checkpoint,
    // a real member is chidori's own property, read without a trap; the names it lacks are
    // answered by its prototype, a Proxy whose get trap (made in C) shows as the method it was
    membersRunNoTrap: !util.types.isProxy(chidori) && Object.isFrozen(chidori) && chidori instanceof Object,
    getTrapNamed: util.inspect(Object.getPrototypeOf(chidori), { showProxy: true, depth: 1 }) ===
      "Proxy [ {}, [Object: null prototype] { get: [Function: get] } ]",
    nothingAddedUnder: (() => {
      try { Object.defineProperty(Object.getPrototypeOf(chidori), "frobnicate", { value: 1 }); } catch (e) { return chidori.frobnicate !== 1; }
      return false;
    })(),
  };
});
