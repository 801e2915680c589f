// A tool that answers isError:true and one whose server fails the call, for tests/cases_otel.py.
export default async function (input, chidori) {
  const answered = await chidori.tool("req__fails", {});
  let thrown = null;
  try { await chidori.tool("req__rpcerror", {}); } catch (e) { thrown = String(e).slice(0, 60); }
  return { isError: answered.isError === true, thrown: thrown !== null };
}
