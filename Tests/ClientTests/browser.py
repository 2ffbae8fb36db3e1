"""Headless Chromium (Debian's `chromium` and `chromium-driver`) driven by Selenium, for the tests
that need a real browser."""
import os

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
MISSING = None if os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER) else (
    f"these tests need Chromium and its driver ({CHROMIUM}, {CHROMEDRIVER}): apt-get install -y chromium chromium-driver")

os.environ.setdefault("SE_OFFLINE", "true")  # Selenium must not try to download a browser or driver


def make_driver(console=False):
    """A headless Chromium; with `console`, its console messages are kept (driver.get_log("browser"))."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1440,1000", "--force-prefers-reduced-motion"):
        options.add_argument(arg)
    if console:
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    return driver
