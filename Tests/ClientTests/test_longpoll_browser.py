"""Long polling in a real browser (headless Chromium): a page on another origin
(`http://localhost:SITE`, the server at `http://127.0.0.1:PORT`) runs a long-polling client
written for the tests (`longpoll_page.html`) the way the JavaScript SDK runs its own, so the
browser's own rules apply: each answer is loaded as a script from a hidden iframe (blocked if
it were not JavaScript), the disconnect frame is a page of the server's whose keepalive request
on `pagehide` is all the server hears when the client leaves, and the upgrade socket is the
browser's WebSocket."""
import functools
import http.server
import json
import os
import threading
import time

import pytest

from browser import MISSING, make_driver
from conftest import mock_token, wait_for

if MISSING:
    pytest.skip(MISSING, allow_module_level=True)

from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
RULES = {"rules": {
    "$other": {".read": "auth != null", ".write": "auth != null"},
    "secret": {".read": False, ".write": False},
}}
ALICE = mock_token({"sub": "alice"})


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture
def site():
    """The page's own origin: a static server for this folder on localhost."""
    handler = functools.partial(QuietHandler, directory=HERE)
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://localhost:{httpd.server_address[1]}"
    httpd.shutdown()


@pytest.fixture
def page():
    driver = make_driver(console=True)
    yield driver
    driver.quit()


def until(driver, script, timeout=10, message=""):
    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(lambda d: d.execute_script("return " + script), message or script)


def request(driver, action, body, timeout=10):
    r = driver.execute_script("return send(arguments[0], arguments[1])", action, body)
    return until(driver, f"lp.replies[{r}]", timeout, f"no reply to {action} {json.dumps(body)[:80]}")


def test_a_browser_connects_listens_writes_and_leaves_over_long_polling(serve, site, page):
    server = serve(RULES)
    page.get(f"{site}/longpoll_page.html?server=http://127.0.0.1:{server.port}&ns=demo")
    until(page, "lp.connected", message="the start answer did not run")
    assert request(page, "s", {"c": {"sdk.js.12-18-0": 1}}) == {"s": "ok", "d": {}}
    assert request(page, "auth", {"cred": ALICE})["s"] == "ok"
    assert request(page, "q", {"p": "/rooms/r1", "h": ""}) == {"s": "ok", "d": {}}
    assert request(page, "p", {"p": "/rooms/r1/title", "d": "hello"}) == {"s": "ok", "d": {}}
    # A write from another client reaches the page's listener.
    assert server.rest("PUT", "/rooms/r1/by.json", "bob", token="owner", ns="demo").status_code == 200
    until(page, "lp.pushes.some(p => p.b.p === '/rooms/r1/by' && p.b.d === 'bob')", message="the push did not arrive")
    # A denied write, and a large one in many segments.
    assert request(page, "p", {"p": "/secret/x", "d": 1})["s"] == "permission_denied"
    big = "x" * 60_000
    assert request(page, "p", {"p": "/rooms/r1/body", "d": big}, timeout=20) == {"s": "ok", "d": {}}
    assert server.rest("GET", "/rooms/r1/body.json", token="owner", ns="demo").json() == big
    # A transaction's compare-and-set, stale, then right.
    assert request(page, "p", {"p": "/rooms/r1/n", "d": 2, "h": "wrong"})["s"] == "datastale"
    # onDisconnect, then the page goes offline: only its disconnect frame's keepalive request
    # tells the server.
    assert request(page, "o", {"p": "/presence/alice", "d": "offline"}) == {"s": "ok", "d": {}}
    packets = page.execute_script("return lp.packets")
    assert packets == list(range(len(packets)))
    t0 = time.time()
    page.execute_script("goOffline()")
    assert wait_for(lambda: server.rest("GET", "/presence/alice.json", token="owner", ns="demo").json() == "offline", timeout=3)
    assert time.time() - t0 < 1.5
    errors = page.execute_script("return lp.errors")
    assert errors == []
    console = [entry["message"] for entry in page.get_log("browser") if entry["level"] == "SEVERE"]
    assert not [m for m in console if "/.lp" in m], console


def test_a_browser_upgrades_to_websocket_with_writes_in_flight(serve, site, page):
    server = serve(RULES)
    page.get(f"{site}/longpoll_page.html?server=http://127.0.0.1:{server.port}&ns=demo")
    until(page, "lp.connected")
    assert request(page, "auth", {"cred": ALICE})["s"] == "ok"
    assert request(page, "q", {"p": "/seq", "h": ""})["s"] == "ok"
    page.execute_script("""
        window.sent = [];
        upgrade(() => { for (let i = 0; i < 10; i++) sent.push(send("p", {p: "/seq/v", d: i})); });
    """)
    until(page, "lp.upgraded", message="the upgrade did not finish")
    page.execute_script("for (let i = 10; i < 20; i++) sent.push(send('p', {p: '/seq/v', d: i}));")
    until(page, "sent.length === 20 && sent.every(r => lp.replies[r] && lp.replies[r].s === 'ok')", message="a write was not acknowledged")
    values = page.execute_script("return lp.pushes.filter(p => p.a === 'd' && p.b.p === '/seq/v').map(p => p.b.d)")
    assert values == list(range(20)), values
    logged = [e for e in server.requests_logged() if e.get("method") == "p" and e.get("path") == "/seq/v"]
    assert [e["transport"] for e in logged][-1] == "ws"
    # The page now receives on the socket; the disconnect frame removed at the switch was ignored.
    server.rest("PUT", "/seq/v.json", "later", token="owner", ns="demo")
    until(page, "lp.pushes.some(p => p.b.p === '/seq/v' && p.b.d === 'later')")
    assert request(page, "p", {"p": "/seq/after", "d": 1}) == {"s": "ok", "d": {}}
