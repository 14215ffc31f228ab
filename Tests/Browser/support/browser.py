"""Headless Chromium through Selenium, and finding things the way a user (or a screen reader)
does: by role and accessible name, from Chromium's own accessibility tree (CDP)."""
import json, os, re, time, uuid

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from . import libraries

CHROMIUM = os.environ.get("SHOEBOX_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("SHOEBOX_CHROMEDRIVER", "/usr/bin/chromedriver")
SCREENSHOTS = os.environ.get("SHOEBOX_SCREENSHOTS") or os.path.join(libraries.ROOT, "bench", "out", "screens")
AXE = os.path.join(os.environ.get("SHOEBOX_TOOLS") or os.path.expanduser("~/.cache/shoebox-tools"), "axe-core", "axe.min.js")
# Chromium talks to nothing but the server under test: no background services, no DNS for any
# name but the loopback ones (a page's request elsewhere still shows in the performance log).
QUIET = ["--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-default-apps", "--disable-client-side-phishing-detection", "--disable-domain-reliability",
         "--disable-breakpad", "--no-first-run", "--no-default-browser-check", "--no-proxy-server",
         "--metrics-recording-only", "--safebrowsing-disable-auto-update", "--dns-prefetch-disable",
         "--disable-features=OptimizationHints,MediaRouter,Translate,AutofillServerCommunication,InterestFeedContentSuggestions",
         "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE localhost , EXCLUDE 127.0.0.1"]


def start(width=1280, height=900):
    """A new headless Chromium (performance and console logs on)."""
    o = webdriver.ChromeOptions()
    o.binary_location = CHROMIUM
    for a in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
              f"--window-size={width},{height}", "--force-device-scale-factor=1", *QUIET]:
        o.add_argument(a)
    o.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    d = webdriver.Chrome(service=Service(CHROMEDRIVER), options=o)
    d.set_script_timeout(60)
    return d


def color_scheme(driver, scheme):
    """Emulates prefers-color-scheme: SCHEME ("light" or "dark") from the next paint on."""
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"media": "", "features": [{"name": "prefers-color-scheme", "value": scheme}]})


def wait(what, check, timeout=20, interval=0.1):
    """CHECK()'s first truthy value within TIMEOUT seconds, else an AssertionError naming WHAT."""
    deadline = time.monotonic() + timeout
    last_error = None
    while True:
        try:
            v = check()
            if v:
                return v
        except (StaleElementReferenceException, WebDriverException, LookupError) as e:
            last_error = e
        if time.monotonic() > deadline:
            extra = f" (last error: {str(last_error).splitlines()[0]})" if last_error else ""
            raise AssertionError(f"timed out after {timeout} s waiting for {what}{extra}")
        time.sleep(interval)


def open_page(driver, url, timeout=30):
    """Navigates to URL and waits until the screen module filled <main> (and nothing in it is
    aria-busy) and the fonts are loaded."""
    driver.get(url)
    wait_ready(driver, url, timeout)


def wait_ready(driver, what="the page", timeout=30):
    wait(f"{what} to be shown (<main> filled, nothing aria-busy, fonts loaded)", lambda: driver.execute_script(
        "const m = document.querySelector('main');"
        "return document.readyState === 'complete' && m && m.children.length > 0"
        " && !m.querySelector('[aria-busy=true]') && m.getAttribute('aria-busy') !== 'true'"
        " && document.fonts.status === 'loaded';"), timeout)


def _mark(driver, backend_ids):
    """WebElements for CDP backend node ids (each tagged for an instant to be found)."""
    out = []
    for backend in backend_ids:
        obj = driver.execute_cdp_cmd("DOM.resolveNode", {"backendNodeId": backend})["object"]
        token = uuid.uuid4().hex
        driver.execute_cdp_cmd("Runtime.callFunctionOn", {
            "objectId": obj["objectId"], "arguments": [{"value": token}],
            "functionDeclaration": "function(t) { this.setAttribute('data-webtest', t); }"})
        el = driver.find_element(By.CSS_SELECTOR, f'[data-webtest="{token}"]')
        driver.execute_script("arguments[0].removeAttribute('data-webtest')", el)
        out.append(el)
    return out


def by_role(driver, role, name=None, within=None):
    """Elements with accessible ROLE (Chromium's computed role: button, link, combobox, option,
    listbox, textbox, dialog, heading, img…) whose accessible name is NAME (a str: equal, ignoring
    case and surrounding space; a compiled regex: searched), in document order."""
    root = driver.execute_cdp_cmd("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    if within is not None:
        root = driver.execute_cdp_cmd("DOM.requestNode", {"objectId": _object_id(driver, within)})["nodeId"]
    nodes = driver.execute_cdp_cmd("Accessibility.queryAXTree", {"nodeId": root, "role": role})["nodes"]
    picked = []
    for n in nodes:
        if n.get("ignored") or "backendDOMNodeId" not in n:
            continue
        text = (n.get("name") or {}).get("value", "") or ""
        if name is None or (isinstance(name, str) and text.strip().lower() == name.strip().lower()) \
                or (isinstance(name, re.Pattern) and name.search(text)):
            picked.append(n["backendDOMNodeId"])
    return _mark(driver, picked)


def _object_id(driver, element):
    driver.execute_script("arguments[0].setAttribute('data-webtest-root', '1')", element)
    try:
        doc = driver.execute_cdp_cmd("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        node = driver.execute_cdp_cmd("DOM.querySelector", {"nodeId": doc, "selector": "[data-webtest-root]"})["nodeId"]
        return driver.execute_cdp_cmd("DOM.resolveNode", {"nodeId": node})["object"]["objectId"]
    finally:
        driver.execute_script("arguments[0].removeAttribute('data-webtest-root')", element)


def one(driver, role, name, within=None, timeout=20):
    """The visible element with ROLE and NAME, waiting for it; fails when none appears."""
    def find():
        shown = [e for e in by_role(driver, role, name, within) if e.is_displayed()]
        return shown[0] if shown else None
    label = name.pattern if isinstance(name, re.Pattern) else name
    return wait(f'a {role} named "{label}"', find, timeout)


def settle(driver, timeout=5):
    """Waits for what is moving to stop — the palette's transitions, a toast fading in or out — so
    that axe-core reads colours as they stay (a fading element has no contrast to speak of)."""
    time.sleep(0.1)
    try:
        wait("the screen's transitions to end", lambda: driver.execute_script(
            "return document.getAnimations().every(a => a.playState !== 'running' ||"
            " a.effect?.getComputedTiming().iterations === Infinity)"), timeout)
    except AssertionError:
        pass  # something keeps moving: looked at as it is


def axe_violations(driver, impacts=("serious", "critical")):
    """axe-core's violations of IMPACTS on the page once it has stopped moving (axe injected by
    the test, never served by the app). `preload: false`: axe's CSSOM preload copies the page's
    style sheets into a <style> element, which the app's CSP (`default-src 'self'`) refuses and
    reports on the console now and then, after the test has looked (CI, test_tracker's export);
    the one rule it feeds, css-orientation-lock, has nothing to find (no stylesheet of the app
    has an orientation media query: test_pages checks the CSS)."""
    with open(AXE, encoding="utf-8") as f:
        source = f.read()
    # A toast's timer can start its fade while axe reads the page, which then sees the text half
    # transparent: a look during which something began to leave is taken again (up to 3 times).
    for attempt in range(3):
        settle(driver)
        driver.execute_script(source)
        result = driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "let moved = false;"
            "const seen = new MutationObserver(ms => { moved ||= ms.some(m => m.target.classList?.contains('leaving')); });"
            "seen.observe(document.body, {subtree: true, attributes: true, attributeFilter: ['class']});"
            "axe.run(document, {resultTypes: ['violations'], preload: false})"
            ".then(r => { seen.disconnect(); done({violations: r.violations, moved}); },"
            " e => { seen.disconnect(); done({error: String(e)}); });")
        if "error" in result:
            raise AssertionError(f"axe-core failed: {result['error']}")
        if not result["moved"]:
            break
    return [v for v in result["violations"] if v.get("impact") in impacts]


def describe_violations(violations):
    lines = []
    for v in violations:
        lines.append(f"  [{v['impact']}] {v['id']}: {v['help']} ({v.get('helpUrl', '')})")
        for node in v["nodes"][:8]:
            summary = " ".join((node.get("failureSummary") or "").split())
            lines.append(f"      at {', '.join(map(str, node['target']))}: {summary[:300]}")
        if len(v["nodes"]) > 8:
            lines.append(f"      … and {len(v['nodes']) - 8} more")
    return "\n".join(lines)


def screenshot(driver, name):
    """Saves a PNG of the viewport as SCREENSHOTS/NAME.png; returns its path."""
    os.makedirs(SCREENSHOTS, exist_ok=True)
    path = os.path.join(SCREENSHOTS, f"{name}.png")
    driver.save_screenshot(path)
    return path


def console_errors(driver):
    """The console's SEVERE entries since the last call (JS errors, CSP violations, failed loads),
    but for Chromium's own /favicon.ico request, whose timing varies (test_pages checks the icon)."""
    return [e["message"] for e in driver.get_log("browser")
            if e.get("level") == "SEVERE" and "/favicon.ico " not in e["message"]]


def requested_urls(driver):
    """Every URL the page asked for since the last call (Network.requestWillBeSent)."""
    urls = []
    for entry in driver.get_log("performance"):
        msg = json.loads(entry["message"])["message"]
        if msg.get("method") == "Network.requestWillBeSent":
            urls.append(msg["params"]["request"]["url"])
    return urls


def images_loaded(driver, within=None):
    """True when every <img> in WITHIN (default: the document) that is in the viewport has loaded
    with pixels; False while one is loading; an AssertionError names a broken one."""
    state = driver.execute_script("""
        const root = arguments[0] || document;
        for (const img of root.querySelectorAll('img')) {
          const r = img.getBoundingClientRect();
          if (r.bottom < 0 || r.top > innerHeight || r.width === 0) continue;
          if (!img.getAttribute('src')) return false;  // a lazy image not yet given its URL
          if (!img.complete) return false;
          if (img.naturalWidth === 0) return 'broken:' + img.currentSrc;
        }
        return true;""", within)
    if isinstance(state, str):
        raise AssertionError(f"an image in view failed to load: {state[7:]}")
    return state is True


def press(driver, *keys):
    """Presses KEYS (selenium Keys or text) on whatever has focus."""
    ActionChains(driver).send_keys(*keys).perform()


def modified_click(driver, element, modifier):
    """A click with MODIFIER (Keys.CONTROL or Keys.SHIFT) held."""
    ActionChains(driver).key_down(modifier).click(element).key_up(modifier).perform()


__all__ = ["Keys", "By", "ActionChains"]
