"""tests/cases_intl_files.py — Intl reads no ICU data from the machine (docs/intl.md).

ICU, by default, looks for loose data files before its built-in data, in directories named by
ICU_DATA and ICU_TIMEZONE_FILES_DIR (or compiled in: Debian's /usr/share/zoneinfo-icu). Such a
file would change what Intl returns (a replay on another machine would differ) and, in a confined
worker, opening it is a refused syscall. Intl must give the same result whatever those say.
"""
import os
import tempfile

from cases import chidori

SCRIPT = ("console.log(new Intl.DateTimeFormat('de-DE', {timeZone: 'America/New_York', "
          "dateStyle: 'full', timeStyle: 'full'}).format(new Date(0)));\n")


def case_intl_files_ignores_icu_data_files_of_the_machine(v):
    """Garbage ICU data files named by the environment change nothing (in-process eval, where
    the environment is the caller's)."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "s.js")
        with open(path, "w") as f:
            f.write(SCRIPT)
        code, clean, err = chidori(v, "eval", "--file", path)
        assert code == 0, f"exit {code}\n{err[-2000:]}"
        tz = os.path.join(d, "tz")
        data = os.path.join(d, "data", "icudt72l")
        os.makedirs(tz)
        os.makedirs(data)
        junk = bytes((i * 37 + 11) % 256 for i in range(4096))
        for name in ("zoneinfo64.res", "timezoneTypes.res", "metaZones.res"):
            with open(os.path.join(tz, name), "wb") as f:
                f.write(junk)
        for name in ("de.res", "de_DE.res", "root.res"):
            with open(os.path.join(data, name), "wb") as f:
                f.write(junk)
        env = {"ICU_TIMEZONE_FILES_DIR": tz, "ICU_DATA": os.path.dirname(data)}
        code, out, err = chidori(v, "eval", "--file", path, env=env)
        assert code == 0, f"ICU read data files of the machine: exit {code}\n{err[-2000:]}"
        assert out == clean, f"ICU data files of the machine changed Intl's output:\n{clean}\n{out}"
