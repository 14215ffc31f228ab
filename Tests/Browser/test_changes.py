"""Changes made in the page reach the library, and changes in the library reach the page:
three photos selected (click, shift-click, keyboard) and moved to Recently Deleted, one restored;
a file dropped into the folder appears without a reload; a file uploaded through the page lands
in Imports/YYYY-MM-DD/. The library's state is read back through the CLI's --json each time."""
import hashlib, os, re, shutil, time, unittest

from support import browser, libraries
from support.browser import By, Keys
from support.server import Server
from support.tiles import scroll_to_top, scroll_until, tile, tiles, wait_tiles


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def photo_count(driver):
    """The number of photos and videos the Library's heading says ("12 photos and 1 video")."""
    text = driver.execute_script("const e = document.querySelector('.library-summary'); return e && e.textContent") or ""
    counts = [int(n.replace(",", "")) for n in re.findall(r"([\d,]+) (?:photo|video)", text)]
    return sum(counts) if counts else None


def wait_shown(driver, count, asset_id, what):
    """Waits for the page to have refetched the grid (its count says COUNT), then sweeps the grid
    from the top for ASSET_ID's tile: the tile goes in date order, perhaps above a place the
    sweep had already passed had it started before the refetch."""
    browser.wait(f"the page's count to include {what}", lambda: photo_count(driver) == count, 60, interval=0.5)
    scroll_to_top(driver)
    scroll_until(driver, lambda: tile(driver, asset_id), f"{what}'s tile ({asset_id})", timeout=60)


def selected(driver):
    return {t.id for t in tiles(driver) if t.selected}


def confirm_if_asked(driver, name):
    """Clicks the button named NAME (a regex) in a dialog, when the page asks to confirm."""
    try:
        dialog = browser.wait("a confirmation", lambda: [
            e for role in ("dialog", "alertdialog") for e in browser.by_role(driver, role) if e.is_displayed()], 2)
    except AssertionError:
        return
    browser.one(driver, "button", name, within=dialog[0]).click()


def wait_for_asset(lib, digest, what, timeout=60):
    """The asset `list --json` shows with SHA-256 DIGEST, waiting for it."""
    return browser.wait(what, lambda: next(
        (a for a in libraries.cli(lib, "list") if a["sha256"] == digest), None), timeout, interval=0.5)


class ChangesTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.driver = browser.start()

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()

    def test_select_three_move_them_to_recently_deleted_and_restore_one(self):
        d = self.driver
        lib = libraries.copy(libraries.small(), "trash")
        paths = {a["id"]: a["path"] for a in libraries.cli(lib, "list")}
        with Server(lib) as s:
            browser.open_page(d, s.url)
            a, b, c = wait_tiles(d, "four tiles", at_least=4)[:3]
            browser.modified_click(d, a.element, Keys.CONTROL)
            browser.wait("ctrl-click to select the first tile", lambda: selected(d) == {a.id}, 5)
            browser.modified_click(d, b.element, Keys.SHIFT)
            browser.wait("shift-click to select the first two tiles", lambda: selected(d) == {a.id, b.id}, 5)
            browser.ActionChains(d).key_down(Keys.SHIFT).send_keys(Keys.ARROW_RIGHT).key_up(Keys.SHIFT).perform()
            browser.wait("shift+→ to add the third tile", lambda: selected(d) == {a.id, b.id, c.id}, 5)
            browser.one(d, "button", re.compile(r"^Move to Recently Deleted")).click()
            confirm_if_asked(d, re.compile(r"^Move to Recently Deleted"))
            browser.wait("the three tiles to leave the grid",
                         lambda: not {t.id for t in tiles(d)} & {a.id, b.id, c.id}, 15)
            trashed = {i["id"] for i in libraries.cli(lib, "trash", "list")}
            self.assertEqual(trashed, {a.id, b.id, c.id}, "Recently Deleted (trash list --json) after the move")
            present = {x["id"] for x in libraries.cli(lib, "list")}
            self.assertFalse(present & trashed, "trashed assets still listed as present")

            browser.one(d, "link", "Recently Deleted").click()
            browser.wait("the Recently Deleted page", lambda: d.current_url.rstrip("/").endswith("/trash"), 10)
            browser.wait_ready(d, "Recently Deleted")
            shown = browser.wait("the three trashed tiles", lambda: (
                lambda t: t if {x.id for x in t} >= {a.id, b.id, c.id} else None)(tiles(d)), 15)
            browser.screenshot(d, "trash-three")
            target = next(t for t in shown if t.id == c.id)
            browser.modified_click(d, target.element, Keys.CONTROL)
            browser.wait("ctrl-click to select the tile in Recently Deleted", lambda: selected(d) == {c.id}, 5)
            browser.one(d, "button", re.compile(r"^Restore(?! all)")).click()
            confirm_if_asked(d, re.compile(r"^Restore(?! all)"))
            browser.wait("the restored tile to leave Recently Deleted", lambda: tile(d, c.id) is None, 15)
            self.assertEqual({i["id"] for i in libraries.cli(lib, "trash", "list")}, {a.id, b.id})
            back = libraries.first(libraries.cli(lib, "list"), id=c.id)
            self.assertEqual(back["path"], paths[c.id], "restored somewhere else than it was")
            self.assertTrue(os.path.isfile(os.path.join(lib, back["path"])))

    def test_a_file_dropped_into_the_folder_appears_without_reload(self):
        d = self.driver
        lib = libraries.copy(libraries.small(), "drop")
        with Server(lib, watch=True) as s:
            browser.open_page(d, s.url)
            wait_tiles(d)
            before = browser.wait("the page's photo count", lambda: photo_count(d), 15)
            self.assertEqual(before, len(libraries.cli(lib, "list")), "the page's count is not the library's")
            d.execute_script("window.shoeboxTestMark = 'no reload'")
            src = os.path.join(libraries.PHOTOS, "rocket.jpg")
            staged = os.path.join(libraries.scratch(), f"rocket-{time.time_ns()}.jpg")
            shutil.copy2(src, staged)
            os.makedirs(os.path.join(lib, "Dropped"))
            os.rename(staged, os.path.join(lib, "Dropped", "rocket.jpg"))  # as a file manager moves it in
            asset = wait_for_asset(lib, sha256(src), "the watcher to index the dropped file", 60)
            # Indexed is not yet shown: the page learns of it by the server's poll and refetches
            # the grid, which takes seconds on a loaded machine. The count it says grows by one
            # when it has; only then is the grid swept from the top (the new tile goes in date
            # order, perhaps above a place already scrolled past).
            wait_shown(d, before + 1, asset["id"], "the dropped photo")
            self.assertEqual(d.execute_script("return window.shoeboxTestMark"), "no reload",
                             "the page was reloaded to show the new photo")
            browser.screenshot(d, "library-after-drop")

    def test_a_change_by_the_cli_in_another_process_reaches_the_page(self):
        d = self.driver
        lib = libraries.copy(libraries.small(), "cli-change")
        with Server(lib) as s:  # no watcher: the news comes from the index itself
            browser.open_page(d, s.url)
            first = wait_tiles(d, "two tiles", at_least=2)[0]
            d.execute_script("window.shoeboxTestMark = 'no reload'")
            libraries.run("--library", lib, "trash", first.id)
            browser.wait(f"the tile of {first.id}, trashed by `shoebox trash`, to leave the grid",
                         lambda: tile(d, first.id) is None, 20)
            self.assertEqual(d.execute_script("return window.shoeboxTestMark"), "no reload")

    def test_a_file_uploaded_through_the_page_lands_in_imports(self):
        d = self.driver
        lib = libraries.copy(libraries.small(), "upload")
        with Server(lib, watch=True) as s:
            browser.open_page(d, s.url)
            wait_tiles(d)
            before = browser.wait("the page's photo count", lambda: photo_count(d), 15)
            browser.one(d, "button", re.compile(r"^Upload photos"))
            inputs = d.find_elements(By.CSS_SELECTOR, "input[type=file]")
            self.assertTrue(inputs, "no file input behind Upload photos")
            d.execute_script("window.shoeboxTestMark = 'no reload'")
            src = os.path.join(libraries.PHOTOS, "kite.jpg")
            inputs[0].send_keys(src)
            asset = wait_for_asset(lib, sha256(src), "the uploaded file in `list --json`", 60)
            self.assertRegex(asset["path"], r"^Imports/\d{4}-\d\d-\d\d/kite\.jpg$")
            day = asset["path"].split("/")[1]
            self.assertIn(day, {time.strftime("%Y-%m-%d"), time.strftime("%Y-%m-%d", time.localtime(time.time() - 120))},
                          "the import folder is not today's date")
            self.assertEqual(sha256(os.path.join(lib, asset["path"])), sha256(src), "the upload changed the bytes")
            leftovers = [f for _, _, fs in os.walk(os.path.join(lib, "Imports")) for f in fs if f != "kite.jpg"]
            self.assertEqual(leftovers, [], "temporary files left in Imports/")
            wait_shown(d, before + 1, asset["id"], "the uploaded photo")
            self.assertEqual(d.execute_script("return window.shoeboxTestMark"), "no reload")


if __name__ == "__main__":
    unittest.main()
