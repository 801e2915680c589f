"""tests/tamper_corpus.py — the driver the primordials tamper corpora share (docs/primordials.md).

A corpus is one script that uses a group of shims every way it can, run untouched and then once per
family of tampered builtins, the tampering placed before the shims' first import and after it.
Two script forms are in use:

* %TAMPER% / %BEFORE% placeholders (eval_placeholders, check_family): the script decides where
  the tampering runs from a flag; each family is a case of its own.
* TAMPER_BEFORE / TAMPER_AFTER marker lines (with_markers, eval_markers): the tampering is put
  in one place or the other; one case walks every family.
"""
import os
import tempfile

from cases import chidori


def eval_placeholders(v, tmp, body, tamper, before):
    """`chidori eval --file` of body with %TAMPER% and %BEFORE% filled in."""
    text = body.replace("%TAMPER%", tamper).replace("%BEFORE%", "true" if before else "false")
    path = os.path.join(tmp, "script.js")
    with open(path, "w") as f:
        f.write(text)
    return chidori(v, "eval", "--file", path)


def check_family(v, family, run, baseline):
    """run(tmp, before) -> (code, out, err) for family tampered before the first import or after it;
    each must exit 0 and print baseline's (out, err) exactly."""
    base_out, base_err = baseline
    for before in (True, False):
        where = f"{family}, tampered {'before the first import' if before else 'after the imports'}"
        with tempfile.TemporaryDirectory() as tmp:
            code, out, err = run(tmp, before)
        assert code == 0, f"{where}: exit {code}\n{out}\n{err[-2000:]}"
        if out != base_out:
            a, b = out.splitlines(), base_out.splitlines()
            diff = [f"  tampered: {x!r}\n untouched: {y!r}" for x, y in zip(a, b) if x != y][:8]
            raise AssertionError(f"{where}: the output differs from the untouched run's:\n" + "\n".join(diff) +
                                 (f"\n(lines: {len(a)} vs {len(b)})" if len(a) != len(b) else ""))
        assert err == base_err, f"{where}: stderr differs:\n{err[-2000:]}\n--- untouched:\n{base_err[-2000:]}"


def with_markers(text, before, after):
    """text with its TAMPER_BEFORE line replaced by before and its TAMPER_AFTER line by after."""
    assert "\nTAMPER_BEFORE\n" in text and "\n  TAMPER_AFTER\n" in text, "the body lost its tamper markers"
    return text.replace("\nTAMPER_BEFORE\n", "\n" + before + "\n").replace("\n  TAMPER_AFTER\n", "\n" + after + "\n")


def eval_markers(v, tmp, name, text, before, after):
    """`chidori eval --file` of with_markers(text, before, after), written as tmp/name.js."""
    path = os.path.join(tmp, name + ".js")
    with open(path, "w", encoding="utf-8") as f:
        f.write(with_markers(text, before, after))
    return chidori(v, "eval", "--file", path, timeout=60)
