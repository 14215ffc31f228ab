"""Tidy (/tidy) as a user meets it — the card on top, the progress, a drag of the card, the
prompts — and the library's Tidy state as the CLI reports it (`tidy status|next|trash --json`,
the files in Recently Deleted/), which every step of the browser tests is checked against."""
import os, re

from . import browser, libraries
from .browser import ActionChains

ONBOARDED = "shoebox.tidy.onboarded"

# The ids of the card on top: every visible photo of the Tidy screen (an <img> of /media/…/ID)
# that a click at its centre would reach (the cards stacked behind are covered by it). A group
# card shows several; the largest first.
_CARD_JS = r"""
const idOf = (s) => { const m = /\/media\/(?:thumb|preview|original)\/([0-9a-fA-F-]{36})/.exec(s || ''); return m && m[1]; };
const out = [];
for (const img of document.querySelectorAll('main img, main [role=dialog] img')) {
  const id = idOf(img.getAttribute('src')) || idOf(img.currentSrc);
  if (!id) continue;
  const r = img.getBoundingClientRect();
  if (r.width < 8 || r.height < 8 || r.bottom < 0 || r.top > innerHeight) continue;
  const x = Math.min(innerWidth - 1, Math.max(0, r.left + r.width / 2)), y = Math.min(innerHeight - 1, Math.max(0, r.top + r.height / 2));
  const hit = document.elementFromPoint(x, y);
  if (!hit) continue;
  const frame = img.closest('figure, button, li, [role=button], [role=radio], [role=option]') || img.parentElement;
  if (hit !== img && !frame.contains(hit)) continue;
  let o = 1;
  for (let e = img; e; e = e.parentElement) o *= parseFloat(getComputedStyle(e).opacity);
  if (o < 0.5) continue;
  out.push([id, r.width * r.height, img.alt || '', img.complete && img.naturalWidth > 0]);
}
return out.sort((a, b) => b[1] - a[1]);
"""


# ---- the library, through the CLI

def status(lib):
    return libraries.cli(lib, "tidy", "status")


def under_review(lib):
    """`tidy next --json`'s item (an asset, or a group), or None when the session is done."""
    return libraries.cli(lib, "tidy", "next").get("item")


def ids_of(item):
    """The asset ids of an item: [id] of an asset, the members (best first) of a group — those
    still open in the session when the item says which ("open", as the API gives it)."""
    if item is None:
        return []
    if "group" not in item:
        return [item["id"]]
    return [m["id"] for m in item["items"] if m["id"] in item.get("open", [m["id"]])]


def marked(lib):
    """The ids `tidy trash --json` lists (marked for deletion, still in the library)."""
    return [a["id"] for a in libraries.cli(lib, "tidy", "trash")]


def decisions(lib):
    """id → Tidy decision (None, "keep", "delete", "maybe", …) of every photo of the session
    (`tidy list --all --json`: its items from the first, groups' members included)."""
    items = libraries.cli(lib, "tidy", "list", "--all")
    return {m["id"]: m.get("decision") for item in items for m in (item["items"] if "group" in item else [item])}


def recently_deleted(lib):
    """The names of the files in Recently Deleted/files/."""
    folder = os.path.join(lib, "Recently Deleted", "files")
    return sorted(os.listdir(folder)) if os.path.isdir(folder) else []


def human_bytes(n):
    """A size as the stats screen words it: "X.X GB" or "X.X MB" (decimal units, like `tidy empty`)."""
    for unit, size in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n} bytes"


# ---- the page

def card(driver):
    """[(id, area, alt, loaded)] of the photos of the card on top, largest first."""
    return driver.execute_script(_CARD_JS)


def card_ids(driver):
    return [c[0] for c in card(driver)]


def wait_card(driver, item, what="the card"):
    """Waits until the card on top shows ITEM (an asset: its photo; a group: its best member
    first, and none but its members), its photo loaded. Returns card()'s rows."""
    want = ids_of(item)

    def shows():
        rows = card(driver)
        ids = [r[0] for r in rows]
        # A photo: it alone. A group: its best member among those shown, and no other photo.
        ok = ids == want if "group" not in item else (want[0] in ids and set(ids) <= set(want))
        return rows if ok and all(r[3] for r in rows) else None
    return browser.wait(f"{what} to show {'group ' + item['group'] if 'group' in item else 'photo'} {want[0]} "
                        f"(on top now: {card_ids(driver)})", shows, 20)


def progress(driver):
    """(aria-valuenow, aria-valuemax, aria-valuetext, the text shown beside it) of the progress."""
    bar = browser.one(driver, "progressbar", None)
    shown = driver.execute_script(
        "const t = document.querySelector('main').innerText; const m = /(\\d[\\d,]*) of (\\d[\\d,]*)/i.exec(t);"
        "return m ? m[0] : null;")
    return (bar.get_attribute("aria-valuenow"), bar.get_attribute("aria-valuemax"),
            bar.get_attribute("aria-valuetext"), shown)


def expected_progress(st):
    """(X, Y) of "X of Y" for a status: the item under review's place (as `tidy next` says it)."""
    x = st["total"] if st["done"] else min(st["position"] + 1, st["total"])
    return x, st["total"]


def drag(driver, element, dx, dy, steps=12, step_ms=16):
    """Presses the pointer at ELEMENT's centre, moves it by (DX, DY) in STEPS moves of STEP_MS
    each (as a hand does: the card follows), and releases it."""
    chain = ActionChains(driver, duration=step_ms)
    chain.move_to_element(element).click_and_hold()
    for i in range(steps):
        chain.move_by_offset(round(dx * (i + 1) / steps) - round(dx * i / steps),
                             round(dy * (i + 1) / steps) - round(dy * i / steps))
    chain.release().perform()


def front_card_element(driver):
    """The element of the card on top (its largest photo's figure), for a drag."""
    rows = card(driver)
    if not rows:
        raise AssertionError("no card on top")
    return driver.execute_script(
        "const id = arguments[0];"
        "const img = [...document.querySelectorAll('main img')].find(i => (i.getAttribute('src') || '').includes(id));"
        "return img.closest('figure') || img;", rows[0][0])


def dialog(driver, name, timeout=20):
    """The visible dialog named NAME (a str or a compiled regex)."""
    return browser.one(driver, "dialog", name, timeout=timeout)


def answer(driver, dlg, yes):
    """Clicks the dialog's affirmative button (the first one: "Yes", "Review now", "Delete…")
    or its negative one ("No", "Not now", "Cancel", "Later")."""
    buttons = [b for b in browser.by_role(driver, "button", within=dlg) if b.is_displayed()]
    no = re.compile(r"^(no|not now|cancel|later|keep them|close|skip)\b", re.I)
    picked = [b for b in buttons if bool(no.search(b.accessible_name.strip())) != yes]
    if not picked:
        raise AssertionError(f"the dialog has no {'affirmative' if yes else 'negative'} button: "
                             f"{[b.accessible_name for b in buttons]}")
    picked[0].click()


def onboard(driver, url):
    """Opens URL with Tidy's onboarding already passed (localStorage), as a returning user."""
    driver.get(url)
    driver.execute_script(f"localStorage.setItem('{ONBOARDED}', '1')")
    browser.open_page(driver, url)


def choose_member(driver, asset_id):
    """Chooses ASSET_ID to keep among the group on the card: its own control (a button or radio
    holding its photo), then "Keep" when the card asks for it."""
    member = browser.wait(f"the group member {asset_id} on the card", lambda: driver.execute_script(
        "const img = [...document.querySelectorAll('main img')].find(i => (i.getAttribute('src') || '').includes(arguments[0]));"
        "return img && (img.closest('button, [role=button], [role=radio], [role=option], a[href]') || img);", asset_id), 10)
    member.click()
    try:
        browser.wait("a prompt after choosing", lambda: [e for e in browser.by_role(driver, "dialog") if e.is_displayed()], 2)
    except AssertionError:
        browser.one(driver, "button", "Keep").click()


def filter_options(driver, sheet):
    """The filter sheet's options: radio-like buttons (role radio, menuitemradio, or button)."""
    return [e for role in ("radio", "menuitemradio", "button", "option") for e in browser.by_role(driver, role, within=sheet)
            if e.is_displayed() and re.search(r", [\d,]+ photos?$", e.accessible_name.strip())]
