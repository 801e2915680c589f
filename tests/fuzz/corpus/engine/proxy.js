const p = new Proxy({}, { ownKeys: () => ['a', 'b'], getOwnPropertyDescriptor: () => ({ value: 1, enumerable: true, configurable: true }) });
console.log(Reflect.ownKeys(p), Object.entries(p)); const r = Proxy.revocable({}, {}); r.revoke(); try { r.proxy.x } catch (e) {}
