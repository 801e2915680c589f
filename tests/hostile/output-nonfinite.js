//! stdout: {
//! stdout:   "nan": null,
//! stdout:   "inf": null,
//! stdout:   "neg": null,
//! stdout:   "negzero": 0,
//! stdout:   "arr": [
//! stdout:     null,
//! stdout:     null
//! stdout:   ]
//! stdout: }
// NaN, Infinity and -0 come out as JSON says (null, null, 0); undefined members vanish.
export default async () => ({ nan: NaN, inf: Infinity, neg: -Infinity, negzero: -0, u: undefined, arr: [undefined, NaN] });
