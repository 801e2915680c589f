// tests/cases_isolate_forkserver_seccomp.py: Intl's first use in a worker forked from the fork
// server (ICU makes its mutexes through pthread_once, whose last step is a futex wake).
export default async function () {
  return {
    date: new Intl.DateTimeFormat("en-US", { timeZone: "UTC", dateStyle: "long" }).format(0),
    number: new Intl.NumberFormat("de-DE").format(1234.5),
  };
}
