async function* gen() { for (let i = 0; i < 3; i++) { await null; yield i; } }
(async () => { const out = []; for await (const v of gen()) out.push(v); console.log(out);
  await Promise.allSettled([Promise.reject(new Error('x')), Promise.resolve(1)]);
  queueMicrotask(() => console.log('micro')); setTimeout(() => console.log('timer'), 10); })();
