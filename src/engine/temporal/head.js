/* head.js — the opening of the generated temporal.js (Makefile: head.js + the pinned polyfill's
 * global build + tail.js, compiled to bytecode with the rest of the engine's JavaScript).
 *
 * The whole file is one function expression; src/engine/temporal.c calls it with the realm's Intl
 * the first time a run reads `Temporal`, and installs what it returns. Inside it, `globalThis` and
 * `Intl` are local bindings that shadow the realm's: the polyfill installs Temporal on a private
 * object (the loader, not the polyfill, decides how it lands on the real global) and patches only a
 * private view of Intl, so loading Temporal changes nothing the rest of the run (or chidori's own
 * code) relies on. Everything else the polyfill reads (Date, BigInt, Math, Object, ...) is the
 * realm's: a guest that tampers with those breaks Temporal, never the host. The polyfill's clock is
 * Date.now() as it was before guest code ran, the run's virtual clock (the engine's clock hook), so
 * Temporal.Now has no other source of time.
 *
 * Trusts: nothing from the guest; runs as guest-realm code. */
(function chidoriTemporal(realmIntl, dateNow, RealmDate) {
  'use strict';
  /* The realm's Date (both captured before guest code ran), except that Date.now is always the
   * engine's own: the polyfill's only clock. */
  const Date = new Proxy(RealmDate, { get: (target, key, receiver) => (key === 'now' ? dateNow : Reflect.get(target, key, receiver)) });
  /* A view of Intl the polyfill may patch freely (its own DateTimeFormat wrapper lands here). With
   * no Intl in the realm, a stand-in that knows only UTC: UTC and fixed offsets never need Intl,
   * and a named zone fails with a RangeError that says why. With a real Intl, named zones resolve
   * through Intl.DateTimeFormat(..., {timeZone}).formatToParts, the realm's one zone database. */
  const Intl = (realmIntl !== null && typeof realmIntl === 'object' && typeof realmIntl.DateTimeFormat === 'function')
    ? Object.create(realmIntl)
    : utcOnlyIntl();
  const globalThis = Object.create(null);

  function utcOnlyIntl() {
    const isUtc = (id) => /^(etc\/)?(utc|gmt|uct|zulu|universal|greenwich)$/i.test(id) || /^etc\/gmt[+-]?0$/i.test(id);
    class DateTimeFormat {
      constructor(locales, options) {
        const zone = options === undefined || options === null ? undefined : options.timeZone;
        const calendar = options === undefined || options === null ? undefined : options.calendar;
        if (calendar !== undefined && !/^(iso8601|gregory)$/.test(String(calendar))) {
          throw new RangeError(`calendar "${String(calendar)}" is not available: calendars other than ISO 8601 ` +
            'need Intl.DateTimeFormat, which this build lacks');
        }
        if (zone !== undefined && !isUtc(String(zone))) {
          throw new RangeError(`time zone "${String(zone)}" is not available: named time zones need Intl.DateTimeFormat ` +
            'with time zone support, which this build lacks; use "UTC" or a fixed offset such as "+05:30"');
        }
      }
      format(ms) {
        return this.formatToParts(ms).map((part) => part.value).join('');
      }
      formatToParts(ms) {
        const d = new Date(ms === undefined ? Date.now() : Number(ms));
        const two = (n) => String(n).padStart(2, '0');
        const year = d.getUTCFullYear();
        return [
          { type: 'month', value: String(d.getUTCMonth() + 1) }, { type: 'literal', value: '/' },
          { type: 'day', value: String(d.getUTCDate()) }, { type: 'literal', value: '/' },
          { type: 'year', value: String(year > 0 ? year : 1 - year) }, { type: 'literal', value: ' ' },
          { type: 'era', value: year > 0 ? 'AD' : 'BC' }, { type: 'literal', value: ', ' },
          { type: 'hour', value: two(d.getUTCHours()) }, { type: 'literal', value: ':' },
          { type: 'minute', value: two(d.getUTCMinutes()) }, { type: 'literal', value: ':' },
          { type: 'second', value: two(d.getUTCSeconds()) },
        ];
      }
      resolvedOptions() {
        return { locale: 'en-US', calendar: 'iso8601', numberingSystem: 'latn', timeZone: 'UTC' };
      }
      static supportedLocalesOf() {
        return [];
      }
    }
    return { DateTimeFormat };
  }

