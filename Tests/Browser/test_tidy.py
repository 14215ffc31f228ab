"""Tidy in the browser (issue 30): onboarding on a first visit, a session by keys and by pointer
drags (keep, delete, maybe, undo twice), a group of similar shots ("Delete the other N similar
photos?"), the tab closed and reopened resuming on the same item, and the filter sheet. Every
step is checked against `shoebox tidy status|next|trash --json` run on the same library and the
files in Recently Deleted/; every screen is photographed light and dark and passed through
axe-core. The piles, Empty Trash, the stats and the prompts are in test_tidy_piles.py."""
import re, time, unittest

from support import browser, libraries, tidy
from support.browser import ActionChains, Keys
from support.server import Server


class TidyCase(unittest.TestCase):
    """A browser for the class; per test a copy of the sample library served, and the problems
    (axe-core, console errors) gathered while looking at each screen, reported at the end."""

    @classmethod
    def setUpClass(cls):
        cls.driver = browser.start()

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()

    def setUp(self):
        self.problems = []
        browser.color_scheme(self.driver, "light")

    def serve(self, name):
        """A copy of the sample library (similar shots included) and `serve` on it: (lib, server)."""
        lib = libraries.copy(libraries.small(), name)
        server = Server(lib).start()
        self.addCleanup(server.stop)
        # (Cleanups run last first: the page is left before its server stops, so that its event
        # stream does not try to reconnect into the next test's console.)
        self.addCleanup(self.driver.get, "about:blank")
        browser.console_errors(self.driver)
        return lib, server

    def look(self, screen):
        """Screenshots of the screen as it is, light and dark, and axe-core on each. (The page's
        console errors are taken first: axe-core's own — it refetches @import'ed stylesheets from
        the wrong base and makes inline styles the CSP blocks — are not the page's.)"""
        d = self.driver
        self.console()
        for scheme in ("light", "dark"):
            browser.color_scheme(d, scheme)
            browser.settle(d)
            try:
                browser.wait(f"{screen}'s images to load", lambda: browser.images_loaded(d), 20)
            except AssertionError as e:
                self.problems.append(f"{screen}, {scheme}: {e}")
            browser.screenshot(d, f"tidy-{screen}-{scheme}")
            violations = browser.axe_violations(d)
            time.sleep(0.5)  # axe-core's stylesheet fetches fail late, into the console
            browser.console_errors(d)
            if violations:
                self.problems.append(f"axe-core on {screen}, {scheme}:\n{browser.describe_violations(violations)}")
        browser.color_scheme(d, "light")

    def console(self):
        errors = browser.console_errors(self.driver)
        if errors:
            self.problems.append("console errors:\n  " + "\n  ".join(errors))

    def report(self):
        self.console()
        self.assertFalse(self.problems, "\n".join(self.problems))

    # ---- steps, each checked against the CLI

    def check_progress(self, lib):
        st = tidy.status(lib)
        x, y = tidy.expected_progress(st)
        want = (str(x), str(y), f"{x:,} of {y:,}")
        shows = lambda p: p[:3] == want and (p[3] or "").lower() == want[2].lower()
        try:
            browser.wait(f"the progress to read {want[2]}", lambda: shows(tidy.progress(self.driver)), 10)
        except AssertionError:
            self.fail(f"the progress (aria-valuenow, -max, -valuetext, text shown) is {tidy.progress(self.driver)}, "
                      f"not {want} for `tidy status` position {st['position']} of {st['total']}")

    def decided(self, lib, item, decision, before):
        """After a swipe of ITEM: the CLI shows DECISION on each of its photos, the counts moved
        by as many, nothing in Recently Deleted/, and the card shows what `tidy next` says."""
        ids = tidy.ids_of(item)
        was = [m.get("decision") for m in (item["items"] if "group" in item else [item])]
        # "Reviewed this session" counts distinct photos, across filter changes (issue 32): a photo
        # this review decided before (the tests' marks are all this review's) is not counted again.
        new = was.count(None)
        # (In the maybe pile's own session a photo leaves the pile when decided again.)
        moved = {counted: (len(ids) if decision == pile else 0) - was.count(pile)
                 for pile, counted in (("delete", "marked"), ("maybe", "maybe"))}

        def settled(s):
            return s["reviewed"] == before["reviewed"] + new and all(
                s[counted] - before[counted] == n for counted, n in moved.items())
        # A decision is saved in the session, then on the photos (Tidy.decide): a `tidy status`
        # from another process between the two counts it reviewed but not yet marked. The state
        # it settles in is what is checked.
        try:
            st = browser.wait(f"`tidy status` to count {new} more reviewed after {decision}", lambda: (
                lambda s: s if settled(s) else None)(tidy.status(lib)), 20, 0.3)
        except AssertionError:
            st = tidy.status(lib)
        self.assertEqual(st["reviewed"], before["reviewed"] + new, f"`tidy status`'s reviewed after {decision}")
        for counted, n in moved.items():
            self.assertEqual(st[counted] - before[counted], n, f"`tidy status`'s {counted} after {decision}")
        now = tidy.decisions(lib)
        self.assertEqual({i: now[i] for i in ids}, dict.fromkeys(ids, decision), f"the decisions after {decision}")
        if decision == "delete":
            self.assertTrue(set(ids) <= set(tidy.marked(lib)), "`tidy trash` lists the photos marked")
        self.assertEqual(tidy.recently_deleted(lib), [], "a mark moved a file: nothing moves before Empty Trash")
        nxt = tidy.under_review(lib)
        if nxt is not None:
            tidy.wait_card(self.driver, nxt, f"the card after {decision}")
            self.check_progress(lib)
        return nxt

    def undone(self, lib, keys, item):
        """KEYS (Backspace, Ctrl+Z) take ITEM's decision back: undecided again, and on the card."""
        before = tidy.status(lib)
        ids = tidy.ids_of(item)
        press = ActionChains(self.driver)
        for k in keys[:-1]:
            press.key_down(k)
        press.send_keys(keys[-1])
        for k in reversed(keys[:-1]):
            press.key_up(k)
        press.perform()
        name = "+".join("Ctrl" if k == Keys.CONTROL else "Backspace" if k == Keys.BACKSPACE else k for k in keys)
        browser.wait(f"{name} to undo {ids}", lambda: tidy.status(lib)["reviewed"] == before["reviewed"] - len(ids), 20, 0.3)
        now = tidy.decisions(lib)
        self.assertEqual({i: now[i] for i in ids}, dict.fromkeys(ids), f"{name}: the photos are undecided again")
        self.assertEqual(tidy.ids_of(tidy.under_review(lib)), ids, f"{name}: `tidy next` is the item undone")
        tidy.wait_card(self.driver, item, f"the card after {name}")
        self.check_progress(lib)

    def swipe_keys(self, lib, key, decision):
        """The item under review decided by KEY, checked (decided()); returns the item."""
        item, before = tidy.under_review(lib), tidy.status(lib)
        tidy.wait_card(self.driver, item)
        browser.press(self.driver, key)
        self.decided(lib, item, decision, before)
        return item

    def swipe_drag(self, lib, decision):
        """The item under review decided by dragging its card (right, left or up), checked."""
        dx, dy = {"keep": (320, 0), "delete": (-320, 0), "maybe": (0, -280)}[decision]
        item, before = tidy.under_review(lib), tidy.status(lib)
        tidy.wait_card(self.driver, item)
        tidy.drag(self.driver, tidy.front_card_element(self.driver), dx, dy)
        self.decided(lib, item, decision, before)
        return item


class TidyFlowTests(TidyCase):
    def test_onboarding_on_a_first_visit_then_start_tidying(self):
        d = self.driver
        lib, s = self.serve("tidy-onboarding")
        browser.open_page(d, s.page_url("/tidy"))
        start = browser.one(d, "button", "Start tidying")
        text = d.find_element(browser.By.TAG_NAME, "main").text
        for promise in (r"leaves?\b.*\b(machine|computer|device)", r"\bempty the trash\b", r"\b30 days\b", r"Recently Deleted"):
            self.assertRegex(text, re.compile(promise, re.I | re.S), "the onboarding's privacy promise")
        self.assertFalse(tidy.card_ids(d), "a photo is shown behind the onboarding")
        self.look("onboarding")
        start.click()
        tidy.wait_card(d, tidy.under_review(lib), "the first card after Start tidying")
        self.assertEqual(d.execute_script(f"return localStorage.getItem('{tidy.ONBOARDED}')"), "1")
        self.check_progress(lib)
        self.look("swipe")
        browser.open_page(d, s.page_url("/tidy"))
        tidy.wait_card(d, tidy.under_review(lib), "the card on a second visit")
        self.assertFalse([b for b in browser.by_role(d, "button", "Start tidying") if b.is_displayed()],
                         "the onboarding came back on a second visit")
        self.report()

    def test_a_session_by_keys_keep_delete_maybe_then_undo_twice(self):
        d = self.driver
        lib, s = self.serve("tidy-keys")
        tidy.onboard(d, s.page_url("/tidy"))
        kept = self.swipe_keys(lib, Keys.ARROW_RIGHT, "keep")
        deleted = self.swipe_keys(lib, Keys.ARROW_LEFT, "delete")
        maybe = self.swipe_keys(lib, Keys.ARROW_UP, "maybe")
        self.undone(lib, [Keys.BACKSPACE], maybe)
        self.undone(lib, [Keys.CONTROL, "z"], deleted)
        now = tidy.decisions(lib)
        self.assertEqual({i: now[i] for i in tidy.ids_of(kept)}, dict.fromkeys(tidy.ids_of(kept), "keep"),
                         "two undos took back more than two decisions")
        self.assertEqual(tidy.marked(lib), [])
        self.assertEqual(tidy.status(lib)["maybe"], 0)
        # Space shows the photo full size; Escape closes it and gives the focus back.
        focused = d.execute_script("return document.activeElement")
        browser.press(d, Keys.SPACE)
        detail = browser.wait("the photo detail after Space", lambda: [
            e for e in browser.by_role(d, "dialog") if e.is_displayed()], 10)[0]
        shown = d.execute_script("return [...arguments[0].querySelectorAll('img, video')].map(e => e.currentSrc || e.src)", detail)
        self.assertTrue(any(deleted_id in u for u in shown for deleted_id in tidy.ids_of(deleted)),
                        f"the detail shows {shown}, not the photo under review")
        self.look("detail")
        browser.press(d, Keys.ESCAPE)
        browser.wait("Escape to close the detail", lambda: not [e for e in browser.by_role(d, "dialog") if e.is_displayed()], 10)
        self.assertTrue(d.execute_script("return document.activeElement === arguments[0]", focused),
                        "the focus is not where it was before the detail opened")
        self.assertEqual(tidy.status(lib)["reviewed"], len(tidy.ids_of(kept)), "Space or Escape decided something")
        self.report()

    def test_a_session_by_pointer_drags_and_a_short_drag_that_springs_back(self):
        d = self.driver
        lib, s = self.serve("tidy-drags")
        tidy.onboard(d, s.page_url("/tidy"))
        for decision in ("keep", "delete", "maybe"):
            self.swipe_drag(lib, decision)
        item, before = tidy.under_review(lib), tidy.status(lib)
        tidy.wait_card(d, item)
        box = lambda: d.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.left, r.top, r.width, r.height]",
                                       tidy.front_card_element(d))
        # At rest under the pointer (a card hovered lifts a little: measured so, as it ends).
        ActionChains(d).move_to_element(tidy.front_card_element(d)).perform()
        time.sleep(0.6)
        at_rest = box()
        tidy.drag(d, tidy.front_card_element(d), 24, 6, steps=4)
        browser.wait("the card to spring back where it was", lambda: all(abs(a - b) < 1.5 for a, b in zip(box(), at_rest)), 5)
        time.sleep(0.5)
        after = tidy.status(lib)
        self.assertEqual({k: after[k] for k in ("reviewed", "position", "marked", "maybe")},
                         {k: before[k] for k in ("reviewed", "position", "marked", "maybe")}, "a short drag decided something")
        self.assertEqual(tidy.card_ids(d)[0], tidy.ids_of(item)[0], "a short drag changed the card")
        self.report()

    def test_a_group_of_similar_shots_keep_one_and_delete_the_others(self):
        d = self.driver
        lib, s = self.serve("tidy-group")
        while "group" not in (tidy.under_review(lib) or {"group": None}):
            status, _, body = s.request("POST", "/api/tidy/decide", {"decision": "keep"})
            self.assertEqual(status, 200, body[:300])
        group = tidy.under_review(lib)
        self.assertIsNotNone(group, "the sample library has no group of similar shots")
        members = tidy.ids_of(group)
        before = tidy.status(lib)
        tidy.onboard(d, s.page_url("/tidy"))
        tidy.wait_card(d, group, "the group's card")
        self.look("swipe-group")
        chosen = members[1]  # not the best one: the user's choice, not the module's
        tidy.choose_member(d, chosen)
        others = [m for m in members if m != chosen]
        prompt = tidy.dialog(d, f"Delete the other {len(others)} similar photos?")
        self.look("prompt-delete-others")
        tidy.answer(d, prompt, yes=True)
        browser.wait("the others marked", lambda: set(tidy.marked(lib)) == set(others), 20, 0.3)
        now = tidy.decisions(lib)
        self.assertEqual(now[chosen], "keep")
        self.assertEqual({m: now[m] for m in others}, dict.fromkeys(others, "delete"))
        st = tidy.status(lib)
        self.assertEqual((st["marked"], st["reviewed"]), (before["marked"] + len(others), before["reviewed"] + len(members)))
        self.assertEqual(tidy.recently_deleted(lib), [], "marking the others moved a file")
        tidy.wait_card(d, tidy.under_review(lib), "the card after the group")
        self.check_progress(lib)
        self.report()

    def test_the_tab_closed_and_reopened_resumes_on_the_same_item(self):
        d = self.driver
        lib, s = self.serve("tidy-resume")
        tidy.onboard(d, s.page_url("/tidy"))
        self.swipe_keys(lib, Keys.ARROW_RIGHT, "keep")
        self.swipe_keys(lib, Keys.ARROW_RIGHT, "keep")
        # A decision, then the tab closed at once: it reached the library all the same.
        item, before = tidy.under_review(lib), tidy.status(lib)
        tidy.wait_card(d, item)
        browser.press(d, Keys.ARROW_LEFT)
        old = d.current_window_handle
        d.switch_to.new_window("tab")
        new = d.current_window_handle
        d.switch_to.window(old)
        d.close()
        d.switch_to.window(new)
        ids = tidy.ids_of(item)
        # (Saved in the session first, then on the photos: both are waited for.)
        browser.wait("the decision made as the tab closed to reach the library",
                     lambda: tidy.status(lib)["reviewed"] == before["reviewed"] + len(ids)
                     and set(ids) <= set(tidy.marked(lib)), 10, 0.3)
        want = tidy.under_review(lib)
        browser.open_page(d, s.page_url("/tidy"))
        tidy.wait_card(d, want, "the reopened tab's card (`tidy next`)")
        self.check_progress(lib)
        self.assertFalse([b for b in browser.by_role(d, "button", "Start tidying") if b.is_displayed()],
                         "the onboarding came back in a new tab")
        self.report()

    def test_the_filter_sheet_starts_a_session_over_a_year(self):
        d = self.driver
        lib, s = self.serve("tidy-filter")
        tidy.onboard(d, s.page_url("/tidy"))
        tidy.wait_card(d, tidy.under_review(lib))
        browser.one(d, "button", "Filter").click()
        sheet = tidy.dialog(d, "Filter")
        offered = s.get_json("/api/tidy/filters")["filters"]
        names = [b.accessible_name.strip() for b in tidy.filter_options(d, sheet)]
        for f in offered:
            want = f"{f['label']}, {f['count']:,} photo{'' if f['count'] == 1 else 's'}"
            self.assertIn(want, names, f"the filter sheet's options ({names})")
        self.look("filter-sheet")
        years = [f for f in offered if f["filter"].startswith("year:") and f["count"] >= 2]
        year = min(years, key=lambda f: f["count"])
        option = next(b for b in tidy.filter_options(d, sheet) if b.accessible_name.strip().startswith(year["label"] + ","))
        option.click()
        st = browser.wait(f"`tidy status` to show the filter {year['filter']}", lambda: (
            lambda x: x if x["filter"] == year["filter"] else None)(tidy.status(lib)), 20, 0.3)
        self.assertEqual((st["total"], st["position"], st["reviewed"]), (year["count"], 0, 0),
                         "the new session does not offer what the sheet counted")
        browser.wait("the filter sheet to close", lambda: not [e for e in browser.by_role(d, "dialog", "Filter") if e.is_displayed()], 10)
        item = tidy.under_review(lib)
        taken = (item["items"][0] if "group" in item else item)["taken_at"]
        self.assertEqual(taken[:4], year["label"], "the session's first photo is not of the year chosen")
        tidy.wait_card(d, item, "the first card of the year")
        self.check_progress(lib)
        self.report()


if __name__ == "__main__":
    unittest.main()
