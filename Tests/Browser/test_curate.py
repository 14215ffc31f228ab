"""Curation in the browser (issue 31, brief 000): choose 12 photos in the picker, "Select top 5",
share them (the download's bytes are the originals', a zip's entries stored), "Delete" and
"Share" with nothing selected say "must select photos", create the album (its links in score
order) — each step checked through `curate list --json`, `album show --json` and the files;
and photos added before their analysis shown as being scored until their scores arrive.
Screenshots of each screen light and dark, axe-core on each."""
import os, re, shutil, tempfile, time, unittest, zipfile

from support import browser, libraries
from support.browser import By, Keys
from support.server import Server

ALBUM_NAME = re.compile(r"^TO NAME \d{4}-\d{2}-\d{2} \d{2}\.\d{2}\.\d{2}( \(\d+\))?$")


def curation(lib):
    return libraries.cli(lib, "curate", "list")


def ids(items):
    return [i["id"] for i in items]


def selected(items):
    return [i["id"] for i in items if i["selected"]]


class CurateTests(unittest.TestCase):
    maxDiff = None

    @classmethod
    def setUpClass(cls):
        cls.driver = browser.start()

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()

    def setUp(self):
        # The last test's page, its server gone, logs failed reconnections: not this test's.
        self.driver.get("about:blank")
        browser.console_errors(self.driver)
        browser.color_scheme(self.driver, "light")
        self.downloads = tempfile.mkdtemp(prefix="curate-downloads-", dir=libraries.scratch())
        self.driver.execute_cdp_cmd("Browser.setDownloadBehavior",
                                    {"behavior": "allow", "downloadPath": self.downloads, "eventsEnabled": True})

    def serve(self, lib, **kw):
        server = Server(lib, **kw).start()
        self.addCleanup(server.stop)
        return server

    # ---- looking

    def look(self, name):
        """A screenshot light and dark, axe-core (serious, critical) on each, no console error."""
        d = self.driver
        for scheme in ("light", "dark"):
            browser.color_scheme(d, scheme)
            browser.settle(d)
            browser.wait("the pictures in view", lambda: browser.images_loaded(d), 20)
            browser.screenshot(d, f"curate-{name}-{scheme}")
            self.assertEqual(browser.console_errors(d), [], f"{name}: console errors")
            violations = browser.axe_violations(d)
            self.assertEqual([v["id"] for v in violations], [], f"axe-core on {name}, {scheme}:\n{browser.describe_violations(violations)}")
            browser.console_errors(d)
        browser.color_scheme(d, "light")

    # ---- the page's parts

    def rows(self):
        """(id, checked) of each row of the list, top to bottom."""
        return [tuple(r) for r in self.driver.execute_script(
            "return [...document.querySelectorAll('.curate-list > li')].map(li => [li.dataset.id, li.querySelector('input[type=checkbox]').checked])")]

    def wait_rows(self, what, check, timeout=20):
        return browser.wait(what, lambda: check(self.rows()), timeout)

    def row_checkbox(self, asset_id):
        return self.driver.find_element(By.CSS_SELECTOR, f'.curate-list li[data-id="{asset_id}"] input[type=checkbox]')

    def tile(self, asset_id):
        """The picker's tile of ASSET_ID (scrolled into view by the grid's own keyboard move if needed)."""
        d = self.driver
        def find():
            for img in d.find_elements(By.CSS_SELECTOR, f'.curate-picker .tile img[src*="/media/thumb/{asset_id}"]'):
                return img.find_element(By.XPATH, "./ancestor::div[contains(@class,'tile')][1]")
            return None
        return browser.wait(f"the tile of {asset_id}", find, 10)

    def click_tile(self, asset_id):
        """A tap on the picker's tile of ASSET_ID, brought to the middle of the view first (the
        bar of chosen photos covers the bottom, as a phone's would)."""
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", self.tile(asset_id))
        self.tile(asset_id).click()

    def alert(self):
        return browser.wait("an alert", lambda: [e for e in browser.by_role(self.driver, "alert") if e.is_displayed()], 5)[0]

    def no_alert(self, timeout=8):
        browser.wait("the alert to leave by itself",
                     lambda: not [e for e in browser.by_role(self.driver, "alert") if e.is_displayed()], timeout)

    def download(self, suffix, timeout=30):
        def done():
            names = os.listdir(self.downloads)
            finished = [n for n in names if n.endswith(suffix)]
            return finished[0] if finished and not any(n.endswith(".crdownload") for n in names) else None
        return os.path.join(self.downloads, browser.wait(f"a download ending {suffix}", done, timeout))

    # ---- the flows

    def test_choose_twelve_select_top_five_share_delete_and_make_the_album(self):
        d = self.driver
        lib = libraries.copy(libraries.small(), "curate")
        server = self.serve(lib)
        photos = libraries.cli(lib, "list", "--kind", "photo")
        paths = {a["id"]: a for a in photos}
        browser.open_page(d, server.page_url("/curate"))
        browser.one(d, "heading", "Curate")
        self.assertTrue(browser.by_role(d, "heading", "Nothing to curate yet"), "the empty list says what to do")
        self.look("empty")

        # The picker: filter to photos, choose 12 (tapping, and Space on one), add them.
        browser.one(d, "button", "Choose Photos").click()
        browser.one(d, "heading", "Choose Photos")
        browser.wait_ready(d, "the picker")
        kind = browser.one(d, "combobox", "Kind")
        d.execute_script("arguments[0].value = 'photo'; arguments[0].dispatchEvent(new Event('change'))", kind)
        shown = browser.wait("the photos only", lambda: d.execute_script(
            "const t = document.querySelectorAll('.curate-picker .tile'); return t.length && t.length;"), 10)
        self.assertGreaterEqual(shown, 12)
        self.assertEqual(d.current_url, server.page_url("/curate#choose"), "the picker's filter moved the address")
        kinds = d.execute_script("return [...document.querySelectorAll('.curate-picker .tile')].map(t => t.getAttribute('aria-label').split(',')[0])")
        self.assertEqual(set(kinds), {"Photo"}, "the Kind filter let something else through")
        chosen = [a["id"] for a in photos][-12:]
        for asset_id in chosen[:-1]:
            self.click_tile(asset_id)
        last = self.tile(chosen[-1])
        d.execute_script("arguments[0].focus()", last)
        browser.press(d, " ")
        add = browser.one(d, "button", "Add 12 photos")
        self.assertEqual(len(d.find_elements(By.CSS_SELECTOR, '.curate-picker .tile[aria-selected="true"]')), 12)
        self.look("picker")
        add.click()
        self.wait_rows("12 rows", lambda rows: len(rows) == 12)
        listed = curation(lib)
        self.assertEqual(sorted(ids(listed)), sorted(chosen), "the list holds the 12 chosen")
        self.assertEqual([r[0] for r in self.rows()], ids(listed), "rows in `curate list`'s order, best first")
        scores = [i["score"] for i in listed]
        self.assertEqual(scores, sorted(scores, reverse=True), "best score on top")
        first = listed[0]
        label = d.find_element(By.CSS_SELECTOR, f'.curate-list li[data-id="{first["id"]}"]').text
        self.assertIn(f"{first['score']:.2f}", label, "the score shown")
        self.assertIn(first["score_detail"]["words"][0], label.lower(), "why, in the score's own words")
        self.assertEqual(d.current_url, server.page_url("/curate"), "back on the list after Add")

        # Select top 5: the best five ticked, here and in `curate list`.
        browser.one(d, "button", "Select top 5").click()
        top5 = ids(listed)[:5]
        self.wait_rows("the top 5 ticked", lambda rows: [r[0] for r in rows if r[1]] == top5)
        self.assertEqual(selected(curation(lib)), top5)
        self.look("list")

        # Share: no share sheet in headless Chromium, so a zip of stored entries, bytes equal.
        self.assertFalse(d.execute_script("return typeof navigator.canShare === 'function' && typeof navigator.share === 'function'"
                                          " && navigator.canShare({files: [new File(['x'], 'x.jpg', {type: 'image/jpeg'})]})"),
                         "this Chromium offers a share sheet: the download path is not what runs")
        files = server.get_json("/api/curation/share")["files"]
        browser.one(d, "button", "Share").click()
        archive = self.download(".zip")
        # Each file's path from `show --json` (a Live Photo's movie is an asset of its own there).
        expected = [(f["name"], libraries.cli(lib, "show", f["id"])["path"]) for f in files]
        self.assertEqual(len([f for f in files if not f["companion"]]), 5)
        with zipfile.ZipFile(archive) as z:
            infos = z.infolist()
            self.assertEqual([i.filename for i in infos], [n for n, _ in expected], "the files in rank order")
            for info, (name, path) in zip(infos, expected):
                self.assertEqual(info.compress_type, zipfile.ZIP_STORED, f"{name} is compressed")
                with open(os.path.join(lib, path), "rb") as f:
                    self.assertEqual(z.read(info), f.read(), f"{name} is not {path} byte for byte")

        # Nothing selected: Delete and Share say "must select photos", and change nothing.
        for asset_id in top5:
            self.row_checkbox(asset_id).click()
        self.wait_rows("nothing ticked", lambda rows: not any(r[1] for r in rows))
        self.assertEqual(selected(curation(lib)), [], "unticking a row deselects it")
        browser.one(d, "button", "Delete").click()
        alert = self.alert()
        self.assertRegex(alert.text, re.compile(r"must select photos", re.I))
        self.assertEqual(d.execute_script("return document.activeElement.textContent.trim()"), "Delete", "the alert took focus")
        self.look("toast")
        self.assertEqual(ids(curation(lib)), ids(listed), "Delete with nothing selected removed something")
        self.no_alert()
        browser.one(d, "button", "Share").click()
        self.assertRegex(self.alert().text, re.compile(r"must select photos", re.I))
        self.no_alert()

        # Delete two: out of the list, their files stay.
        gone = [ids(listed)[2], ids(listed)[7]]
        for asset_id in gone:
            self.row_checkbox(asset_id).click()
        self.wait_rows("two ticked", lambda rows: sorted(r[0] for r in rows if r[1]) == sorted(gone))
        browser.one(d, "button", "Delete").click()
        self.wait_rows("10 rows", lambda rows: len(rows) == 10)
        after = curation(lib)
        self.assertEqual(ids(after), [i for i in ids(listed) if i not in gone])
        for asset_id in gone:
            self.assertTrue(os.path.exists(os.path.join(lib, paths[asset_id]["path"])), "Delete touched a file")

        # Create Album: named as the brief says, its links in score order, a link to it.
        browser.one(d, "button", "Create Album").click()
        dialog = browser.one(d, "dialog", "Album created")
        name = d.find_element(By.CSS_SELECTOR, ".curate-album-name").text.strip()
        self.assertRegex(name, ALBUM_NAME)
        album = libraries.cli(lib, "album", "show", name)
        self.assertEqual(ids(album["entries"]), ids(after), "the album's links in score order")
        folder = os.path.join(lib, "Albums", name)
        self.assertEqual([e["link"] for e in album["entries"]], sorted(os.listdir(folder)), "the Albums folder in that order")
        link = browser.one(d, "link", "Open the album", within=dialog)
        self.look("album")
        link.click()
        browser.wait_ready(d, "the album")
        self.assertEqual(browser.one(d, "heading", name).text.strip(), name)

    def test_photos_added_before_their_analysis_are_scored_while_the_list_waits(self):
        d = self.driver
        lib = libraries.copy(libraries.small(), "curate-scoring")
        fresh = os.path.join(lib, "Fresh")
        os.makedirs(fresh)
        # Copied now (no capture time in them: the file's time, today): at the top of the picker.
        for name in ("chelsea.jpg", "coffee.jpg", "rocket.jpg"):
            shutil.copyfile(os.path.join(libraries.PHOTOS, name), os.path.join(fresh, name))
        libraries.run("--library", lib, "scan")
        new = [a for a in libraries.cli(lib, "list") if a["path"].startswith("Fresh/")]
        self.assertEqual([a["analyzed"] for a in new], [False] * 3)
        old = [a["id"] for a in libraries.cli(lib, "list", "--kind", "photo") if not a["path"].startswith("Fresh/")][-3:]
        server = self.serve(lib)  # --no-watch: only the page's request has them analysed
        browser.open_page(d, server.page_url("/curate#choose"))
        browser.one(d, "heading", "Choose Photos")
        for asset_id in [a["id"] for a in new] + old:
            self.click_tile(asset_id)
        browser.one(d, "button", "Add 6 photos").click()
        self.wait_rows("6 rows", lambda rows: len(rows) == 6)
        scoring = d.execute_script("return [...document.querySelectorAll('.curate-list li[data-state=scoring]')].map(li => li.dataset.id)")
        self.assertTrue(scoring, "no row is shown as being scored")
        self.assertTrue(set(scoring) <= {a["id"] for a in new})
        status = d.find_element(By.CSS_SELECTOR, ".curate-scoring")
        self.assertTrue(status.is_displayed())
        self.assertRegex(status.text, r"^Scoring \d photos?…")
        self.assertEqual(status.get_attribute("role"), "status")
        self.look("scoring")
        browser.wait("every score to arrive", lambda: d.execute_script(
            "return document.querySelectorAll('.curate-list li').length === 6"
            " && !document.querySelector('.curate-list li:not([data-state=scored])')"), 180)
        listed = curation(lib)
        self.assertTrue(all(i["score"] is not None for i in listed))
        self.wait_rows("the rows re-ranked by the new scores", lambda rows: [r[0] for r in rows] == ids(listed))
        self.assertFalse(d.find_element(By.CSS_SELECTOR, ".curate-scoring").is_displayed(), "still says scoring")


if __name__ == "__main__":
    unittest.main()
