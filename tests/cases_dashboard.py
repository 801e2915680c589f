"""tests/cases_dashboard.py — the dashboard's files as `chidori serve` serves them at /ui (the
page itself is driven in a browser by tests/browser/dashboard.mjs, a suite in tests/suites.py).

Each embedded file must be byte for byte the one in ui/ (the build embeds what is there), with
its content type and the headers that confine the page; only exact names are served; the files
need no key while the API still does.
"""
import http.client
import os

from cases_serve import serving
from run import ROOT

UI = os.path.join(ROOT, "ui")
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}


def raw_request(s, method, path):
    """A request with the path sent exactly as given (no client normalisation)."""
    conn = http.client.HTTPConnection(s.host, s.port, timeout=30 * s.v.slow)
    conn.putrequest(method, path, skip_accept_encoding=True)
    conn.endheaders()
    r = conn.getresponse()
    body = r.read()
    hdrs = {k.lower(): v for k, v in r.getheaders()}
    conn.close()
    return r.status, hdrs, body


def case_dashboard_files_served_from_the_binary(v):
    with serving(v, env={"CHIDORI_API_KEY": "ui-key"}) as s:
        names = sorted(n for n in os.listdir(UI) if os.path.splitext(n)[1] in TYPES)
        assert {"index.html", "app.js", "style.css"} <= set(names), names
        for name in names:
            with open(os.path.join(UI, name), "rb") as f:
                want = f.read()
            status, hdrs, body = raw_request(s, "GET", f"/ui/{name}")
            assert status == 200, (name, status, body[:200])
            assert body == want, f"/ui/{name} differs from ui/{name} (rebuild?)"
            assert hdrs["content-type"] == TYPES[os.path.splitext(name)[1]], (name, hdrs)
            csp = hdrs.get("content-security-policy", "")
            assert "default-src 'none'" in csp and "script-src 'self'" in csp and "frame-ancestors 'none'" in csp, csp
            assert hdrs.get("x-content-type-options") == "nosniff", hdrs
            assert hdrs.get("x-frame-options") == "DENY", hdrs
        with open(os.path.join(UI, "index.html"), "rb") as f:
            index = f.read()
        for path in ["/ui", "/ui/"]:
            status, hdrs, body = raw_request(s, "GET", path)
            assert status == 200 and body == index, (path, status, body[:200])
        status, hdrs, body = raw_request(s, "HEAD", "/ui/app.js")
        assert status == 200 and body == b"", (status, body[:100])


def case_dashboard_only_exact_names(v):
    with serving(v, env={"CHIDORI_API_KEY": "ui-key"}) as s:
        for path in ["/ui/nope.js", "/ui/../sessions", "/ui/..%2Fsessions", "/ui//app.js", "/ui/app.js/",
                     "/ui/APP.JS", "/ui/./app.js", "/ui/%2e%2e/sessions"]:
            status, hdrs, body = raw_request(s, "GET", path)
            assert status == 404, (path, status, body[:200])
            assert b'"error"' in body and b"<" not in body, (path, body[:200])
        status, hdrs, body = raw_request(s, "POST", "/ui/app.js")
        assert status == 405 and hdrs.get("allow") == "GET, HEAD", (status, hdrs)
        # a path that only starts like the dashboard's is the API's, behind the key
        for path in ["/uix", "/ui.js", "/sessions"]:
            status, _, body = raw_request(s, "GET", path)
            assert status == 401, (path, status, body[:200])
