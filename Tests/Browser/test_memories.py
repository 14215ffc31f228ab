"""Memories (issue 31, brief 003) in headless Chromium: "Create Memory", a person and a year from
the picker, Shuffle twice, Back to the first collage, Save and Share — each step checked through
`shoebox memories … --json`, `list --json` and the files (the page's collage is the command's,
byte for byte; nothing is saved before Save). Every screen in light and dark, axe-core."""
import base64, glob, os, re, shutil, subprocess, tempfile, time, unittest

from support import browser, libraries
from support.server import Server

MAKE_ROLL = os.path.join(libraries.ROOT, "scripts", "make-camera-roll")


def _portraits(path):
    """A generated roll (80 photos over ten years and many places, most of them portraits of
    Ana and Tom, named in their files), scanned and analysed; Tom renamed Tomás with `people name`
    as a user does in People."""
    subprocess.run([MAKE_ROLL, path, "--count", "80", "--seed", "31", "--portraits", "0.7", "--long-side", "1024"],
                   check=True, capture_output=True)
    libraries.run("init", path)
    libraries.run("--library", path, "scan")
    libraries.run("--library", path, "analyze")
    tom = [p for p in libraries.cli(path, "people", "list") if p["name"] == "Tom"]
    if tom:
        libraries.run("--library", path, "people", "name", tom[0]["id"], "Tomás")


def _faceless(path):
    """The photos of test-data/faces alone (no location), scanned, not analysed: nobody yet."""
    os.makedirs(path)
    for f in sorted(glob.glob(os.path.join(libraries.FACES, "*.jpg"))):
        shutil.copy2(f, path)
    libraries.run("init", path)
    libraries.run("--library", path, "scan")


def photos(n):
    return f"{n:,} photo" + ("" if n == 1 else "s")


def portraits():
    return libraries._make("memories-portraits", _portraits)


def faceless():
    return libraries._make("memories-faceless", _faceless)


class MemoriesTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.driver = browser.start()
        cls.downloads = tempfile.mkdtemp(prefix="memories-downloads-", dir=libraries.scratch())
        cls.driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": cls.downloads})

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()

    def setUp(self):
        browser.color_scheme(self.driver, "light")

    # ---- helpers

    def look(self, name):
        """axe-core (serious, critical) in light and dark, a screenshot of each, no console error."""
        d = self.driver
        for scheme in ("light", "dark"):
            browser.color_scheme(d, scheme)
            time.sleep(0.35)  # the colour transitions settle
            browser.screenshot(d, f"memories-{name}-{scheme}")
            errors = browser.console_errors(d)  # before axe, which reads the style sheets itself
            self.assertEqual(errors, [], f"console errors on {name}, {scheme}")
            violations = browser.axe_violations(d)
            self.assertEqual(violations, [], f"axe-core on {name}, {scheme}:\n{browser.describe_violations(violations)}")
            self.settle_console()
        browser.color_scheme(d, "light")

    def settle_console(self):
        """Drops what axe's own reads of the style sheets (their relative @imports, its inline
        style) log, once they have stopped arriving: they are no error of the page."""
        quiet = 0
        while quiet < 3:
            time.sleep(0.25)
            quiet = quiet + 1 if not browser.console_errors(self.driver) else 0

    def shown_seed(self, other_than=None):
        """The seed of the collage on screen once its picture has loaded (and nothing is busy)."""
        d = self.driver

        def ready():
            seed = d.execute_script(
                "const i = document.querySelector('img.mem-collage');"
                "const f = document.querySelector('.mem-figure');"
                "return i && !i.hidden && i.complete && i.naturalWidth === 1200 && f.getAttribute('aria-busy') === 'false'"
                " ? i.dataset.seed : null;")
            return seed if seed and seed != other_than else None
        return browser.wait("the collage to be shown", ready, 120, 0.1)

    def shown_bytes(self):
        """The bytes of the collage on screen, fetched again by the page from its URL."""
        data = self.driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            fetch(document.querySelector('img.mem-collage').src).then(r => r.arrayBuffer()).then(b => {
              let s = ''; const u = new Uint8Array(b);
              for (let i = 0; i < u.length; i += 0x8000) s += String.fromCharCode(...u.subarray(i, i + 0x8000));
              done(btoa(s));
            }, e => done('error:' + e));""")
        self.assertFalse(data.startswith("error:"), data)
        return base64.b64decode(data)

    def command_collage(self, lib, source, seed, range_="all"):
        """`memories collage SOURCE --seed SEED -o FILE --json`: (its JSON, the JPEG's bytes)."""
        out = os.path.join(tempfile.mkdtemp(dir=libraries.scratch()), "c.jpg")
        answer = libraries.cli(lib, "memories", "collage", *source, "--seed", str(seed), "--range", range_, "-o", out)
        with open(out, "rb") as f:
            return answer, f.read()

    def saved_collages(self, lib):
        return [a for a in libraries.cli(lib, "list") if a["path"].startswith("Collages/")]

    def names_on_page(self, section):
        """The accessible names of the buttons of a picker's section, in order."""
        d = self.driver
        heading = browser.one(d, "heading", section.capitalize())
        region = d.execute_script("return arguments[0].closest('section')", heading)
        return [e.accessible_name for e in browser.by_role(d, "button", within=region)]

    # ---- the flow of the "Done when"

    def test_a_person_and_a_year_shuffled_back_saved_and_shared(self):
        lib = libraries.copy(portraits(), "memories")
        sources = libraries.cli(lib, "memories", "sources")
        self.assertTrue(sources["people"], f"the roll has nobody with 10 photos: {sources}")
        person = next((p for p in sources["people"] if p["name"] == "Tomás"), sources["people"][0])
        year = next(y for y in sources["years"] if y["count"] >= 6)
        d = self.driver
        with Server(lib) as s:
            browser.open_page(d, s.page_url("/memories"))
            self.look("start")
            browser.one(d, "button", "Create Memory").click()
            browser.one(d, "heading", "Create Memory")
            browser.wait("the picker's counts", lambda: d.execute_script(
                "return document.querySelector('.mem-sources')?.getAttribute('aria-busy') === 'false'"), 30)
            browser.wait("the faces in the picker", lambda: browser.images_loaded(d), 30)
            # The picker lists what `memories sources --json` lists, with the same counts.
            people = self.names_on_page("people")
            self.assertEqual(people, [f"{p['name']}, {photos(p['count'])}" for p in sources["people"]])
            self.assertEqual(self.names_on_page("years"), [f"{y['year']}, {photos(y['count'])}" for y in sources["years"]])
            self.assertEqual(len(self.names_on_page("places")), len(sources["places"]))
            self.look("picker")

            # The picker follows the library: a person named meanwhile (in People, or here by the
            # CLI) is offered under the new name without a reload.
            ana = next((p for p in sources["people"] if p["name"] == "Ana"), None)
            if ana:
                libraries.run("--library", lib, "people", "name", ana["id"], "Ana Lúcia")
                browser.one(d, "button", re.compile(r"^Ana Lúcia, \d+ photos$"), timeout=20)

            # A range preset recounts as `--range last-5-years` does.
            browser.one(d, "radio", "Last 5 years").click()
            recent = libraries.cli(lib, "memories", "sources", "--range", "last-5-years")
            browser.wait("the last 5 years' years", lambda: self.names_on_page("years") == [
                f"{y['year']}, {photos(y['count'])}" for y in recent["years"]], 20)
            browser.one(d, "radio", "All time").click()
            browser.wait("every year again", lambda: len(self.names_on_page("years")) == len(sources["years"]), 20)

            # A person: the first collage is the command's with seed 1.
            browser.one(d, "button", re.compile(rf"^{re.escape(person['name'])},")).click()
            browser.one(d, "heading", person["name"])
            self.assertEqual(self.shown_seed(), "1")
            first = self.shown_bytes()
            command, command_bytes = self.command_collage(lib, ["--person", person["name"]], 1)
            self.assertEqual(first, command_bytes, "the page's first collage is `memories collage --person … --seed 1`")
            self.assertEqual(len(command["cells"]), 6)
            self.assertEqual(first[:3], b"\xff\xd8\xff")
            self.assertIn("seed=1", d.current_url)
            # "Photos in this collage": the six cells, best first, each a link to its photo.
            d.find_element(browser.By.CSS_SELECTOR, ".mem-about summary").click()
            links = browser.wait("the six cells' pictures", lambda: (lambda ls: ls if len(ls) == 6 and browser.images_loaded(d) else None)(
                browser.by_role(d, "link", re.compile(r"^Photo \d: "))), 30)
            self.assertEqual([l.get_attribute("href").split("/asset/")[1] for l in links], [c["asset_id"] for c in command["cells"]])
            self.look("collage")

            # Shuffle twice: each a new seed, each the command's collage of that seed.
            seeds = ["1"]
            for _ in range(2):
                browser.one(d, "button", "Shuffle").click()
                seeds.append(self.shown_seed(other_than=seeds[-1]))
                self.assertNotIn(seeds[-1], seeds[:-1])
                _, expected = self.command_collage(lib, ["--person", person["name"]], seeds[-1])
                self.assertEqual(self.shown_bytes(), expected, f"seed {seeds[-1]} is the command's")
                self.assertEqual(browser.one(d, "button", re.compile(rf"^Seed {seeds[-1]} \(shown\)")).get_attribute("aria-current"), "true")
            self.assertEqual(self.saved_collages(lib), [], "nothing saved by making or shuffling")
            # Back twice: the first collage again, with its seed, the same bytes.
            for want in reversed(seeds[:-1]):
                browser.one(d, "button", "Back").click()
                self.assertEqual(self.shown_seed(), want)
            self.assertEqual(self.shown_bytes(), first, "the first collage again")
            self.assertEqual(browser.one(d, "button", "Back").get_attribute("aria-disabled"), "true", "nothing before the first")

            # Save: into Collages/, once, the very bytes shown.
            browser.one(d, "button", "Save").click()
            saved = browser.wait("`list --json` to have the collage in Collages/", lambda: self.saved_collages(lib), 30, 0.3)
            self.assertEqual(len(saved), 1)
            self.assertTrue(saved[0]["path"].startswith(f"Collages/{person['name']} "), saved[0]["path"])
            browser.wait("the saved collage to be analysed", lambda: libraries.cli(lib, "show", saved[0]["id"])["analyzed"], 60, 0.5)
            with open(os.path.join(lib, saved[0]["path"]), "rb") as f:
                self.assertEqual(f.read(), first, "the saved file is the collage shown")
            browser.one(d, "link", saved[0]["path"])
            browser.one(d, "button", "Saved").click()
            time.sleep(0.5)
            self.assertEqual(len(self.saved_collages(lib)), 1, "a second tap saves no copy")
            self.look("saved")

            # Share: no share sheet in headless Chromium, so a download of the JPEG.
            browser.one(d, "button", "Share").click()
            name = f"{person['name']}, seed 1.jpg"
            path = browser.wait("the download", lambda: (lambda p: p if os.path.exists(p) else None)(
                os.path.join(self.downloads, name)), 20)
            time.sleep(0.3)
            with open(path, "rb") as f:
                self.assertEqual(f.read(), first, "the download is the collage shown")

            # A year, from the picker again.
            browser.one(d, "button", "Choose another").click()
            browser.one(d, "heading", "Create Memory")
            browser.one(d, "button", re.compile(rf"^{year['year']},")).click()
            self.assertEqual(self.shown_seed(), "1")
            _, expected = self.command_collage(lib, ["--year", str(year["year"])], 1)
            self.assertEqual(self.shown_bytes(), expected, "the year's collage is the command's")
            self.assertEqual(len(self.saved_collages(lib)), 1)

            # A reload shows the same collage (the address holds source and seed).
            browser.one(d, "button", "Shuffle").click()
            seed = self.shown_seed(other_than="1")
            browser.open_page(d, d.current_url)
            self.assertEqual(self.shown_seed(), seed)

    def test_empty_states_say_what_is_missing(self):
        lib = libraries.copy(faceless(), "memories-empty")
        sources = libraries.cli(lib, "memories", "sources")
        self.assertEqual(sources["people"], [])
        self.assertEqual(sources["places"], [])
        d = self.driver
        with Server(lib) as s:
            browser.open_page(d, s.page_url("/memories?pick"))
            browser.one(d, "heading", "Create Memory")
            section = lambda key: d.execute_script(f"return document.querySelector('.mem-{key}')?.textContent ?? ''")
            browser.wait("the people's empty state", lambda: "No people with 10 photos yet — name faces in People" in section("people"), 20)
            self.assertIn("No places: no photo has a location", section("places"))
            browser.one(d, "link", "People")
            self.look("empty")

            # A source with too few photos: the collage's place says why, in the module's words.
            browser.open_page(d, s.page_url("/memories?year=1901"))
            browser.wait("the problem", lambda: "No photos from 1901" in d.execute_script(
                "return document.querySelector('.mem-problem')?.textContent ?? ''"), 30)
            self.assertEqual(browser.one(d, "button", "Save").get_attribute("aria-disabled"), "true")
            # The browser logs the API's 404 (the module's "not found"), and nothing else.
            logged = browser.console_errors(d)
            self.assertTrue(all("/api/memories/collage" in e and "404" in e for e in logged), logged)
            self.look("no-collage")
        self.assertEqual(self.saved_collages(lib), [])


if __name__ == "__main__":
    unittest.main()
