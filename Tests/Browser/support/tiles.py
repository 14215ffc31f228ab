"""Photo tiles as a user sees them: each one an element (an ARIA option, grid cell, link or
button) showing the thumbnail `/media/thumb/ID` of one asset. Order is what is on screen: rows top
to bottom, left to right (a virtualised grid need not keep the DOM in that order)."""
import re, time

from .browser import wait

ID = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
ASSET_URL = re.compile(rf"/asset/({ID})")

_TILES_JS = r"""
const root = arguments[0] || document;
const idOf = (src) => { const m = /\/media\/thumb\/([0-9a-fA-F-]{36})/.exec(src || ''); return m && m[1]; };
const seen = new Map();
for (const img of root.querySelectorAll('img')) {
  // A lazy grid may hold the URL in data-src until it loads it: the tile is there all the same
  // (whether its picture loaded is what images_loaded checks).
  const id = idOf(img.getAttribute('src')) || idOf(img.currentSrc) || idOf(img.dataset.src);
  if (!id) continue;
  const tile = img.closest('[role=option],[role=gridcell],[role=checkbox],a[href],button,[role=button],[role=link],li') || img;
  const r = tile.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) continue;
  if (!seen.has(tile)) seen.set(tile, [tile, id, r.top + scrollY, r.left,
      (tile.getAttribute('aria-selected') || tile.getAttribute('aria-checked') || '') === 'true']);
}
return [...seen.values()].sort((a, b) => (a[2] - b[2]) || (a[3] - b[3]));
"""


class Tile:
    def __init__(self, element, asset_id, top, left, selected):
        self.element, self.id, self.top, self.left, self.selected = element, asset_id, top, left, selected

    def __repr__(self):
        return f"<tile {self.id[:8]}{' selected' if self.selected else ''}>"


def tiles(driver, within=None):
    """The tiles rendered now (a virtualised grid renders those near the viewport), on-screen order."""
    return [Tile(*t) for t in driver.execute_script(_TILES_JS, within)]


def wait_tiles(driver, what="photo tiles", within=None, timeout=30, at_least=1):
    return wait(what, lambda: (lambda t: t if len(t) >= at_least else None)(tiles(driver, within)), timeout)


def tile(driver, asset_id, within=None):
    return next((t for t in tiles(driver, within) if t.id == asset_id), None)


_SCROLL_JS = r"""
// Scrolls the grid's scroll container (the nearest scrollable ancestor of a tile, else the page)
// by one viewport toward the end; returns true when it was already at the end.
const img = [...document.querySelectorAll('img')].find(i => /\/media\/thumb\//.test(i.getAttribute('src') || i.dataset.src || ''));
let box = img && img.parentElement;
while (box && box !== document.body && box !== document.documentElement) {
  const s = getComputedStyle(box);
  if (/(auto|scroll)/.test(s.overflowY) && box.scrollHeight > box.clientHeight + 1) break;
  box = box.parentElement;
}
if (!box || box === document.body || box === document.documentElement) box = document.scrollingElement;
const atEnd = box.scrollTop + box.clientHeight >= box.scrollHeight - 2;
box.scrollTop = box.scrollTop + (arguments[0] ? box.scrollHeight : box.clientHeight);
return atEnd;
"""


def scroll_until(driver, found, what, timeout=60, jump=False, end_patience=2.0):
    """Scrolls the grid toward its end a viewport at a time (all the way when JUMP) until FOUND()
    is truthy; fails when the end is reached and stays reached for END_PATIENCE seconds (longer
    where the grid is still to learn of a change: the server's poll, then the page's refetch), or
    TIMEOUT passes without it."""
    deadline = time.monotonic() + timeout
    ends = 0
    while time.monotonic() < deadline:
        v = found()
        if v:
            return v
        at_end = driver.execute_script(_SCROLL_JS, jump)
        ends = ends + 1 if at_end else 0
        if ends > end_patience * 10:  # at the end that long: the grid has shown all it will
            raise AssertionError(f"scrolled to the end of the grid without finding {what}")
        time.sleep(0.1)
    raise AssertionError(f"timed out after {timeout} s scrolling for {what}")


def scroll_to_end(driver, timeout=60):
    """Scrolls the grid all the way down, until it stays at its end (a virtualised grid may grow)."""
    deadline, ends = time.monotonic() + timeout, 0
    while ends < 5 and time.monotonic() < deadline:
        ends = ends + 1 if driver.execute_script(_SCROLL_JS, True) else 0
        time.sleep(0.1)


def scroll_to_top(driver):
    driver.execute_script(_SCROLL_JS.replace("box.scrollTop = box.scrollTop +", "box.scrollTop = 0 *"), False)
    driver.execute_script("window.scrollTo(0, 0)")


def rendered_count(driver):
    """How many thumbnail images the document holds (a virtualised grid keeps this small)."""
    return driver.execute_script(
        "return [...document.querySelectorAll('img')].filter(i => /\\/media\\/thumb\\//.test(i.getAttribute('src') || i.dataset.src || '')).length")


def asset_id_in_url(driver):
    m = ASSET_URL.search(driver.current_url)
    return m.group(1) if m else None
