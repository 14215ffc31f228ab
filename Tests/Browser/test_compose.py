"""The composer's page, /compose (brief 001; issue 31): pick four photos (a fifth refused, saying
why), reorder by a pointer drag, a long press on touch and the keyboard, replace one, remove,
"Remove all", export (the story shown; the HEIC downloaded is 1080×1920) and "Save to library" —
each step checked through `compose list --json`, `list --json` and the files; every screen
screenshotted light and dark and checked by axe-core."""
import os, re, shutil, subprocess, tempfile, time, unittest

from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.support.select import Select

from support import browser, libraries
from support.browser import ActionChains, By, Keys
from support.server import Server

TILE_IDS = "return [...document.querySelectorAll('.compose-tile')].map(t => t.dataset.id)"
PICKER_TILES = ".compose-picker .tile"
ID_IN_SRC = re.compile(r"/media/thumb/([0-9a-f-]{36})")


def draft(lib):
    return [a["id"] for a in libraries.cli(lib, "compose", "list")]


def heic_size(path):
    out = subprocess.run(["heif-info", path], capture_output=True, text=True, check=True).stdout
    m = re.search(r"(\d+)x(\d+)", out)
    return (int(m.group(1)), int(m.group(2))) if m else None


class ComposeTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.driver = browser.start(1280, 1000)
        cls.addClassCleanup(cls.driver.quit)

    def setUp(self):
        self.lib = libraries.copy(libraries.small(), "compose")
        self.server = Server(self.lib).start()
        self.addCleanup(self.server.stop)
        browser.color_scheme(self.driver, "light")
        self.downloads = tempfile.mkdtemp(prefix="compose-downloads-", dir=libraries.scratch())
        self.driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": self.downloads})

    def open(self):
        browser.open_page(self.driver, self.server.page_url("/compose"))
        browser.console_errors(self.driver)

    def look(self, name):
        """axe-core (serious, critical) in light and dark, a screenshot of each, no console error."""
        d = self.driver
        for scheme in ("light", "dark"):
            browser.color_scheme(d, scheme)
            time.sleep(0.3)
            browser.wait("the pictures in view to load", lambda: browser.images_loaded(d), 20)
            browser.screenshot(d, f"compose-{name}-{scheme}")
            self.assertEqual(browser.console_errors(d), [], f"{name}: console errors")
            violations = browser.axe_violations(d)
            self.assertEqual(violations, [], f"axe-core on {name}, {scheme}:\n{browser.describe_violations(violations)}")
            browser.console_errors(d)
        browser.color_scheme(d, "light")

    def wait_draft(self, want, what):
        browser.wait(f"{what}: compose list --json to be {want}", lambda: draft(self.lib) == want, 15)
        browser.wait(f"{what}: the stack to show it", lambda: self.driver.execute_script(TILE_IDS) == want, 15)

    def tile(self, position):
        return self.driver.find_element(By.CSS_SELECTOR, f'.compose-tile[data-position="{position}"]')

    def button(self, position, name):
        return browser.one(self.driver, "button", name, within=self.tile(position))

    def picker_tiles(self):
        d = self.driver
        browser.wait("the picker's tiles", lambda: d.find_elements(By.CSS_SELECTOR, PICKER_TILES) and browser.images_loaded(d))
        tiles = [t for t in d.find_elements(By.CSS_SELECTOR, PICKER_TILES) if t.is_displayed()]
        return [(t, ID_IN_SRC.search(t.find_element(By.TAG_NAME, "img").get_attribute("src")).group(1)) for t in tiles]

    def chosen_in_picker(self):
        return self.driver.execute_script("return document.querySelectorAll('.compose-picker .tile[aria-selected=true]').length")

    # ---- the whole flow of the issue

    def test_pick_four_reorder_replace_export_and_save(self):
        d, lib = self.driver, self.lib
        self.open()
        browser.one(d, "heading", "Make a story")
        self.look("start")
        before = len(libraries.cli(lib, "list"))

        # Pick 1–4 photos; a fifth is refused, and says why.
        browser.one(d, "button", "Choose photos").click()
        browser.one(d, "heading", "Choose photos")
        tiles = self.picker_tiles()
        videos = {a["id"] for a in libraries.cli(lib, "list", "--kind", "video")}
        self.assertFalse(videos & {i for _, i in tiles}, "the picker offers no video: a story stacks photos")
        picked = []
        for tile, asset in tiles[:4]:
            tile.click()
            picked.append(asset)
        self.assertEqual(self.chosen_in_picker(), 4)
        self.look("picker")
        tiles[4][0].click()
        refusal = browser.wait("the refusal of a fifth", lambda: d.find_element(By.CSS_SELECTOR, ".compose-picker-refusal").text)
        self.assertIn("A story holds at most 4 photos", refusal)
        self.assertEqual(d.find_element(By.CSS_SELECTOR, ".compose-picker-refusal").get_attribute("role"), "alert")
        self.assertEqual(self.chosen_in_picker(), 4, "the fifth was ticked")
        self.assertEqual(tiles[4][0].get_attribute("aria-selected"), "false")
        self.look("picker-refusal")
        self.assertEqual(draft(lib), [], "nothing is in the story before 'Add to story'")
        browser.one(d, "button", "Add to story").click()
        self.wait_draft(picked, "four photos added in the order ticked")
        self.look("stack")
        a, b, c, e = picked

        # Reorder by a pointer drag: the first tile lifted (scaled, its shadow deeper) onto the third.
        band, target = (self.tile(1).find_element(By.CSS_SELECTOR, ".compose-band"),
                        self.tile(3).find_element(By.CSS_SELECTOR, ".compose-band"))
        # Past the third tile's middle (at the middle itself it would not yet have moved aside).
        dy = target.rect["y"] + target.rect["height"] * 0.8 - (band.rect["y"] + band.rect["height"] / 2)
        chain = ActionChains(d, duration=50).click_and_hold(band)
        for step in range(1, 9):
            chain.move_by_offset(0, dy / 8)
        chain.perform()
        lifted = d.execute_script("const t = document.querySelector('.compose-lifted'); if (!t) return null;"
                                  "const s = getComputedStyle(t); return [t.dataset.id, s.transform, s.boxShadow];")
        self.assertIsNotNone(lifted, "no tile was lifted by the drag")
        self.assertEqual(lifted[0], a)
        scale = float(re.match(r"matrix\(([\d.]+)", lifted[1]).group(1))
        self.assertGreater(scale, 1.0, f"the lifted tile is not larger: {lifted[1]}")
        self.assertIn("rgba(0, 0, 0, 0.28)", lifted[2], "the lifted tile's deeper shadow")
        browser.screenshot(d, "compose-dragging-light")
        ActionChains(d).release().perform()
        self.wait_draft([b, c, a, e], "after dragging the first photo onto the third")

        # By keyboard: Alt+↑ on the focused tile, then the "Move down" button.
        d.execute_script("arguments[0].focus()", self.tile(3))
        ActionChains(d).key_down(Keys.ALT).send_keys(Keys.ARROW_UP).key_up(Keys.ALT).perform()
        self.wait_draft([b, a, c, e], "after Alt+↑ on photo 3")
        self.assertEqual(d.execute_script("return document.activeElement.dataset.position"), "2", "focus follows the moved photo")
        self.button(1, "Move down").click()
        self.wait_draft([a, b, c, e], "after Move down on photo 1")
        self.assertEqual(d.execute_script("return [document.activeElement.closest('.compose-tile').dataset.id,"
                                          " document.activeElement.dataset.control]"), [b, "down"], "focus follows the moved photo")
        self.assertFalse(self.button(1, "Move up").is_enabled(), "the top photo cannot move up")

        # Replace photo 2: the picker for that slot, without the story's own photos.
        self.button(2, "Replace").click()
        browser.one(d, "heading", "Replace photo 2")
        offered = self.picker_tiles()
        self.assertFalse({a, b, c, e} & {i for _, i in offered}, "the story's photos are not offered again")
        offered[0][0].click()
        offered[1][0].click()  # one photo: the latest ticked
        self.assertEqual(self.chosen_in_picker(), 1)
        self.look("picker-replace")
        browser.one(d, "button", "Use this photo").click()
        replacement = offered[1][1]
        self.wait_draft([a, replacement, c, e], "after replacing photo 2")

        # Export: the story shown (its JPEG rendition), the HEIC downloaded, nothing saved.
        browser.one(d, "button", "Export").click()
        browser.one(d, "heading", "Your story", timeout=30)
        size = browser.wait("the story's picture", lambda: d.execute_script(
            "const i = document.querySelector('img.compose-story');"
            "return i && i.complete && i.naturalWidth ? [i.naturalWidth, i.naturalHeight] : null;"), 30)
        self.assertEqual(size, [1080, 1920])
        self.assertEqual(draft(lib), [], "the draft ends with the export, as `compose export` ends it")
        self.assertEqual(len(libraries.cli(lib, "list")), before, "nothing saved before 'Save to library'")
        self.assertFalse(os.path.exists(os.path.join(lib, "Collages")))
        self.look("story")
        browser.one(d, "link", "Download HEIC").click()
        downloaded = browser.wait("the HEIC to be downloaded", lambda: [
            os.path.join(self.downloads, f) for f in os.listdir(self.downloads) if f.endswith(".heic")], 20)[0]
        self.assertRegex(os.path.basename(downloaded), r"^Story \d{4}-\d\d-\d\d \d\d\.\d\d\.\d\d\.heic$")
        self.assertEqual(heic_size(downloaded), (1080, 1920))

        # Save to library: into Collages/, indexed, the bytes downloaded.
        browser.one(d, "button", "Save to library").click()
        status = browser.wait("the saved line", lambda: d.find_element(By.CSS_SELECTOR, ".compose-saved").text)
        self.assertRegex(status, r"^Saved as Collages/Story .*\.heic\.")
        saved = [x for x in libraries.cli(lib, "list") if x["path"].startswith("Collages/")]
        self.assertEqual(len(saved), 1)
        self.assertEqual((saved[0]["width"], saved[0]["height"], saved[0]["format"]), (1080, 1920, "heic"))
        with open(os.path.join(lib, saved[0]["path"]), "rb") as f1, open(downloaded, "rb") as f2:
            self.assertEqual(f1.read(), f2.read(), "the library keeps the HEIC that was downloaded")
        self.assertFalse(browser.one(d, "button", "Saved to library").is_enabled())
        # Analysed at once (the server runs without its watcher here): no "1 photo not analysed yet".
        browser.wait("the saved story to be analysed", lambda: libraries.cli(lib, "show", saved[0]["id"])["analyzed"], 60, 0.5)
        link = browser.one(d, "link", "Open it in the library")
        self.assertTrue(link.get_attribute("href").endswith(f"/asset/{saved[0]['id']}"))
        self.look("story-saved")
        browser.one(d, "button", "New story").click()
        browser.one(d, "heading", "Make a story")

    # ---- the other ways in

    def test_remove_one_then_remove_all_back_to_the_start(self):
        d, lib = self.driver, self.lib
        photos = [a["id"] for a in libraries.cli(lib, "list", "--kind", "photo")][:3]
        libraries.run("--library", lib, "compose", "add", *photos)
        self.open()
        self.wait_draft(photos, "the draft made by `compose add`")
        self.button(2, "Remove").click()
        self.wait_draft([photos[0], photos[2]], "after Remove on photo 2")
        self.assertEqual(d.execute_script("return document.activeElement.dataset.control"), "remove", "focus stays on Remove")
        # Adding with two in the story: room for two more, and a third is refused.
        browser.one(d, "button", "Add photos").click()
        status = browser.wait("the picker's status", lambda: d.find_element(By.CSS_SELECTOR, ".compose-picker-status").text)
        self.assertIn("The story has 2 photos; 2 more fit.", status)
        tiles = self.picker_tiles()
        for tile, _ in tiles[:3]:
            tile.click()
        self.assertEqual(self.chosen_in_picker(), 2)
        self.assertIn("the story has 2 photos", d.find_element(By.CSS_SELECTOR, ".compose-picker-refusal").text)
        # A choice survives a filter that hides it (the picker's filters leave the URL alone).
        photos_by_id = {a["id"]: a for a in libraries.cli(lib, "list", "--kind", "photo")}
        chosen_years = {photos_by_id[i]["year"] for _, i in tiles[:2]}
        other = sorted({a["year"] for a in photos_by_id.values() if a["year"] and a["id"] not in photos} - chosen_years)[0]
        year = d.find_element(By.ID, "filter-year")
        Select(year).select_by_value(str(other))
        browser.wait("the year's photos alone", lambda: self.chosen_in_picker() == 0 and self.picker_tiles())
        self.assertEqual(d.execute_script("return location.pathname + location.search"), "/compose")
        self.assertIn("2 of 2 chosen", d.find_element(By.CSS_SELECTOR, ".compose-picker-bar").text)
        Select(year).select_by_value("")
        browser.wait("the two chosen ticked again", lambda: self.chosen_in_picker() == 2)
        browser.press(d, Keys.ESCAPE)  # the grid's Escape: untick all
        browser.press(d, Keys.ESCAPE)  # nothing ticked: leave the picker
        browser.one(d, "button", "Remove all").click()
        browser.one(d, "dialog", "Remove all photos from the story?")
        self.look("remove-all")
        browser.one(d, "button", "Remove all", within=browser.one(d, "dialog", "Remove all photos from the story?")).click()
        browser.wait("the draft to be empty", lambda: draft(lib) == [], 15)
        browser.one(d, "heading", "Make a story")
        self.assertEqual(d.execute_script("return document.activeElement.textContent.trim()"), "Choose photos")
        self.assertEqual(len([a for a in libraries.cli(lib, "list") if a["id"] in photos]), 3, "the photos stay in the library")

    def test_keys_pressed_faster_than_the_server_answers_move_the_same_photo(self):
        d, lib = self.driver, self.lib
        photos = [a["id"] for a in libraries.cli(lib, "list", "--kind", "photo")][:3]
        libraries.run("--library", lib, "compose", "add", *photos)
        self.open()
        self.wait_draft(photos, "the draft made by `compose add`")
        d.execute_script("arguments[0].focus()", self.tile(1))
        ActionChains(d).key_down(Keys.ALT).send_keys(Keys.ARROW_DOWN).send_keys(Keys.ARROW_DOWN).key_up(Keys.ALT).perform()
        self.wait_draft([photos[1], photos[2], photos[0]], "the first photo moved down twice")
        self.assertEqual(d.execute_script("return document.activeElement.dataset.id"), photos[0], "focus stays on the photo moved")

    def test_a_long_press_lifts_a_tile_on_touch_and_a_swipe_does_not(self):
        d, lib = self.driver, self.lib
        photos = [a["id"] for a in libraries.cli(lib, "list", "--kind", "photo")][:3]
        libraries.run("--library", lib, "compose", "add", *photos)
        self.open()
        self.wait_draft(photos, "the draft made by `compose add`")
        band = self.tile(3).find_element(By.CSS_SELECTOR, ".compose-band")
        r = band.rect
        x, y = int(r["x"] + r["width"] / 2), int(r["y"] + r["height"] / 2)
        top = self.tile(1).find_element(By.CSS_SELECTOR, ".compose-band").rect
        y_top = int(top["y"] + top["height"] * 0.2)  # above the first tile's middle

        def touch(hold, to_y):
            actions = ActionBuilder(d, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"))
            p = actions.pointer_action
            p.move_to_location(x, y).pointer_down()
            p.pause(hold)
            for step in range(1, 7):
                p.move_to_location(x, int(y + (to_y - y) * step / 6))
            p.pointer_up()
            actions.perform()

        touch(0.05, y_top)  # a swipe: the page's to scroll, not a drag
        time.sleep(0.5)
        self.assertEqual(draft(lib), photos, "a quick swipe moved a photo")
        touch(0.7, y_top)   # a long press, then the drag
        self.wait_draft([photos[2], photos[0], photos[1]], "after a long press on photo 3 dragged to the top")


if __name__ == "__main__":
    unittest.main()
