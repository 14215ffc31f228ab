"""Tidy's screens around the swipe screen (issue 30; js/tidy/ onboarding, detail, filter-sheet,
piles, stats, prompts, empty-state), each called through the export the swipe screen calls
(/work: tidy-web.md), on a copy of the sample library: what a user and a screen reader meet —
names, focus, keys — checked against `shoebox tidy … --json`, with axe-core light and dark.
The flows through the swipe screen itself are test_tidy.py's and test_tidy_piles.py's."""
import json, os, re, time, unittest

from support import browser, libraries
from support.browser import Keys
from support.server import Server

ONBOARDED = "shoebox.tidy.onboarded"


def status(lib):
    return libraries.cli(lib, "tidy", "status")


def marked(lib):
    return [a["id"] for a in libraries.cli(lib, "tidy", "trash")]


class TidyScreensTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.driver = browser.start()

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()

    def setUp(self):
        self.lib = libraries.copy(libraries.small(), "tidy-screens")
        self.server = Server(self.lib).start()
        self.addCleanup(self.server.stop)
        browser.color_scheme(self.driver, "light")
        # A page of the app whose own screen keeps still (Recently Deleted), so that what is
        # checked is the module called, not the swipe screen around it.
        browser.open_page(self.driver, self.server.page_url("/trash"))
        browser.console_errors(self.driver)

    # ---- calling a module's export in the page

    def start(self, module, call):
        """Runs CALL (JS using `m`, the module js/tidy/MODULE.js as the app loaded it, and `main`)
        without waiting for the promise it returns; result() waits for it."""
        self.driver.execute_script("""
            window.__tidyAnswer = undefined;
            const app = document.querySelector('script[type=module][src*="/js/app.js"]').src;
            import(new URL('tidy/' + arguments[0] + '.js', app)).then(async (m) => {
              const main = document.querySelector('main');
              window.__tidyAnswer = { value: await (%s) };
            }).catch((e) => { window.__tidyAnswer = { error: String(e && e.stack || e) }; });""" % call, module)

    def result(self, what="the call to finish"):
        answer = browser.wait(what, lambda: self.driver.execute_script("return window.__tidyAnswer"), 20)
        if "error" in answer:
            raise AssertionError(f"the page threw: {answer['error']}")
        return answer.get("value")

    def dialog(self, name):
        return browser.one(self.driver, "dialog", name)

    def no_dialog(self):
        browser.wait("the dialog to close", lambda: not [e for e in browser.by_role(self.driver, "dialog") if e.is_displayed()], 10)

    def focused_name(self):
        return self.driver.execute_script(
            "const e = document.activeElement; return e && (e.getAttribute('aria-label') || e.textContent || '').trim();")

    def look(self, name):
        """axe-core (serious, critical) in light and dark, a screenshot of each, no console error."""
        d = self.driver
        for scheme in ("light", "dark"):
            browser.color_scheme(d, scheme)
            time.sleep(0.3)
            browser.screenshot(d, f"tidy-screens-{name}-{scheme}")
            errors = browser.console_errors(d)  # before axe, which reads the style sheets itself
            self.assertEqual(errors, [], f"{name}: console errors")
            violations = browser.axe_violations(d)
            self.assertEqual(violations, [], f"axe-core on {name}, {scheme}:\n{browser.describe_violations(violations)}")
            time.sleep(0.5)  # axe-core's own stylesheet fetches fail late, into the console: set them aside
            browser.console_errors(d)
        browser.color_scheme(d, "light")

    # ---- the screens

    def test_onboarding_promises_privacy_and_starts_from_the_keyboard(self):
        d = self.driver
        d.execute_script(f"localStorage.removeItem('{ONBOARDED}')")
        self.start("onboarding", "m.needsOnboarding()")
        self.assertIs(self.result(), True, "needsOnboarding() on a first visit")
        self.start("onboarding", "m.showOnboarding(main)")
        start = browser.one(d, "button", "Start tidying")
        text = d.find_element(browser.By.TAG_NAME, "main").text
        for words in ("Nothing leaves this machine", "no network connection", "no account",
                      "Nothing is deleted until you empty the trash", "30 days", "Recently Deleted"):
            self.assertIn(words, text, "the privacy promise")
        keys = d.execute_script("return [...document.querySelectorAll('main kbd')].map(k => k.textContent)")
        self.assertEqual(keys, ["→Right arrow: ", "←Left arrow: ", "↑Up arrow: ", "⌫Backspace: "], "the keys as drawn, and as read out")
        self.assertTrue(browser.by_role(d, "heading", "Tidy"))
        self.look("onboarding")
        self.assertIsNone(d.execute_script("return window.__tidyAnswer"), "resolved before Start tidying")
        d.execute_script("arguments[0].focus()", start)
        browser.press(d, Keys.ENTER)
        self.result("Start tidying to resolve showOnboarding")
        self.assertEqual(d.execute_script(f"return localStorage.getItem('{ONBOARDED}')"), "1")
        self.start("onboarding", "m.needsOnboarding()")
        self.assertIs(self.result(), False, "needsOnboarding() after Start tidying")

    def test_each_prompt_is_a_dialog_named_by_its_question(self):
        d = self.driver
        cases = [("askDeleteOthers(1)", "Delete the other 1 similar photo?"),
                 ("askDeleteOthers(3)", "Delete the other 3 similar photos?"),
                 ("askReviewMarked(1)", "You marked 1 photo for deletion. Review now?"),
                 ("askReviewMarked(1832)", "You marked 1,832 photos for deletion. Review now?"),
                 ("askTackleMaybes(1)", "Ready to tackle your 1 maybe?"),
                 ("askTackleMaybes(4)", "Ready to tackle your 4 maybes?")]
        opener = browser.one(d, "link", "Tidy")
        for i, (call, question) in enumerate(cases):
            d.execute_script("arguments[0].focus()", opener)
            self.start("prompts", f"m.{call}")
            dlg = self.dialog(question)
            if i == 2:
                self.look("prompt")
            # Yes, "Not now", Escape, in turn: true, false, false.
            how = ("yes", "no", "escape")[i % 3]
            if how == "escape":
                browser.press(d, Keys.ESCAPE)
            else:
                buttons = [b for b in browser.by_role(d, "button", within=dlg) if b.is_displayed()]
                self.assertEqual(len(buttons), 2, f"{question}: {[b.accessible_name for b in buttons]}")
                (buttons[1] if how == "yes" else next(b for b in buttons if b.accessible_name == "Not now")).click()
            self.assertIs(self.result(question), how == "yes", f"{question} answered {how}")
            self.no_dialog()
            self.assertEqual(self.focused_name(), "Tidy", f"{question}: focus did not go back to what had it")

    def test_the_detail_zooms_plays_the_live_photo_and_video_and_closes_on_escape(self):
        d = self.driver
        assets = libraries.cli(self.lib, "list")
        live = next(a for a in assets if a["live_video"])
        video = next(a for a in assets if a["kind"] == "video")
        d.execute_script("window.__keys = []; document.addEventListener('keydown', (e) => window.__keys.push(e.key));")
        opener = browser.one(d, "link", "Tidy")
        d.execute_script("arguments[0].focus()", opener)
        self.start("detail", f"m.openDetail({json.dumps(live)})")
        dlg = self.dialog(re.compile(r"^Photo taken \d{1,2} \w+ \d{4}$"))
        self.assertTrue(d.execute_script("return [...arguments[0].querySelectorAll('img')].some(i => i.src.includes(arguments[1]))", dlg, live["id"]))
        caption = d.find_element(browser.By.CSS_SELECTOR, ".tidy-detail-caption").text
        self.assertIn(f"{live['width']:,} × {live['height']:,} px", caption)
        self.assertIn(os.path.basename(live["path"]), caption)
        scale = lambda: d.execute_script("return new DOMMatrix(getComputedStyle(document.querySelector('.tidy-detail .viewer-mount')).transform).a")
        browser.one(d, "button", "Zoom in").click()
        self.assertAlmostEqual(scale(), 1.5, 2)
        browser.press(d, "0")
        self.assertAlmostEqual(scale(), 1, 2)
        stage = d.find_element(browser.By.CSS_SELECTOR, ".tidy-detail .viewer-stage")
        d.execute_script("const r = arguments[0].getBoundingClientRect(); arguments[0].dispatchEvent(new WheelEvent('wheel', "
                         "{deltaY: -300, clientX: r.x + r.width / 2, clientY: r.y + r.height / 2, bubbles: true, cancelable: true}))", stage)
        self.assertGreater(scale(), 1.5, "the wheel does not zoom")
        browser.press(d, Keys.ARROW_LEFT)
        self.assertEqual(d.execute_script("return window.__keys.filter(k => k.startsWith('Arrow'))"), [],
                         "an arrow key in the detail reached the page (the swipe screen would decide)")
        browser.one(d, "button", "Play Live Photo").click()
        browser.wait("the Live Photo's movie to play", lambda: d.execute_script(
            "const v = document.querySelector('.tidy-detail video'); return v && v.src.includes('/media/live/' + arguments[0]) && v.currentTime > 0", live["id"]), 10)
        self.look("detail")
        browser.press(d, Keys.ESCAPE)
        self.result("Escape to close the detail")
        self.no_dialog()
        self.assertEqual(self.focused_name(), "Tidy", "focus did not go back to what opened the detail")
        self.start("detail", f"m.openDetail({json.dumps(video)})")
        dlg = self.dialog(re.compile(r"^Video taken "))
        browser.wait("the video to load", lambda: d.execute_script(
            "const v = arguments[0].querySelector('video[controls]'); return v && v.src.endsWith('/media/original/' + arguments[1]) && v.readyState >= 1", dlg, video["id"]), 15)
        self.assertFalse([b for b in browser.by_role(d, "button", "Zoom in") if b.is_displayed()], "zoom offered on a video")
        browser.one(d, "button", "Close").click()
        self.result("Close to close the detail")
        self.no_dialog()

    def test_the_filter_sheet_lists_counted_filters_and_starts_one_by_keyboard(self):
        d = self.driver
        libraries.run("--library", self.lib, "tidy", "delete")
        libraries.run("--library", self.lib, "tidy", "maybe")
        offered = self.server.get_json("/api/tidy/filters")
        self.start("filter-sheet", "m.openFilterSheet({ current: 'all' })")
        sheet = self.dialog("Filter")
        for f in offered["filters"]:
            name = f"{f['label']}, {f['count']:,} photo{'' if f['count'] == 1 else 's'}"
            self.assertTrue([b for b in browser.by_role(d, "button", name, within=sheet) if b.is_displayed()], f"no option {name!r}")
        current = d.execute_script("return [...arguments[0].querySelectorAll('[aria-current]')].map(e => e.getAttribute('aria-label'))", sheet)
        self.assertEqual(len(current), 1)
        self.assertTrue(current[0].startswith("All Photos, "), f"the current filter marked: {current}")
        self.assertTrue(self.focused_name().startswith("All Photos, "), "focus starts on the current filter")
        st = status(self.lib)
        browser.one(d, "link", f"Review marked photos ({st['marked']})", within=sheet)
        browser.one(d, "link", f"Maybe pile grid ({st['maybe']})", within=sheet)
        self.look("filter-sheet")
        browser.press(d, Keys.ESCAPE)
        self.assertIsNone(self.result("Escape to cancel the sheet"))
        self.assertEqual(status(self.lib)["session"], st["session"], "cancelling started a new session")
        year = next(f for f in offered["filters"] if f["filter"].startswith("year:") and f["count"] >= 2)
        self.start("filter-sheet", "m.openFilterSheet({ current: 'all' })")
        option = browser.one(d, "button", f"{year['label']}, {year['count']} photos", within=self.dialog("Filter"))
        d.execute_script("arguments[0].focus()", option)
        browser.press(d, Keys.ENTER)
        answer = self.result("the year's session to start")
        self.no_dialog()
        now = status(self.lib)
        self.assertEqual((now["filter"], now["total"]), (year["filter"], year["count"]), "`tidy status` after choosing a year")
        self.assertEqual(answer["status"]["filter"], year["filter"], "the sheet resolves with the new session")

    def test_trash_review_restores_by_keyboard_and_empty_trash_asks_first(self):
        d = self.driver
        for _ in range(3):
            libraries.run("--library", self.lib, "tidy", "delete")
        ids = marked(self.lib)
        self.start("piles", "m.showPile(main, 'trash', { onBack: () => { window.__back = true; } })")
        browser.one(d, "heading", "Marked for deletion")
        summary = d.find_element(browser.By.CSS_SELECTOR, ".tidy-pile-summary").text
        self.assertTrue(summary.startswith(f"{len(ids)} photos · "), summary)
        restores = [b for b in browser.by_role(d, "button", "Restore") if b.is_displayed()]
        self.assertEqual(len(restores), len(ids), "one Restore per marked photo")
        groups = [g.accessible_name for g in browser.by_role(d, "group") if g.is_displayed()]
        self.assertEqual(len(groups), len(ids))
        self.assertTrue(all(re.search(r"\d{4} \S+\.\w+ ", g) for g in groups), f"each tile named by date and file: {groups}")
        self.look("trash")
        first = d.execute_script("return arguments[0].closest('[data-id]').dataset.id", restores[0])
        d.execute_script("arguments[0].focus()", restores[0])
        browser.press(d, Keys.ENTER)
        browser.wait("the restored photo to leave `tidy trash`", lambda: first not in marked(self.lib), 10, 0.3)
        browser.wait("its tile to leave the grid", lambda: not d.find_elements(browser.By.CSS_SELECTOR, f'[data-id="{first}"]'), 10)
        self.assertEqual(self.focused_name(), "Restore", "focus after Restore is not on the next photo's Restore")
        left = len(ids) - 1
        browser.one(d, "button", "Empty Trash").click()
        question = f"Empty the trash and move {left} photos to Recently Deleted?"
        browser.one(d, "button", "Cancel", within=self.dialog(question)).click()
        self.no_dialog()
        self.assertEqual(len(marked(self.lib)), left, "Cancel emptied the trash")
        self.assertFalse(os.path.isdir(os.path.join(self.lib, "Recently Deleted", "files")), "Cancel moved files")
        browser.one(d, "button", "Empty Trash").click()
        browser.one(d, "button", "Move to Recently Deleted", within=self.dialog(question)).click()
        headline = browser.one(d, "heading", re.compile(r" freed$"))
        st = status(self.lib)
        self.assertEqual((st["marked"], st["removed"]), (0, left))
        self.assertEqual(len(os.listdir(os.path.join(self.lib, "Recently Deleted", "files"))), left)
        text = browser.wait("the stats' figures", lambda: (lambda t: t if "reviewed this session" in t else None)(
            d.find_element(browser.By.TAG_NAME, "main").text), 5)
        self.assertIn(f"{left} photos removed", text)
        self.assertIn(f"{st['reviewed']} photos reviewed this session", text)
        self.assertRegex(headline.accessible_name, r"^\d+(\.\d)? (bytes|kB|KB|MB|GB) freed$")
        browser.one(d, "link", "Recently Deleted", within=d.find_element(browser.By.TAG_NAME, "main"))
        browser.one(d, "button", "Back to Tidy").click()
        self.assertTrue(d.execute_script("return window.__back === true"), "Back to Tidy did not call onDone")

    def test_the_maybe_pile_grid_swipes_through_maybes_and_an_empty_pile_says_so(self):
        d = self.driver
        for _ in range(2):
            libraries.run("--library", self.lib, "tidy", "maybe")
        pile = [a["id"] for a in libraries.cli(self.lib, "tidy", "maybes")]
        self.start("piles", "m.showPile(main, 'maybes', { onSwipeMaybes: (answer) => { window.__swiped = answer; } })")
        browser.one(d, "heading", "Maybe pile")
        shown = d.execute_script("return [...document.querySelectorAll('main [data-id]')].map(e => e.dataset.id)")
        self.assertEqual(sorted(shown), sorted(pile), "the maybe grid shows what `tidy maybes` lists")
        self.assertFalse(browser.by_role(d, "button", "Restore"), "Restore on the maybe pile")
        browser.one(d, "button", re.compile(r"^View (photo|screenshot|video) ")).click()
        self.dialog(re.compile(r"^(Photo|Screenshot|Video) "))
        browser.press(d, Keys.ESCAPE)
        self.no_dialog()
        self.look("maybes")
        browser.one(d, "button", "Swipe through maybes").click()
        answer = browser.wait("onSwipeMaybes", lambda: d.execute_script("return window.__swiped"), 10)
        self.assertEqual((answer["status"]["filter"], status(self.lib)["filter"]), ("maybe", "maybe"))
        self.start("piles", "m.showPile(main, 'trash')")
        browser.wait("the empty trash to say so", lambda: "Nothing is marked for deletion" in d.find_element(browser.By.TAG_NAME, "main").text, 10)
        self.assertFalse([b for b in browser.by_role(d, "button", "Empty Trash") if b.is_displayed()], "Empty Trash on an empty pile")

    def test_stats_list_what_failed_and_keep_still_with_reduced_motion(self):
        d = self.driver
        emptied = {"removed": 3, "freed_bytes": 1_234_000_000, "freed": "1.2 GB", "reviewed": 41,
                   "purge_date": "2026-12-27T10:00:00+01:00", "failed": 1, "errors": ["2019/IMG_1.JPG: permission denied"]}
        d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "", "features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
        self.start("stats", f"m.showStats(main, {json.dumps(emptied)}, {{}})")
        browser.one(d, "heading", "1.2 GB freed")
        self.assertEqual(d.execute_script("return document.getAnimations().length"), 0, "animations despite prefers-reduced-motion")
        text = d.find_element(browser.By.TAG_NAME, "main").text
        for words in ("3 photos removed", "41 photos reviewed this session", "until 27 December 2026"):
            self.assertIn(words, text)
        alert = browser.one(d, "alert", None)
        self.assertIn("2019/IMG_1.JPG: permission denied", alert.text)
        self.assertIn("1 photo could not be moved", alert.text)
        d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "", "features": [{"name": "prefers-reduced-motion", "value": "no-preference"}]})
        self.start("stats", f"m.showStats(main, {json.dumps(dict(emptied, failed=0, errors=[]))}, {{}})")
        browser.one(d, "heading", "1.2 GB freed")
        self.assertGreater(d.execute_script("return document.getAnimations().length"), 0, "no celebration")
        browser.wait("the animations to end within 2.5 s", lambda: d.execute_script(
            "return document.getAnimations().every(a => a.playState === 'finished')"), 2.5)
        self.assertFalse(browser.by_role(d, "alert"), "an error block with nothing failed")
        self.look("stats")

    def test_the_empty_state_offers_the_next_steps_and_says_how_to_add_photos(self):
        d = self.driver
        done = {"filter": "year:2019", "total": 9, "position": 9, "reviewed": 9, "marked": 3, "maybe": 2,
                "unreviewed": 12, "done": True}
        self.start("empty-state", "(main.replaceChildren(m.emptyState(%s, { onTrash: () => { window.__step = 'trash'; },"
                   " onMaybes: () => { window.__step = 'maybes'; }, onFilter: () => { window.__step = 'filter'; } })), null)" % json.dumps(done))
        self.result()
        text = d.find_element(browser.By.TAG_NAME, "main").text
        self.assertIn("9 photos reviewed this session", text)
        self.assertIn("12 photos in the library not reviewed yet", text)
        for name, step in (("Review the 3 marked photos", "trash"), ("Tackle 2 maybes", "maybes"), ("Choose another filter", "filter")):
            browser.one(d, "button", name).click()
            self.assertEqual(d.execute_script("return window.__step"), step, name)
        self.look("empty-state")
        self.start("empty-state", "(main.replaceChildren(m.emptyState(%s)), null)" % json.dumps(dict(done, marked=1, maybe=0)))
        self.result()
        self.assertEqual(browser.one(d, "link", "Review the 1 marked photo").get_attribute("href"), self.server.page_url("/tidy/trash"))
        # A library without a photo.
        empty = os.path.join(libraries.scratch(), f"tidy-empty-{time.time_ns()}")
        libraries.run("init", empty)
        with Server(empty) as server:
            browser.open_page(d, server.page_url("/trash"))
            self.start("empty-state", "(main.replaceChildren(m.emptyState({ filter: 'all', total: 0, position: 0, reviewed: 0,"
                       " marked: 0, maybe: 0, unreviewed: 0, done: true })), null)")
            self.result()
            browser.one(d, "heading", "No photos to tidy yet")
            browser.one(d, "link", "Go to the Library")


if __name__ == "__main__":
    unittest.main()
