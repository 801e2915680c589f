"""tests/cases_temporal.py — `Temporal` (docs/temporal.md): the pinned polyfill built into the
binary and loaded on first touch.

- arithmetic, rounding and the types (PlainDate, PlainDateTime, PlainTime, PlainYearMonth,
  PlainMonthDay, ZonedDateTime on UTC and fixed offsets, Instant, Duration), in process and
  isolated, with the same output;
- Temporal.Now is the run's virtual clock: equal to Date.now() at a pinned clock start, moving only
  with virtual time, deaf to a guest's Date.now, and a replay prints the same bytes;
- a run that never reads `Temporal` (or Date.prototype.toTemporalInstant) never loads it: both are
  still the lazy accessors; assigning `Temporal` loads nothing; a frozen global still works;
- bad input: RangeError/TypeError with the polyfill's message, an uncaught one fails the run;
- a guest that breaks the builtins the polyfill needs breaks Temporal only: chidori's effects and
  the run's output still work;
- named time zones: through Intl.DateTimeFormat when the build has one with time zones (DST gaps,
  offsets, the realm's Intl left untouched); without it, a RangeError that says what to use.
The agents are written by the tests into throwaway folders.
"""
import json
import os
import shutil

from cases import chidori
from cases_calllog import fast_state, project, run_id_of

PINNED = {"CHIDORI_CLOCK_START_MS": "1700000000000", "CHIDORI_SEED": "7"}

ARITH = r"""export default async () => {
  const T = Temporal, PD = T.PlainDate, PDT = T.PlainDateTime, D = T.Duration;
  const out = {};
  out.addMonth = PD.from('2024-01-31').add({ months: 1 }).toString();
  out.leapYear = PD.from('2024-02-29').add({ years: 1 }).toString();
  out.since = PD.from('2024-03-01').since('2024-01-01').toString();
  out.until = PD.from('2024-01-01').until('2024-03-15', { largestUnit: 'months' }).toString();
  const d = PD.from('2024-02-29');
  out.fields = [d.dayOfWeek, d.dayOfYear, d.weekOfYear, d.daysInMonth, d.inLeapYear];
  out.sorted = ['2024-05-01', '2023-12-31', '2024-01-15'].map((s) => PD.from(s)).sort(PD.compare).map(String);
  out.dtAdd = PDT.from('2024-02-28T23:00').add({ hours: 2 }).toString();
  out.roundHour = PDT.from('2024-05-05T10:29:59').round({ smallestUnit: 'hour' }).toString();
  out.roundCeil = PDT.from('2024-05-05T10:29:59').round({ smallestUnit: 'hour', roundingMode: 'ceil' }).toString();
  out.timeRound = T.PlainTime.from('12:34:56.789').round({ smallestUnit: 'second' }).toString();
  out.halfEven = T.Instant.from('2024-01-01T00:00:00.5Z').round({ smallestUnit: 'second', roundingMode: 'halfEven' }).toString();
  out.instantAdd = T.Instant.fromEpochMilliseconds(0).add({ hours: 36 }).toString();
  out.nsType = typeof T.Instant.fromEpochMilliseconds(1).epochNanoseconds;
  out.ns = String(T.Instant.fromEpochMilliseconds(1).epochNanoseconds);
  out.durAdd = D.from('PT1H30M').add('PT45M').toString();
  out.durRound = D.from({ minutes: 150 }).round({ largestUnit: 'hours' }).toString();
  out.durTotal = D.from({ hours: 25, minutes: 90 }).total({ unit: 'minutes' });
  out.durNeg = D.from('P1Y2M').negated().toString();
  out.durCompare = D.compare('PT1H', 'PT60M');
  out.durRelative = D.from({ months: 1 }).total({ unit: 'days', relativeTo: '2024-02-01' });
  const z = T.ZonedDateTime.from('2024-12-31T23:30:00+05:30[+05:30]');
  out.zdtAdd = z.add({ hours: 1 }).toString();
  out.zdtUtc = z.withTimeZone('UTC').toString();
  out.zdtFields = [z.offset, z.hoursInDay, z.epochMilliseconds];
  out.zdtSince = z.since(T.ZonedDateTime.from('2024-12-30T00:00:00+05:30[+05:30]'), { largestUnit: 'days' }).toString();
  out.yearMonth = [T.PlainYearMonth.from('2024-02').daysInMonth, T.PlainYearMonth.from('2023-02').daysInMonth];
  out.monthDay = T.PlainMonthDay.from('02-29').toPlainDate({ year: 2023 }).toString();
  out.json = JSON.stringify({ d, t: T.PlainTime.from('08:00') });
  out.toStringTag = Object.prototype.toString.call(T);
  return out;
};
"""

ARITH_EXPECTED = {
    "addMonth": "2024-02-29", "leapYear": "2025-02-28", "since": "P60D", "until": "P2M14D",
    "fields": [4, 60, 9, 29, True],
    "sorted": ["2023-12-31", "2024-01-15", "2024-05-01"],
    "dtAdd": "2024-02-29T01:00:00", "roundHour": "2024-05-05T10:00:00", "roundCeil": "2024-05-05T11:00:00",
    "timeRound": "12:34:57", "halfEven": "2024-01-01T00:00:00Z", "instantAdd": "1970-01-02T12:00:00Z",
    "nsType": "bigint", "ns": "1000000",
    "durAdd": "PT2H15M", "durRound": "PT2H30M", "durTotal": 1590, "durNeg": "-P1Y2M", "durCompare": 0,
    "durRelative": 29,
    "zdtAdd": "2025-01-01T00:30:00+05:30[+05:30]", "zdtUtc": "2024-12-31T18:00:00+00:00[UTC]",
    "zdtFields": ["+05:30", 24, 1735668000000], "zdtSince": "P1DT23H30M",
    "yearMonth": [29, 28], "monthDay": "2023-02-28",
    "json": '{"d":"2024-02-29","t":"08:00:00"}', "toStringTag": "[object Temporal]",
}


def run_agent(v, source, *flags, env=None, state=None, timeout=60):
    proj = project({"agent.js": source})
    try:
        return chidori(v, "run", os.path.join(proj, "agent.js"), *flags, env=env, state=state, timeout=timeout)
    finally:
        shutil.rmtree(proj, ignore_errors=True)


def case_temporal_arithmetic_rounding_and_types(v):
    """The types and their arithmetic give the calendar's answers, in process and isolated alike."""
    outs = []
    for flag in ("--no-isolate", "--isolate"):
        code, out, err = run_agent(v, ARITH, flag)
        assert code == 0, f"{flag}: exit {code}\n{err[-2000:]}"
        got = json.loads(out)
        for key, want in ARITH_EXPECTED.items():
            assert got.get(key) == want, f"{flag}: {key} is {got.get(key)!r}, expected {want!r}"
        outs.append(out)
    assert outs[0] == outs[1], f"in process and isolated differ:\n{outs[0]}\n{outs[1]}"


NOW = r"""export default async (input, chidori) => {
  const T = Temporal.Now;
  const first = { date: Date.now(), instant: T.instant().epochMilliseconds, pdt: T.plainDateTimeISO().toString(),
                  zdt: T.zonedDateTimeISO().toString(), date2: T.plainDateISO().toString(), zone: T.timeZoneId(),
                  offset: T.zonedDateTimeISO('-03:00').toString(), ns: String(T.instant().epochNanoseconds) };
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const later = { date: Date.now(), instant: T.instant().epochMilliseconds, time: T.plainTimeISO().toString() };
  Date.now = () => 0;  // a guest's own Date.now: Temporal.Now keeps the engine's clock
  const afterTamper = T.instant().epochMilliseconds;
  await chidori.mark('now', { instant: T.instant().toString() });
  return { first, later, afterTamper, legacy: new Date(later.date).toTemporalInstant().toString() };
};
"""


def case_temporal_now_is_the_virtual_clock(v):
    """Temporal.Now reads the run's virtual clock: the pinned start, moved by virtual timers only."""
    for flag in ("--no-isolate", "--isolate"):
        code, out, err = run_agent(v, NOW, flag, env=PINNED)
        assert code == 0, f"{flag}: exit {code}\n{err[-2000:]}"
        got = json.loads(out)
        first, later = got["first"], got["later"]
        assert first["date"] == first["instant"] == 1700000000000, first
        assert first["ns"] == "1700000000000000000", first
        assert first["pdt"] == "2023-11-14T22:13:20" and first["date2"] == "2023-11-14", first
        assert first["zdt"] == "2023-11-14T22:13:20+00:00[UTC]" and first["zone"] == "UTC", first
        assert first["offset"] == "2023-11-14T19:13:20-03:00[-03:00]", first
        assert later["date"] == later["instant"] == 1700000001500, later
        assert later["time"] == "22:13:21.5", later
        assert got["afterTamper"] == 1700000001500, got
        assert got["legacy"] == "2023-11-14T22:13:21.5Z", got


def case_temporal_now_replays_byte_identical(v):
    """An unpinned run that reads Temporal.Now replays to the same bytes (the clock start is recorded)."""
    state = fast_state()
    proj = project({"agent.js": NOW})
    agent = os.path.join(proj, "agent.js")
    try:
        for flag in ("--no-isolate", "--isolate"):
            code, out, err = chidori(v, "run", agent, flag, state=state)
            assert code == 0, f"{flag}: exit {code}\n{err[-2000:]}"
            rid = run_id_of(err)
            code2, out2, err2 = chidori(v, "replay", agent, rid, flag, state=state)
            assert code2 == 0 and out2 == out, f"{flag}: replay exit {code2}\n{out}\n{out2}\n{err2[-2000:]}"
    finally:
        shutil.rmtree(proj, ignore_errors=True)
        shutil.rmtree(state, ignore_errors=True)
        assert "replay matched" in err2, err2


PROBE = r"""const kind = (o, k) => { const d = Object.getOwnPropertyDescriptor(o, k); return d && ('value' in d ? 'data' : 'accessor'); };
const loaded = () => ({ kind: kind(globalThis, 'Temporal'), enumerable: Object.getOwnPropertyDescriptor(globalThis, 'Temporal').enumerable,
                        toTemporalInstant: kind(Date.prototype, 'toTemporalInstant') });
"""

UNTOUCHED = PROBE + r"""export default async (input, chidori) => {
  const keys = Object.keys(globalThis).includes('Temporal');
  let s = 0;
  for (let i = 0; i < 1000; i++) s += new Date(i * 86400000).getUTCDay();
  await chidori.mark('work', { s });
  return { ...loaded(), keys, inOperator: 'Temporal' in globalThis };
};
"""

TOUCHED = PROBE + r"""export default async () => {
  const before = loaded();
  const kind = typeof Temporal;
  return { before, after: loaded(), kind };
};
"""

ASSIGNED = PROBE + r"""export default async () => {
  globalThis.Temporal = 5;
  return { ...loaded(), value: Temporal };
};
"""

VIA_DATE = PROBE + r"""export default async () => {
  const method = typeof Date.prototype.toTemporalInstant;
  const instant = new Date(1000).toTemporalInstant().toString();
  return { ...loaded(), method, instant };
};
"""

FROZEN = r"""export default async () => {
  Object.freeze(globalThis);
  const a = Temporal, b = Temporal;
  return { same: a === b, date: a.PlainDate.from('2024-02-29').add({ days: 1 }).toString() };
};
"""


def case_temporal_loads_only_when_touched(v):
    """A run that never reads `Temporal` never loads the polyfill; the first read does, once."""
    code, out, err = run_agent(v, UNTOUCHED, "--no-isolate")
    assert code == 0, err
    got = json.loads(out)
    assert got == {"kind": "accessor", "enumerable": False, "toTemporalInstant": "accessor", "keys": False,
                   "inOperator": True}, got
    code, out, err = run_agent(v, TOUCHED, "--isolate")
    assert code == 0, err
    got = json.loads(out)
    assert got["before"] == {"kind": "accessor", "enumerable": False, "toTemporalInstant": "accessor"}, got
    assert got["after"] == {"kind": "data", "enumerable": False, "toTemporalInstant": "data"}, got
    assert got["kind"] == "object", got
    code, out, err = run_agent(v, ASSIGNED, "--no-isolate")
    assert code == 0, err
    got = json.loads(out)
    assert got == {"kind": "data", "enumerable": False, "toTemporalInstant": "accessor", "value": 5}, got
    # the first read of Date.prototype.toTemporalInstant loads Temporal too, and gives the method
    code, out, err = run_agent(v, VIA_DATE, "--isolate")
    assert code == 0, err
    got = json.loads(out)
    assert got == {"kind": "data", "enumerable": False, "toTemporalInstant": "data", "method": "function",
                   "instant": "1970-01-01T00:00:01Z"}, got
    # a global frozen before the first read keeps the accessor, which serves one loaded object
    code, out, err = run_agent(v, FROZEN, "--no-isolate")
    assert code == 0, err
    assert json.loads(out) == {"same": True, "date": "2024-03-01"}, out


BAD = r"""export default async () => {
  const tries = {
    badMonth: () => Temporal.PlainDate.from('2024-13-01'),
    mixedSigns: () => new Temporal.Duration(1, -1),
    reject: () => Temporal.PlainDate.from('2024-01-31').add({ months: 1 }, { overflow: 'reject' }),
    missingFields: () => Temporal.PlainDate.from({ year: 2024 }),
    noOffset: () => Temporal.Instant.from('2024-01-01T00:00'),
    badTime: () => Temporal.PlainTime.from('25:00'),
    noNew: () => Temporal.PlainDate(2024, 1, 1),
    valueOf: () => +Temporal.Now.instant(),
    badUnit: () => Temporal.Duration.from('PT1H').round({ smallestUnit: 'fortnight' }),
    badZone: () => Temporal.Now.zonedDateTimeISO('Not/A_Zone'),
    calendar: () => Temporal.PlainDate.from('2024-01-01').withCalendar('no-such-calendar'),
  };
  const out = {};
  for (const [name, f] of Object.entries(tries)) {
    try { out[name] = 'no error: ' + String(f()); } catch (e) { out[name] = [e.constructor.name, String(e.message).length > 0]; }
  }
  return out;
};
"""

BAD_EXPECTED = {
    "badMonth": ["RangeError", True], "mixedSigns": ["RangeError", True], "reject": ["RangeError", True],
    "missingFields": ["TypeError", True], "noOffset": ["RangeError", True], "badTime": ["RangeError", True],
    "noNew": ["TypeError", True], "valueOf": ["TypeError", True], "badUnit": ["RangeError", True],
    "badZone": ["RangeError", True], "calendar": ["RangeError", True],
}

UNCAUGHT = r"""export default async () => Temporal.PlainDate.from('2024-02-30', { overflow: 'reject' }).toString();
"""


def case_temporal_bad_input_errors(v):
    """Bad input throws the standard error types with a message; an uncaught one fails the run."""
    code, out, err = run_agent(v, BAD, "--no-isolate")
    assert code == 0, err
    got = json.loads(out)
    assert got == BAD_EXPECTED, got
    for flag in ("--no-isolate", "--isolate"):
        code, out, err = run_agent(v, UNCAUGHT, flag)
        assert code == 1 and "RangeError" in err, f"{flag}: exit {code}\n{out}\n{err[-2000:]}"
        assert "<chidori temporal>" not in err, err


TAMPER = r"""export default async (input, chidori) => {
  const saved = Object.defineProperties;
  Object.defineProperties = () => { throw new Error('broken by the guest'); };
  let first;
  try { first = typeof Temporal.Now; } catch (e) { first = 'threw: ' + e.message; }
  Object.defineProperties = saved;
  const second = Temporal.PlainDate.from('2024-02-29').add({ days: 1 }).toString();
  Temporal.PlainDate.prototype.add = () => { throw new Error('guest broke add'); };
  await chidori.mark('still works', { first, second });
  return { first, second };
};
"""


def case_temporal_tampering_breaks_only_temporal(v):
    """A guest that breaks what the polyfill needs gets a failed Temporal load (and a retry once it
    undoes it); chidori's effects and the run's result are unaffected."""
    for flag in ("--no-isolate", "--isolate"):
        state = fast_state()
        try:
            code, out, err = run_agent(v, TAMPER, flag, state=state)
            assert code == 0, f"{flag}: exit {code}\n{err[-2000:]}"
            got = json.loads(out)
            assert got["first"] == "threw: broken by the guest", got
            assert got["second"] == "2024-03-01", got
            rid = run_id_of(err)
            with open(os.path.join(state, "runs", rid, "records.jsonl")) as f:
                marks = [json.loads(line) for line in f if '"mark"' in line]
            assert any(r.get("args", {}).get("data", {}).get("second") == "2024-03-01" for r in marks), marks
        finally:
            shutil.rmtree(state, ignore_errors=True)


ZONES = r"""export default async () => {
  const intl = typeof Intl === 'object' && Intl !== null && typeof Intl.DateTimeFormat === 'function';
  let zones = false;
  if (intl) {
    try { zones = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York' }).resolvedOptions().timeZone === 'America/New_York'; } catch { zones = false; }
  }
  if (!zones) {
    try { Temporal.ZonedDateTime.from('2024-01-15T12:00[America/New_York]'); return { zones, error: 'none' }; }
    catch (e) { return { zones, error: e.constructor.name, message: e.message }; }
  }
  const DTF = Intl.DateTimeFormat;
  const Z = Temporal.ZonedDateTime;
  const out = {
    zones,
    winter: Z.from('2024-01-15T12:00[America/New_York]').offset,
    summer: Z.from('2024-07-15T12:00[America/New_York]').offset,
    gap: Temporal.PlainDateTime.from('2024-03-10T02:30').toZonedDateTime('America/New_York').toString(),
    paris: Temporal.Instant.from('2024-06-01T00:00Z').toZonedDateTimeISO('Europe/Paris').toString(),
    hoursInDay: Z.from('2024-11-03T12:00[America/New_York]').hoursInDay,
    next: Z.from('2024-01-01T00:00[Europe/Paris]').getTimeZoneTransition('next').toString(),
    now: Temporal.Now.zonedDateTimeISO('Asia/Tokyo').offset,
  };
  out.intlUntouched = Intl.DateTimeFormat === DTF;
  return out;
};
"""


def case_temporal_named_time_zones(v):
    """Named zones resolve through the build's Intl.DateTimeFormat when it supports time zones
    (the one zone database); without that, a RangeError that says to use UTC or an offset."""
    code, out, err = run_agent(v, ZONES, "--no-isolate", env=PINNED)
    assert code == 0, err
    got = json.loads(out)
    if not got["zones"]:
        assert got["error"] == "RangeError", got
        assert "UTC" in got["message"] and "offset" in got["message"], got
        return
    assert got == {"zones": True, "winter": "-05:00", "summer": "-04:00",
                   "gap": "2024-03-10T03:30:00-04:00[America/New_York]",
                   "paris": "2024-06-01T02:00:00+02:00[Europe/Paris]", "hoursInDay": 25,
                   "next": "2024-03-31T03:00:00+02:00[Europe/Paris]", "now": "+09:00", "intlUntouched": True}, got
