//! stdout: 50000
// Many rejections handled later, in the order made, the reverse, and from the middle: taking each
// off the unhandled list is bounded work (charged to the run's budget), and none fails the run.
export default async () => {
  const make = (n) => Array.from({ length: n }, (_, i) => Promise.reject(i));
  let n = 0;
  const count = () => { n++; };
  const a = make(20000);
  for (const p of a) p.catch(count);
  const b = make(20000);
  for (let i = b.length - 1; i >= 0; i--) b[i].catch(count);
  const c = make(10000);
  for (let i = 0; i < 5000; i++) { c[5000 + i].catch(count); c[4999 - i].catch(count); }
  await new Promise((r) => setTimeout(r, 1));
  return n;
};
