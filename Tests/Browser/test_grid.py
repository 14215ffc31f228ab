"""The library grid on 10,000 assets: scrolled to its end, filtered by year, and the viewer
stepped with the arrow keys — each checked against `shoebox list --json`; a year's album of
hundreds of photos, scrolled to its end and its photo opened, against `album show --json`."""
import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from support import browser, libraries
from support.browser import Keys
from support.server import Server
from support.tiles import asset_id_in_url, rendered_count, scroll_until, tile, tiles, wait_tiles

VIEWER_IMAGE_JS = r"""
const id = arguments[0];
for (const img of document.querySelectorAll('img')) {
  const src = img.getAttribute('src') || '';
  if (!src.includes(id) || !/\/media\/(preview|original)\//.test(src)) continue;
  const r = img.getBoundingClientRect();
  if (r.width > 0 && img.complete && img.naturalWidth > 0) return true;
}
return false;
"""


def viewer_shows(driver, asset_id):
    return driver.execute_script(VIEWER_IMAGE_JS, asset_id)


class GridTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.lib = libraries.big()
        cls.assets = libraries.cli(cls.lib, "list")  # date order, oldest first
        cls.server = Server(cls.lib).start()
        cls.driver = browser.start()
        # The grid shows the library oldest first or newest first; the tests follow what it shows.
        browser.open_page(cls.driver, cls.server.url)
        first = wait_tiles(cls.driver, "the library's first tiles")[0].id
        ids = [a["id"] for a in cls.assets]
        cls.order = ids if first == ids[0] else ids[::-1] if first == ids[-1] else None
        cls.first_tile = first

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()
        cls.server.stop()

    def setUp(self):
        self.assertEqual(len(self.assets), libraries.BIG_ASSETS)
        self.assertIsNotNone(self.order, f"the grid's first tile {self.first_tile} is neither the oldest "
                             f"({self.assets[0]['id']}) nor the newest ({self.assets[-1]['id']}) asset")

    def test_scrolling_to_the_end_shows_the_last_asset(self):
        d = self.driver
        browser.open_page(d, self.server.url)
        wait_tiles(d)
        last = self.order[-1]
        found = scroll_until(d, lambda: tile(d, last), f"the last asset's tile ({last})", timeout=120, jump=True)
        browser.wait("the last tile's thumbnail", lambda: d.execute_script(
            "const i = arguments[0].querySelector('img') || arguments[0];"
            "return i.complete && i.naturalWidth > 0", found.element), 60)
        shown = tiles(d)
        self.assertEqual(shown[-1].id, last, "the last asset is not the last tile shown")
        n = rendered_count(d)
        self.assertLess(n, 2000, f"{n} thumbnails in the document for {len(self.assets)} assets: the grid is not virtualised")
        browser.screenshot(d, "library-10000-end")

    def test_year_filter_shows_only_that_years_tiles(self):
        d = self.driver
        browser.open_page(d, self.server.url)
        wait_tiles(d)
        year = "2013"
        in_year = [a["id"] for a in libraries.cli(self.lib, "list", "--year", year)]
        expected = [i for i in self.order if i in set(in_year)]
        self.assertTrue(0 < len(expected) < len(self.order))
        select = browser.one(d, "combobox", "Year")
        self.assertEqual(select.tag_name, "select", "the Year filter is not a <select>")
        option = next((o for o in Select(select).options if o.text.strip().startswith(year)), None)
        self.assertIsNotNone(option, f"the Year filter offers no {year}: {[o.text for o in Select(select).options]}")
        Select(select).select_by_visible_text(option.text)
        first = browser.wait(f"the first tile to be {year}'s first asset", lambda: (
            lambda t: t and t[0].id == expected[0] and t)(tiles(d)), 30)
        wrong = [t.id for t in first if t.id not in set(in_year)]
        self.assertEqual(wrong, [], f"tiles of other years under Year = {year}")
        last = scroll_until(d, lambda: tile(d, expected[-1]), f"{year}'s last asset", timeout=60, jump=True)
        self.assertIsNotNone(last)
        shown = tiles(d)
        wrong = [t.id for t in shown if t.id not in set(in_year)]
        self.assertEqual(wrong, [], f"tiles of other years at the end of Year = {year}")
        self.assertEqual(shown[-1].id, expected[-1])
        browser.screenshot(d, f"library-10000-year-{year}")

    def test_viewer_steps_with_the_arrow_keys_in_grid_order(self):
        d = self.driver
        k = len(self.order) // 2
        start = self.order[k]
        browser.open_page(d, self.server.page_url(f"/asset/{start}"))
        browser.wait("the viewer's image", lambda: viewer_shows(d, start), 30)
        steps = (("→", Keys.ARROW_RIGHT, self.order[k + 1]), ("→", Keys.ARROW_RIGHT, self.order[k + 2]),
                 ("←", Keys.ARROW_LEFT, self.order[k + 1]), ("←", Keys.ARROW_LEFT, self.order[k]))
        for name, key, expected in steps:
            before = asset_id_in_url(d)
            browser.press(d, key)
            browser.wait(f"{name} to go from /asset/{before} to /asset/{expected}",
                         lambda: asset_id_in_url(d) == expected, 15)
            browser.wait(f"the viewer's image of {expected}", lambda: viewer_shows(d, expected), 30)
        browser.screenshot(d, "viewer-10000")
        # Back to the grid (its nav link): the thumbnails in view load, wherever it puts you.
        browser.one(d, "link", "Library").click()
        browser.wait("the library page", lambda: asset_id_in_url(d) is None, 10)
        browser.wait_ready(d, "the library after the viewer")
        wait_tiles(d, "tiles after leaving the viewer")
        browser.wait("the thumbnails in view after leaving the viewer", lambda: browser.images_loaded(d), 15)

    def test_a_years_album_scrolls_to_its_end_and_its_viewer_goes_back_to_it(self):
        d = self.driver
        album = libraries.cli(self.lib, "album", "show", "Years/2013")
        ids = [e["id"] for e in album["entries"] if e.get("id")]
        self.assertGreater(len(ids), 400, "the year's album is too small to tell")
        browser.requested_urls(d)
        browser.open_page(d, self.server.page_url("/albums"))
        browser.wait("the albums' covers", lambda: browser.images_loaded(d), 30)
        one_by_one = [u for u in browser.requested_urls(d) if "/api/albums/" in u]
        self.assertEqual(one_by_one, [], "the albums page asked for each album to find its cover")

        browser.open_page(d, self.server.page_url("/albums/Years/2013"))
        shown = lambda: d.execute_script(
            "return [...document.querySelectorAll('main a[href^=\"/asset/\"]')].map(a => a.getAttribute('href').split('/').pop())")
        first = browser.wait("the album's first photos", shown, 30)
        self.assertEqual(first, ids[:len(first)], "the album's photos are not in its order")
        self.assertLess(len(first), len(ids), f"all {len(ids)} tiles drawn at once: an album of thousands would be too")
        browser.wait("the album's last photo, scrolling down", lambda: d.execute_script(
            "scrollTo(0, document.documentElement.scrollHeight)") or ids[-1] in shown(), 60, 0.3)
        self.assertEqual(shown(), ids, "scrolled to its end, the album does not show its photos once each, in order")
        browser.screenshot(d, "album-year-end")

        d.find_element(By.CSS_SELECTOR, f'main a[href="/asset/{ids[-1]}"]').click()
        browser.wait("the viewer of the album's last photo", lambda: asset_id_in_url(d) == ids[-1], 15)
        browser.wait("its image", lambda: viewer_shows(d, ids[-1]), 30)
        browser.press(d, Keys.ARROW_LEFT)
        browser.wait("← to the album's photo before", lambda: asset_id_in_url(d) == ids[-2], 15)
        browser.one(d, "link", "Back to album").click()
        browser.wait("the album again", lambda: d.current_url.endswith("/albums/Years/2013"), 15)


if __name__ == "__main__":
    unittest.main()
