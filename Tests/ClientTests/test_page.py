"""The page `rules serve` shows at `/`, in headless Chromium (Debian's `chromium` and
`chromium-driver`, driven by Selenium): a denied double star listed and explained down to the
deciding rule's file:line and its false sub-expression, a value written through the REST API
appearing in the data view without a reload, the rules with coverage and the diagnostics of a
broken file, and the page's bounds with 10^4 children under one node and 1,000 logged requests.

With RULES_PAGE_SCREENSHOTS=DIR (Scripts/page-screenshots.sh sets docs/images), the screenshots of
the three views are written there; otherwise to a temporary directory."""
import json
import os
import shutil
import tempfile
import time

import pytest
import requests

from conftest import REPO, mock_token

from browser import MISSING, make_driver

if MISSING:
    pytest.skip(MISSING, allow_module_level=True)

from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

POST = {"uid": "bob", "author": "Bob", "title": "Hello", "body": "First post", "starCount": 0}
ALICE = mock_token({"sub": "alice"})
STAR = {"posts/p1/stars/alice": True,
        "posts/p1/starCount": {".sv": {"increment": 1}},
        "user-posts/bob/p1/starCount": {".sv": {"increment": 1}}}


@pytest.fixture
def blog(serve):
    with open(os.path.join(REPO, "rules-examples", "blog", "database.rules.json")) as f:
        server = serve(f.read())
    seeded = server.rest("PUT", "/.json", {"posts": {"p1": POST}, "user-posts": {"bob": {"p1": POST}},
                                           "users": {"alice": {"username": "alice"}, "bob": {"username": "bob"}}},
                         token="owner")
    assert seeded.status_code == 200
    return server


@pytest.fixture
def browser():
    driver = make_driver()
    yield driver
    driver.quit()


@pytest.fixture
def shots():
    target = os.environ.get("RULES_PAGE_SCREENSHOTS")
    if target:
        os.makedirs(target, exist_ok=True)
        yield target
        return
    directory = tempfile.mkdtemp(prefix="rules-page-shots-")
    yield directory
    shutil.rmtree(directory, ignore_errors=True)


def wait(driver, predicate, timeout=15, message=""):
    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(lambda d: predicate(d), message)


def text(driver, css):
    found = driver.find_elements(By.CSS_SELECTOR, css)
    return found[0].text if found else ""


def cells_of(driver, css):
    """The texts of the cells of the first row matching `css` (None while the list is redrawn)."""
    try:
        rows = driver.find_elements(By.CSS_SELECTOR, css)
        return [c.text for c in rows[0].find_elements(By.TAG_NAME, "td")] if rows else None
    except StaleElementReferenceException:
        return None


def click(driver, css):
    """Clicks the first element matching `css`; False when there is none yet or it was redrawn."""
    try:
        found = driver.find_elements(By.CSS_SELECTOR, css)
        if not found:
            return False
        found[0].click()
        return True
    except StaleElementReferenceException:
        return False


def star(server):
    return server.rest("PATCH", "/.json", STAR, auth=ALICE)


def test_a_denied_double_star_is_listed_explained_and_data_updates_live(blog, browser, shots):
    assert star(blog).status_code == 200
    denied = star(blog)
    assert denied.status_code == 401
    assert ":39:" in denied.headers["X-Rules-Explanation"]

    browser.get(blog.url + "/")
    browser.execute_script("window.notReloaded = true")

    # Requests: the double star is listed as denied.
    browser.find_element(By.ID, "tab-requests").click()
    cells = wait(browser, lambda d: cells_of(d, "#requests-body tr.request-denied"), message="no denied request listed")
    assert cells[3] == "PATCH" and cells[5] == "/" and cells[6] == "uid alice" and cells[7] == "denied", cells

    # Its explanation: the deciding rule at file:line, its false sub-expression, the line highlighted.
    wait(browser, lambda d: click(d, "#requests-body tr.request-denied button.link"))
    wait(browser, lambda d: text(d, "#deciding-rule"), message="no explanation shown")
    deciding = text(browser, "#deciding-rule")
    assert "/posts/$postId/stars/$uid/.write" in deciding
    position = text(browser, "#deciding-position")
    assert position == f"{blog.rules_path}:39:23", position
    assert text(browser, "#false-part") == "!data.exists()"
    highlighted = browser.find_element(By.CSS_SELECTOR, "#request-source tr.decisive")
    assert highlighted.get_attribute("data-line") == "39"
    assert '".write": "auth != null && auth.uid === $uid' in highlighted.text
    browser.save_screenshot(os.path.join(shots, "requests.png"))
    # The filters: denied only keeps it; a user filter that matches nobody hides it.
    browser.find_element(By.ID, "filter-denied").click()
    wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#requests-body tr")) == 1)
    browser.find_element(By.ID, "filter-user").send_keys("carol")
    wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#requests-body tr")) == 0)
    browser.find_element(By.ID, "filter-user").clear()
    browser.find_element(By.ID, "filter-denied").click()

    # Data: a value written through the API appears without a reload.
    browser.find_element(By.ID, "tab-data").click()
    wait(browser, lambda d: "posts" in text(d, "#data-tree"), message="the data did not load")
    assert blog.rest("PUT", "/greeting.json", "written through the REST API", token="owner").status_code == 200
    wait(browser, lambda d: '"written through the REST API"' in text(d, "#data-tree"), message="the write did not appear")
    assert browser.execute_script("return window.notReloaded") is True
    # Expand posts/p1 and select its counter: path, value and priority are shown.
    browser.find_element(By.CSS_SELECTOR, 'button.toggle[aria-label="Expand /posts"]').click()
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, 'button.toggle[aria-label="Expand /posts/p1"]'))
    browser.find_element(By.CSS_SELECTOR, 'button.toggle[aria-label="Expand /posts/p1"]').click()
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, 'button.key[data-focus="key /posts/p1/starCount"]'))
    browser.find_element(By.CSS_SELECTOR, 'button.key[data-focus="key /posts/p1/starCount"]').click()
    wait(browser, lambda d: text(d, "#node-path") == "/posts/p1/starCount")
    assert text(browser, "#node-body pre") == "1"
    assert blog.rest("PATCH", "/posts/p1.json", {"title": "Hello again"}, token="owner").status_code == 200
    wait(browser, lambda d: '"Hello again"' in text(d, "#data-tree"), message="the update did not appear")
    browser.save_screenshot(os.path.join(shots, "data.png"))

    # Rules: coverage shaded on the lines of rules that ran.
    browser.find_element(By.ID, "tab-rules").click()
    wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#rules-source tr")) > 50, message="no rules source")
    wait(browser, lambda d: "cov-" in (d.find_element(By.CSS_SELECTOR, '#rules-source tr[data-line="39"]').get_attribute("class") or ""),
         message="line 39 is not shaded")
    hits = browser.find_element(By.CSS_SELECTOR, '#rules-source tr[data-line="39"] td.hits').text
    assert "✗" in hits, hits
    browser.save_screenshot(os.path.join(shots, "rules.png"))

    # A rules file that does not compile: its diagnostics are shown, the old rules stay.
    with open(blog.rules_path) as f:
        good = f.read()
    with open(blog.rules_path, "w") as f:
        f.write('{"rules": {\n  ".read": "auth.uid == $nobody"\n}}')
    wait(browser, lambda d: "does not compile" in text(d, "#rules-diagnostics"), timeout=20, message="no diagnostics")
    assert f"{blog.rules_path}:2:" in text(browser, "#rules-diagnostics")
    assert "$nobody" in text(browser, "#rules-diagnostics")
    browser.save_screenshot(os.path.join(shots, "rules-diagnostics.png"))
    with open(blog.rules_path, "w") as f:
        f.write(good)
    wait(browser, lambda d: "does not compile" not in text(d, "#rules-diagnostics"), timeout=20)


def test_ten_thousand_children_and_a_thousand_requests(blog, browser):
    children = {f"k{i:05d}": i for i in range(10_000)}
    assert blog.rest("PUT", "/big.json", children, token="owner").status_code == 200
    session = requests.Session()
    for i in range(1_000):
        session.get(f"{blog.url}/posts/p{i % 7}.json", params={"auth": ALICE}, timeout=10)
    session.get(f"{blog.url}/users/alice.json", timeout=10)  # denied: not signed in

    started = time.monotonic()
    browser.get(blog.url + "/")
    toggle = wait(browser, lambda d: next(iter(d.find_elements(By.CSS_SELECTOR, 'button.toggle[aria-label="Expand /big"]')), None),
                  timeout=30, message="/big not shown")
    loaded = time.monotonic() - started
    started = time.monotonic()
    toggle.click()
    wait(browser, lambda d: "children 1–50 of 10000" in text(d, "#data-tree"), timeout=30)
    expanded = time.monotonic() - started
    rows = len(browser.find_elements(By.CSS_SELECTOR, "#data-tree li"))
    assert rows <= 60, f"{rows} rows in the tree: children are not paged"
    timings = browser.execute_script("return window.rulesPage.timings")
    # The next page, and a jump to a key.
    browser.find_element(By.CSS_SELECTOR, 'button[data-focus="next /big"]').click()
    wait(browser, lambda d: "children 51–100 of 10000" in text(d, "#data-tree") and "k00050" in text(d, "#data-tree"))
    jump = browser.find_element(By.CSS_SELECTOR, 'input[data-focus="jump /big"]')
    jump.send_keys("k09876\n")
    wait(browser, lambda d: "k09876" in text(d, "#data-tree"))
    assert len(browser.find_elements(By.CSS_SELECTOR, "#data-tree li")) <= 60
    # A write under the big node shows up live.
    assert blog.rest("PUT", "/big/k09877.json", "changed", token="owner").status_code == 200
    wait(browser, lambda d: '"changed"' in text(d, "#data-tree"))

    started = time.monotonic()
    browser.find_element(By.ID, "tab-requests").click()
    wait(browser, lambda d: text(d, "#requests-count").startswith("1000 of 1000 requests shown"), timeout=30,
         message=text(browser, "#requests-count"))
    listed = time.monotonic() - started
    request_rows = len(browser.find_elements(By.CSS_SELECTOR, "#requests-body tr"))
    assert request_rows == 100
    request_timings = browser.execute_script("return window.rulesPage.timings")
    browser.find_element(By.ID, "filter-denied").click()
    wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#requests-body tr")) == 1)
    wait(browser, lambda d: click(d, "#requests-body button.link"))
    wait(browser, lambda d: "/users/$uid/.read" in text(d, "#request-body") or "No rule grants it" in text(d, "#request-body"))

    report = {"page_and_data_loaded_s": round(loaded, 3), "expand_10000_children_s": round(expanded, 3),
              "tree_render_ms": round(timings["treeRenderMs"], 1), "tree_rows": timings["treeRows"],
              "requests_listed_s": round(listed, 3), "requests_render_ms": round(request_timings["requestsRenderMs"], 1),
              "request_rows": request_rows}
    print("page measurements:", json.dumps(report))
    assert expanded < 5 and listed < 5, report


def test_the_page_opens_where_requests_happen_and_remembers_a_choice(blog, browser):
    # The app works in another namespace than the default one.
    assert blog.rest("PUT", "/rooms/r1.json", {"title": "busy"}, token="owner", ns="my-app").status_code == 200
    blog.rest("GET", "/rooms.json", ns="my-app")
    browser.get(blog.url + "/")
    wait(browser, lambda d: d.find_element(By.ID, "namespace").get_attribute("value") == "my-app", message="not opened at my-app")
    wait(browser, lambda d: "rooms" in text(d, "#data-tree"), message="my-app's data not shown")
    # A choice is remembered over later activity elsewhere.
    from selenium.webdriver.support.ui import Select
    Select(browser.find_element(By.ID, "namespace")).select_by_value("default")
    wait(browser, lambda d: "posts" in text(d, "#data-tree"))
    blog.rest("GET", "/rooms.json", ns="my-app")
    browser.get(blog.url + "/")
    wait(browser, lambda d: d.find_element(By.ID, "namespace").get_attribute("value") == "default", message="the choice was not remembered")
    # The address wins over both.
    browser.get(blog.url + "/?ns=my-app")
    wait(browser, lambda d: "rooms" in text(d, "#data-tree"))
