try { throw new Error("boom"); } catch (e: unknown) { console.log((e as Error).message); }
try { JSON.parse("{"); } catch (err: any) { console.log(err.name); } finally { console.log("fin"); }
