"""Every page of the web app loads in Chromium, says what it is, runs without a console error,
has no serious or critical axe-core violation, and is photographed in light and dark."""
import os, re, unittest, urllib.parse

from support import browser, libraries
from support.server import Server
from support.tiles import wait_tiles

NAV = ["Library", "Albums", "People", "Recently Deleted", "Tidy", "Curate", "Compose", "Memories", "Tracker"]


def page_list(server, lib):
    """(name, path, meta shoebox-page) of every page, on real ids of the library."""
    assets = libraries.cli(lib, "list")
    photo = libraries.first(assets, kind="photo", format="jpeg")
    heic = libraries.first(assets, format="heic")
    video = next((a for a in assets if a["kind"] == "video"), None)
    albums = server.get_json("/api/albums")
    user = libraries.first(albums, kind="user")
    year = libraries.first(albums, kind="year")
    person = libraries.cli(lib, "people", "list")[0]
    pages = [("library", "/", "library"), ("asset-jpeg", f"/asset/{photo['id']}", "asset"),
             ("asset-heic", f"/asset/{heic['id']}", "asset"),
             ("albums", "/albums", "albums"),
             ("album-user", f"/albums/{urllib.parse.quote(user['key'], safe='')}", "album"),
             ("album-year", f"/albums/{urllib.parse.quote(year['key'], safe='')}", "album"),
             ("people", "/people", "people"), ("person", f"/people/{person['id']}", "person"),
             ("trash", "/trash", "trash")]
    if video:
        pages.append(("asset-video", f"/asset/{video['id']}", "asset"))
    pages += [(p, f"/{p}", p) for p in ("tidy", "curate", "compose", "memories", "tracker")]
    return pages


class PagesTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.lib = libraries.copy(libraries.small(), "pages")
        # Something in Recently Deleted, so that its page has a tile to show.
        trashed = libraries.first(libraries.cli(cls.lib, "list"), kind="photo", format="jpeg")
        libraries.run("--library", cls.lib, "trash", trashed["id"])
        cls.server = Server(cls.lib).start()
        cls.driver = browser.start()
        cls.pages = page_list(cls.server, cls.lib)

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()
        cls.server.stop()

    def check_page(self, name, path, meta):
        d, url = self.driver, self.server.page_url(path)
        status, headers, body = self.server.request("GET", path)
        self.assertEqual(status, 200, f"GET {path}: {status} {body[:200]!r}")
        self.assertIn("text/html", headers.get("content-type", ""), path)
        browser.console_errors(d)
        browser.color_scheme(d, "light")
        browser.open_page(d, url)
        self.assertEqual(d.execute_script("return document.documentElement.lang"), "en", path)
        self.assertEqual(d.execute_script(
            "return document.querySelector('meta[name=shoebox-page]')?.content"), meta, path)
        self.assertRegex(d.title, r"\S.*Shoebox", f"{path}: the title names the page and Shoebox")
        nav = browser.by_role(d, "navigation")
        self.assertTrue(nav, f"{path}: no navigation landmark")
        names = [l.accessible_name.strip() for l in browser.by_role(d, "link", within=nav[0])]
        for link in NAV:
            self.assertIn(link, names, f"{path}: the navigation has no link named {link!r} ({names})")
        # Everything else a user or a screen reader would meet is gathered, then reported at once.
        problems = []
        try:
            browser.wait(f"{path}'s images in view to load", lambda: browser.images_loaded(d), 30)
        except AssertionError as e:
            problems.append(str(e))
        shown_failure = browser.by_role(d, "alert")
        if shown_failure:
            problems.append(f"the page shows an alert: {shown_failure[0].text[:300]!r}")
        errors = browser.console_errors(d)
        if errors:
            problems.append("console errors (JS exceptions, CSP violations, failed loads):\n  " + "\n  ".join(errors))
        browser.screenshot(d, f"{name}-light")
        violations = browser.axe_violations(d)
        if violations:
            problems.append(f"axe-core, light:\n{browser.describe_violations(violations)}")
        browser.color_scheme(d, "dark")
        self.assertTrue(d.execute_script("return matchMedia('(prefers-color-scheme: dark)').matches"),
                        "Chromium did not emulate prefers-color-scheme: dark")
        try:
            browser.wait(f"{path}'s images in view to load (dark)", lambda: browser.images_loaded(d), 30)
        except AssertionError as e:
            problems.append(str(e))
        browser.screenshot(d, f"{name}-dark")
        violations = browser.axe_violations(d)
        if violations:
            problems.append(f"axe-core, dark:\n{browser.describe_violations(violations)}")
        browser.color_scheme(d, "light")
        self.assertFalse(problems, f"{path}:\n" + "\n".join(problems))

    def test_every_page_is_listed_once(self):
        paths = [p for _, p, _ in self.pages]
        self.assertEqual(len(paths), len(set(paths)))

    def test_library_shows_thumbnails(self):
        browser.open_page(self.driver, self.server.url)
        shown = wait_tiles(self.driver, "the library's tiles")
        ids = {a["id"] for a in libraries.cli(self.lib, "list")}
        self.assertTrue({t.id for t in shown} <= ids, "a tile shows an asset that `list` does not")

    def test_the_tab_has_an_icon(self):
        # Without <link rel=icon>, Chromium asks for /favicon.ico: a 404 in the console and a blank tab.
        _, _, page = self.server.request("GET", "/")
        m = re.search(rb'<link[^>]+rel="(?:shortcut )?icon"[^>]*href="([^"]+)"', page) or \
            re.search(rb'<link[^>]+href="([^"]+)"[^>]*rel="(?:shortcut )?icon"', page)
        href = m.group(1).decode() if m else "/favicon.ico"
        status, headers, _ = self.server.request("GET", href)
        self.assertEqual(status, 200, f"the tab's icon {href} ({'named' if m else 'no <link rel=icon>'}): {status}")
        self.assertRegex(headers.get("content-type", ""), r"^image/")

    def test_no_stylesheet_locks_the_orientation(self):
        # axe runs without its CSSOM preload (support/browser.py), so its css-orientation-lock
        # rule sees nothing: this holds what it would check, on the sheets the app serves.
        css_dir = os.path.join(os.path.dirname(__file__), "..", "..", "Sources", "WebServer", "Web", "css")
        sheets = [os.path.join(d, f) for d, _, fs in os.walk(css_dir) for f in fs if f.endswith(".css")]
        self.assertGreater(len(sheets), 3)
        for sheet in sheets:
            with open(sheet, encoding="utf-8") as f:
                self.assertNotRegex(f.read(), r"@media[^{]*orientation", f"{sheet} locks the orientation")

    def test_serve_stops_cleanly_on_sigterm(self):
        lib = libraries.copy(libraries.small(), "sigterm")
        s = Server(lib).start()
        self.assertEqual(s.request("GET", "/")[0], 200)
        self.assertEqual(s.stop(timeout=10), 0, f"serve did not exit 0 within 10 s of SIGTERM: {s.stderr()[-500:]}")


def _add_page_tests():
    # One test per page, so that each page's result is reported on its own. The page list needs
    # the library's ids, so each test looks its page up by name.
    names = ["library", "asset-jpeg", "asset-heic", "asset-video", "albums", "album-user", "album-year",
             "people", "person", "trash", "tidy", "curate", "compose", "memories", "tracker"]
    for name in names:
        def test(self, name=name):
            page = next((p for p in self.pages if p[0] == name), None)
            if page is None:
                self.skipTest(f"the library has nothing for {name}")
            self.check_page(*page)
        test.__name__ = f"test_page_{name.replace('-', '_')}"
        test.__doc__ = f"the {name} page loads, has no console error nor serious axe violation, light and dark"
        setattr(PagesTests, test.__name__, test)


_add_page_tests()

if __name__ == "__main__":
    unittest.main()
