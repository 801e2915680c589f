//! stdout-contains: "form": "default"
//! stdout-contains: "hasLog": true
export default async function (input, chidori) {
  return { form: "default", hasLog: typeof chidori.log === "function" };
}
