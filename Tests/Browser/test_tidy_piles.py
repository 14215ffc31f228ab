"""Tidy in the browser (issue 30), after the swipes: the trash review (tap to enlarge, one
"Restore", "Empty Trash" with its confirmation) and the stats screen's figures, the prompts at a
session's end ("You marked X photos for deletion. Review now?", "Ready to tackle your X maybes?"),
the maybe pile's grid and the empty state. Each step checked against `shoebox tidy … --json` and
the files in Recently Deleted/; each screen photographed light and dark, and axe-core."""
import os, re, unittest

from support import browser, libraries, tidy
from support.browser import Keys
from support.tiles import tiles, wait_tiles
from test_tidy import TidyCase


def decide_until(server, lib, left=None, decision="keep", photos=None):
    """Decides through the API (the page's own calls) until LEFT items remain in the session, or
    until PHOTOS photos have been decided."""
    done = 0
    while True:
        st = tidy.status(lib)
        if left is not None and st["items"] - st["item_position"] <= left:
            return
        if photos is not None and done >= photos:
            return
        done += len(tidy.ids_of(tidy.under_review(lib)))
        status, _, body = server.request("POST", "/api/tidy/decide", {"decision": decision})
        if status != 200:
            raise AssertionError(f"POST /api/tidy/decide: {status} {body[:300]!r}")


def restore_button(driver, asset_id):
    """The "Restore" button of ASSET_ID's tile (the nearest tile holding its photo)."""
    for button in browser.by_role(driver, "button", "Restore"):
        if driver.execute_script(
                "for (let e = arguments[0].parentElement; e && e !== document.body; e = e.parentElement) {"
                "  const imgs = e.querySelectorAll('img'); if (imgs.length === 0) continue;"
                "  return imgs.length === 1 && (imgs[0].getAttribute('src') || '').includes(arguments[1]); }"
                "return false;", button, asset_id):
            return button
    raise AssertionError(f"no Restore button on the tile of {asset_id}")


def figure(text, pattern):
    m = re.search(pattern, text, re.I)
    return m.groups() if m else None


class TidyPileTests(TidyCase):
    def end_session(self, server, lib, *swipes):
        """The session decided through the API but for its last items, then those by SWIPES
        (key, decision) on the page, the last one ending the session. Returns the status."""
        decide_until(server, lib, left=len(swipes))
        tidy.onboard(self.driver, server.page_url("/tidy"))
        for key, decision in swipes:
            self.swipe_keys(lib, key, decision)
        st = tidy.status(lib)
        self.assertTrue(st["done"], f"the session is not done: {st}")
        return st

    def test_trash_review_restore_one_then_empty_trash_and_the_stats(self):
        d = self.driver
        lib, s = self.serve("tidy-trash")
        decide_until(s, lib, decision="keep", photos=2)
        decide_until(s, lib, decision="delete", photos=4)
        sizes = {a["id"]: a for a in libraries.cli(lib, "list")}
        marked = tidy.marked(lib)
        self.assertGreaterEqual(len(marked), 4)
        tidy.onboard(d, s.page_url("/tidy/trash"))
        shown = wait_tiles(d, "the marked photos' tiles", at_least=len(marked))
        self.assertEqual({t.id for t in shown}, set(marked), "the trash review shows what `tidy trash` lists")
        self.assertEqual(len([b for b in browser.by_role(d, "button", "Restore") if b.is_displayed()]), len(marked),
                         "one Restore per photo")
        self.look("trash-grid")
        # Tap to enlarge, Escape back.
        shown[0].element.click()
        detail = browser.wait("the photo enlarged", lambda: [e for e in browser.by_role(d, "dialog") if e.is_displayed()], 10)[0]
        self.assertTrue(d.execute_script("return [...arguments[0].querySelectorAll('img, video')].some(e => (e.currentSrc || e.src).includes(arguments[1]))",
                                         detail, shown[0].id), "the enlarged photo is not the one tapped")
        self.look("trash-detail")
        browser.press(d, Keys.ESCAPE)
        browser.wait("Escape to close it", lambda: not [e for e in browser.by_role(d, "dialog") if e.is_displayed()], 10)
        # Restore one.
        back = marked[-1]
        restore_button(d, back).click()
        browser.wait(f"{back} to leave `tidy trash`", lambda: back not in tidy.marked(lib), 20, 0.3)
        self.assertEqual(tidy.decisions(lib)[back], "keep", "a restored photo is kept")
        browser.wait("its tile to leave the grid", lambda: back not in {t.id for t in tiles(d)}, 10)
        going = [i for i in marked if i != back]
        # Empty Trash, confirmed; the stats with motion reduced (nothing left running).
        reviewed = tidy.status(lib)["reviewed"]
        browser.one(d, "button", "Empty Trash").click()
        confirm = tidy.dialog(d, re.compile(r"^Empty (the )?Trash\b.*\?$", re.I))
        self.look("prompt-empty-trash")
        d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "", "features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
        tidy.answer(d, confirm, yes=True)
        # Files moved, marks and the session's tally written: one after another (Tidy.empty),
        # so all three are waited for before the figures are checked.
        try:
            browser.wait("the files in Recently Deleted/, the marks and the tally", lambda: len(tidy.recently_deleted(lib)) == len(going)
                         and not tidy.marked(lib) and tidy.status(lib)["removed"] == len(going), 30, 0.3)
        except AssertionError:
            self.assertEqual(len(tidy.recently_deleted(lib)), len(going), "files in Recently Deleted/ after Empty Trash")
        st = tidy.status(lib)
        self.assertEqual(tidy.marked(lib), [], "photos still marked after Empty Trash")
        self.assertEqual(st["removed"], len(going))
        trashed = {a["id"] for a in libraries.cli(lib, "trash", "list")}
        self.assertEqual(trashed, set(going), "`trash list` after Empty Trash")
        for i in going:
            self.assertFalse(os.path.exists(os.path.join(lib, sizes[i]["path"])), f"{sizes[i]['path']} is still in the library")
        self.assertTrue(os.path.exists(os.path.join(lib, sizes[back]["path"])), "the restored photo left the library")
        freed = sum(sizes[i]["size"] for i in going)
        self.assertEqual(st["freed_bytes"], freed)
        text = browser.wait("the stats screen", lambda: (lambda t: t if re.search(r"photos?\s+removed", t, re.I) else None)(
            d.find_element(browser.By.TAG_NAME, "main").text), 20)
        self.assertEqual(figure(text, r"([\d,]+)\s+photos?\s+removed"), (f"{len(going):,}",), f"stats: {text!r}")
        self.assertEqual(figure(text, r"([\d,]+)\s+photos?\s+reviewed\s+this\s+session"), (f"{reviewed:,}",), f"stats: {text!r}")
        amount = figure(text, r"(\d+(?:\.\d)?)\s*(GB|MB|kB)\s+freed")
        self.assertIsNotNone(amount, f"stats: no \"X.X GB/MB freed\" in {text!r}")
        self.assertEqual(f"{amount[0]} {amount[1]}", tidy.human_bytes(freed), f"freed ({freed:,} bytes)")
        running = d.execute_script("return document.getAnimations().filter(a => a.playState === 'running' && "
                                   "(a.effect?.getComputedTiming().iterations === Infinity || a.effect?.getComputedTiming().duration > 10)).length")
        self.assertEqual(running, 0, "animations run on the stats screen with prefers-reduced-motion: reduce")
        self.look("stats")
        self.report()

    def test_a_whole_session_by_keys_and_drags_ending_with_marks_asks_to_review_them(self):
        d = self.driver
        lib, s = self.serve("tidy-end-marked")
        # A year of a few photos, from its first item to its last, by keys and drags in turn.
        years = [f for f in s.get_json("/api/tidy/filters")["filters"] if f["filter"].startswith("year:") and f["count"] >= 5]
        year = min(years, key=lambda f: f["count"])
        status, _, body = s.request("POST", "/api/tidy/filter", {"filter": year["filter"]})
        self.assertEqual(status, 200, body[:300])
        tidy.onboard(d, s.page_url("/tidy"))
        turns = [(Keys.ARROW_LEFT, "delete"), (None, "keep"), (Keys.ARROW_UP, "maybe"), (None, "delete"),
                 (Keys.ARROW_RIGHT, "keep"), (None, "maybe")]
        for i in range(tidy.status(lib)["items"]):
            key, decision = turns[i % len(turns)]
            if key:
                self.swipe_keys(lib, key, decision)
            else:
                self.swipe_drag(lib, decision)
        st = tidy.status(lib)
        self.assertTrue(st["done"] and st["filter"] == year["filter"] and st["reviewed"] == year["count"], f"status: {st}")
        n = len(tidy.marked(lib))
        self.assertEqual(st["marked"], n)
        prompt = tidy.dialog(d, re.compile(rf"^You marked {n} photos? for deletion\. Review now\?$"))
        self.assertFalse([e for e in browser.by_role(d, "dialog", re.compile("maybes", re.I)) if e.is_displayed()],
                         "a maybe prompt while photos of the library are still to review")
        self.look("prompt-review-marked")
        tidy.answer(d, prompt, yes=True)
        browser.wait("the trash review", lambda: d.execute_script("return location.pathname") == "/tidy/trash", 10)
        shown = wait_tiles(d, "the marked photos' tiles", at_least=n)
        self.assertEqual({t.id for t in shown}, set(tidy.marked(lib)))
        d.back()
        browser.wait("the back button to return to /tidy", lambda: d.execute_script("return location.pathname") == "/tidy", 10)
        self.report()

    def test_everything_reviewed_asks_to_tackle_the_maybes_then_the_pile_and_the_empty_state(self):
        d = self.driver
        lib, s = self.serve("tidy-maybes")
        st = self.end_session(s, lib, (Keys.ARROW_UP, "maybe"), (Keys.ARROW_UP, "maybe"))
        self.assertEqual(st["marked"], 0)
        pile = [a["id"] for a in libraries.cli(lib, "tidy", "maybes")]
        self.assertEqual(st["maybe"], len(pile))
        prompt = tidy.dialog(d, f"Ready to tackle your {len(pile)} maybes?")
        self.look("prompt-maybes")
        tidy.answer(d, prompt, yes=True)
        browser.wait("`tidy status` to show the maybe session", lambda: tidy.status(lib)["filter"] == "maybe", 20, 0.3)
        first = tidy.under_review(lib)
        self.assertIn(tidy.ids_of(first)[0], pile)
        tidy.wait_card(d, first, "the maybe pile's first card")
        self.check_progress(lib)
        # The maybe pile's grid.
        browser.open_page(d, s.page_url("/tidy/maybes"))
        shown = wait_tiles(d, "the maybe pile's tiles", at_least=len(pile))
        self.assertEqual({t.id for t in shown}, set(pile), "the maybe grid shows what `tidy maybes` lists")
        self.look("maybe-grid")
        # Through the pile: nothing left to review, nothing marked, no maybe: the empty state.
        browser.open_page(d, s.page_url("/tidy"))
        while tidy.under_review(lib) is not None:
            self.swipe_keys(lib, Keys.ARROW_RIGHT, "keep")
        st = tidy.status(lib)
        self.assertEqual((st["done"], st["marked"], st["maybe"]), (True, 0, 0))
        browser.wait("the empty state (no card, no prompt)", lambda: not tidy.card_ids(d) and not [
            e for e in browser.by_role(d, "dialog") if e.is_displayed()], 10)
        self.assertTrue(browser.one(d, "button", "Filter"), "the empty state offers no filter")
        self.look("empty-state")
        self.report()


if __name__ == "__main__":
    unittest.main()
