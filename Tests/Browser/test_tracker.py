"""The painting tracker in the browser (issue 31, brief 002): a project, two miniatures, a recipe
written and linked, progress changed twice (the timeline shows both), a photo added and removed,
the export downloaded and parsed (JSON and CSV), the project deleted with its photos — each step
checked through `shoebox tracker … --json` and the files. Also: validation in place, the error of
a photo that is not an image and of a full disk in words, swipe-to-delete and its keyboard
Delete. Screenshots of every screen light and dark; axe-core on each."""
import csv, glob, io, json, os, re, tempfile, time, unittest, zipfile

from support import browser, libraries
from support.browser import ActionChains, By, Keys
from selenium.webdriver.support.select import Select
from support.server import Server

KITE = os.path.join(libraries.PHOTOS, "kite.jpg")


def tracker(lib, *args):
    return libraries.cli(lib, "tracker", *args)


class TrackerTests(unittest.TestCase):
    maxDiff = None

    @classmethod
    def setUpClass(cls):
        cls.driver = browser.start()
        cls.addClassCleanup(cls.driver.quit)

    def setUp(self):
        self.lib = libraries.copy(libraries.small(), "tracker")
        self.downloads = tempfile.mkdtemp(prefix="downloads-", dir=libraries.scratch())
        self.driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": self.downloads})
        browser.color_scheme(self.driver, "light")

    def serve(self, env=None):
        server = Server(self.lib, env=env).start()
        self.addCleanup(server.stop)
        return server

    # ---- helpers

    def go(self, server, path):
        browser.open_page(self.driver, server.page_url(path))
        browser.console_errors(self.driver)

    def look(self, name):
        """A screenshot light and dark, axe-core (serious, critical) on each, no console error."""
        d = self.driver
        d.execute_script("if (!document.querySelector('[role=dialog]')) window.scrollTo(0, 0)")
        for scheme in ("light", "dark"):
            browser.color_scheme(d, scheme)
            time.sleep(0.3)
            browser.screenshot(d, f"tracker-{name}-{scheme}")
            self.assertEqual(browser.console_errors(d), [], f"{name}: console errors")
            violations = browser.axe_violations(d)
            self.assertEqual(violations, [], f"axe-core on {name}, {scheme}:\n{browser.describe_violations(violations)}")
            browser.console_errors(d)
        browser.color_scheme(d, "light")

    def field(self, role, name):
        return browser.one(self.driver, role, name)

    def type_into(self, role, name, text):
        el = self.field(role, name)
        el.clear()
        el.send_keys(text)
        return el

    def click(self, role, name, within=None):
        el = browser.one(self.driver, role, name, within=within)
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", el)
        el.click()
        return el

    def saved(self):
        return browser.wait("the change to be saved", lambda: self.driver.execute_script(
            "const s = document.querySelector('.tracker-saved'); return s && s.dataset.state === 'saved' && s.innerText;"))

    def not_saved(self):
        return browser.wait("a failure said in the saved state", lambda: self.driver.execute_script(
            "const e = document.querySelector('.tracker-saved-error[role=alert]'); return e && e.textContent;"))

    def confirm(self, title_pattern, answer="Delete"):
        dialog = browser.one(self.driver, "dialog", re.compile(title_pattern))
        self.click("button", answer, within=dialog)

    def invalid_message(self, control):
        """The message a control names through aria-describedby, when it is marked invalid."""
        d = self.driver
        browser.wait("the field to be marked invalid", lambda: control.get_attribute("aria-invalid") == "true")
        ids = control.get_attribute("aria-describedby").split()
        return " ".join(d.find_element(By.ID, i).text for i in ids if d.find_element(By.ID, i).is_displayed())

    def refused_requests(self, *statuses):
        """Drains the console: only the failed requests expected (a refusal the page shows) may be there."""
        for line in browser.console_errors(self.driver):
            self.assertRegex(line, r"/api/tracker/\S* - Failed to load resource: the server responded with a status of (%s)" % "|".join(map(str, statuses)))

    def stage_button(self, stage):
        return self.driver.find_element(By.CSS_SELECTOR, f".tracker-stage-button[data-stage={stage.lower()}]")

    def timeline(self):
        return self.driver.execute_script(
            "return [...document.querySelectorAll('.tracker-timeline li .tracker-timeline-stage')].map(e => e.textContent)")

    def downloaded(self, suffix, before):
        def find():
            done = [p for p in glob.glob(os.path.join(self.downloads, f"*{suffix}")) if p not in before]
            return done[0] if done and not glob.glob(os.path.join(self.downloads, "*.crdownload")) else None
        return browser.wait(f"a {suffix} download", find, 30)

    # ---- the flow

    def test_a_project_from_start_to_export_and_deletion(self):
        d, lib = self.driver, self.lib
        server = self.serve()
        self.go(server, "/tracker")
        browser.one(d, "heading", "No projects yet")
        self.look("projects-empty")

        # Validation in place: an empty army, then a game system the tracker does not know.
        self.type_into("combobox", "Game system", "Warhammer 40K")
        self.click("button", "Create project")
        army = self.field("textbox", "Army")
        self.assertIn("a project needs a non-empty army", self.invalid_message(army))
        self.assertEqual(d.switch_to.active_element, army, "focus goes to the field to fix")
        self.type_into("textbox", "Army", "Ultramarines")
        system = self.type_into("combobox", "Game system", "Kill Team")
        self.click("button", "Create project")
        self.assertIn("is not a game system Shoebox knows", self.invalid_message(system))
        self.refused_requests(400)
        self.look("projects-invalid")
        self.assertEqual(tracker(lib, "project", "list"), [], "nothing made by a refusal")
        self.type_into("combobox", "Game system", "40k")
        self.type_into("textbox", "Project name (optional)", "Strike Force")
        self.click("button", "Create project")
        browser.wait("the project's page", lambda: "/tracker/projects/" in d.current_url)
        browser.wait_ready(d)
        [project] = tracker(lib, "project", "list")
        self.assertEqual((project["game_system"], project["army"], project["name"]), ("Warhammer 40K", "Ultramarines", "Strike Force"))

        # Two miniatures.
        for name, kind in (("Captain Titus", "Character"), ("Intercessor", "Troop")):
            self.type_into("textbox", "Name", name)
            Select(self.field("combobox", "Type")).select_by_visible_text(kind)
            self.click("button", "Add miniature")
            browser.one(d, "link", re.compile(re.escape(name)))
        minis = tracker(lib, "mini", "list", "--project", project["id"])
        self.assertEqual([(m["name"], m["type"]) for m in minis], [("Captain Titus", "character"), ("Intercessor", "troop")])
        self.look("project")

        # A recipe: name, type, ordered steps (one moved up), a paint.
        self.go(server, "/tracker/recipes/new")
        self.type_into("textbox", "Name", "Ultramarine armour")
        Select(self.field("combobox", "For miniatures of type")).select_by_visible_text("Character")
        for step in ("Basecoat Macragge Blue", "Prime grey"):
            self.click("button", "Add step")
            d.switch_to.active_element.send_keys(step)
        self.click("button", "Add paint")
        d.switch_to.active_element.send_keys("Macragge Blue")
        self.click("button", "Create recipe")
        browser.wait("the recipe's editor", lambda: re.search(r"/tracker/recipes/[0-9a-f-]{36}$", d.current_url))
        browser.wait_ready(d)
        [recipe] = tracker(lib, "recipe", "list")
        self.assertEqual(recipe["steps"], ["Basecoat Macragge Blue", "Prime grey"])
        self.click("button", "Move step 2 up")
        self.saved()
        self.assertEqual(tracker(lib, "recipe", "show", recipe["id"])["steps"], ["Prime grey", "Basecoat Macragge Blue"])
        # A blank step is refused by the tracker, said under the steps, the blank field marked.
        self.click("button", "Add step")
        blank = d.switch_to.active_element
        blank.send_keys(" ", Keys.TAB)
        self.assertIn("a recipe's step entry needs a non-empty step", self.invalid_message(blank))
        self.assertRegex(self.not_saved(), "^Not saved: a value was refused")
        self.refused_requests(400)
        self.click("button", "Remove step 3")
        self.saved()
        self.assertEqual(tracker(lib, "recipe", "show", recipe["id"])["steps"], ["Prime grey", "Basecoat Macragge Blue"])
        self.look("recipe-editor")

        # The captain: the recipe linked, progress changed twice, the timeline showing both.
        captain = minis[0]
        self.go(server, f"/tracker/minis/{captain['id']}")
        Select(self.field("combobox", "Link a recipe")).select_by_visible_text("Ultramarine armour (character)")
        self.click("button", "Link recipe")
        self.saved()
        self.assertEqual(tracker(lib, "mini", "show", captain["id"])["recipe_ids"], [recipe["id"]])
        for stage in ("Primed", "Basecoated"):
            button = self.stage_button(stage)
            self.assertEqual(button.accessible_name, stage)
            button.click()
            browser.wait(f"the timeline to show {stage}", lambda: self.timeline()[-1:] == [stage])
        self.assertEqual(self.timeline(), ["Unpainted", "Primed", "Basecoated"])
        history = tracker(lib, "mini", "show", captain["id"])["history"]
        self.assertEqual([s["progress"] for s in history], ["unpainted", "primed", "basecoated"])
        self.assertEqual(self.stage_button("Basecoated").get_attribute("aria-pressed"), "true")
        self.assertEqual(self.stage_button("Primed").get_attribute("aria-pressed"), "false")

        # A photo from a file; one that is not an image, refused in words; one from the library.
        d.find_element(By.CSS_SELECTOR, "input[type=file]:not([data-camera])").send_keys(KITE)
        browser.wait("the photo to be shown", lambda: d.find_elements(By.CSS_SELECTOR, ".tracker-photo img"))
        [photo] = tracker(lib, "photo", "list", captain["id"])
        copy = os.path.join(lib, photo["file"])
        with open(copy, "rb") as a, open(KITE, "rb") as b:
            self.assertEqual(a.read(), b.read(), "the copy is the file byte for byte")
        browser.wait("the photo's picture", lambda: browser.images_loaded(d))
        text = os.path.join(tempfile.mkdtemp(dir=libraries.scratch()), "notes.jpg")
        with open(text, "w") as f:
            f.write("not a photo\n")
        d.find_element(By.CSS_SELECTOR, "input[type=file]:not([data-camera])").send_keys(text)
        self.assertRegex(self.not_saved(), r"^Not saved: notes\.jpg is not an image Shoebox recognises")
        self.assertEqual(len(tracker(lib, "photo", "list", captain["id"])), 1)
        self.refused_requests(400)
        camera = d.find_element(By.CSS_SELECTOR, "input[data-camera]")
        self.assertEqual((camera.get_attribute("accept"), camera.get_attribute("capture")), ("image/*", "environment"))
        self.click("button", "Add from the library")
        picker = browser.one(d, "dialog", "Add a photo from the library")
        browser.wait("the library's photos", lambda: browser.by_role(d, "button", re.compile(r"^Photo 1,"), within=picker))
        self.look("library-picker")
        browser.by_role(d, "button", re.compile(r"^Photo 1,"), within=picker)[0].click()
        browser.wait("two photos", lambda: len(d.find_elements(By.CSS_SELECTOR, ".tracker-photo")) == 2)
        self.saved()
        photos = tracker(lib, "photo", "list", captain["id"])
        self.assertEqual(len(photos), 2)
        self.look("mini")
        # Removed: the first shown (the oldest), after a confirmation; its file goes.
        shown_first = d.find_element(By.CSS_SELECTOR, ".tracker-photo").get_attribute("data-id")
        self.assertEqual(shown_first, photos[0]["id"], "photos in the tracker's chronological order")
        self.click("button", "Delete photo 1")
        self.confirm("Delete this photo")
        browser.wait("one photo", lambda: len(d.find_elements(By.CSS_SELECTOR, ".tracker-photo")) == 1)
        self.assertEqual([p["id"] for p in tracker(lib, "photo", "list", captain["id"])], [photos[1]["id"]])
        self.assertFalse(os.path.exists(os.path.join(lib, photos[0]["file"])))
        kept = os.path.join(lib, photos[1]["file"])
        self.assertTrue(os.path.exists(kept))

        # Export this project: JSON, then CSV (a zip), downloaded and parsed.
        self.go(server, f"/tracker/projects/{project['id']}")
        before = glob.glob(os.path.join(self.downloads, "*"))
        self.click("button", "Export…")
        dialog = browser.one(d, "dialog", "Export")
        self.look("export")
        self.click("button", "Download", within=dialog)
        doc = json.load(open(self.downloaded(".json", before)))
        self.assertEqual([p["id"] for p in doc["projects"]], [project["id"]])
        self.assertEqual(sorted(m["name"] for m in doc["miniatures"]), ["Captain Titus", "Intercessor"])
        self.assertEqual([r["id"] for r in doc["recipes"]], [recipe["id"]])
        self.assertEqual([p["file"] for p in doc["photos"]], [photos[1]["file"]], "photos referenced, not embedded")
        before = glob.glob(os.path.join(self.downloads, "*"))
        self.click("button", "Export…")
        dialog = browser.one(d, "dialog", "Export")
        self.click("radio", re.compile("^CSV"), within=dialog)
        self.click("button", "Download", within=dialog)
        with zipfile.ZipFile(self.downloaded(".zip", before)) as z:
            self.assertTrue(all(i.compress_type == zipfile.ZIP_STORED for i in z.infolist()), "entries stored")
            tables = {n: list(csv.DictReader(io.TextIOWrapper(z.open(n), encoding="utf-8", newline=""))) for n in z.namelist()}
        self.assertEqual([r["army"] for r in tables["projects.csv"]], ["Ultramarines"])
        self.assertEqual([r["progress"] for r in tables["progress_history.csv"]], ["unpainted", "primed", "basecoated", "unpainted"])
        self.assertEqual({r["name"] for r in tables["miniatures.csv"]}, {"Captain Titus", "Intercessor"})
        self.assertEqual([r["recipe_id"] for r in tables["recipe_links.csv"]], [recipe["id"]])

        # The project deleted, after a confirmation: its miniatures and photo files go; the recipe stays.
        self.click("button", "Delete project")
        self.confirm("Delete the project")
        browser.wait("the projects page", lambda: d.current_url.rstrip("/").endswith("/tracker"))
        browser.wait_ready(d)
        self.assertEqual(tracker(lib, "project", "list"), [])
        self.assertEqual(tracker(lib, "mini", "list"), [])
        self.assertFalse(os.path.exists(kept), "the photo's file went with its project")
        self.assertEqual([r["id"] for r in tracker(lib, "recipe", "list")], [recipe["id"]])
        self.look("projects-after")

    # ---- lists, errors

    def test_swipe_or_keyboard_deletes_a_row_after_confirmation_and_the_filter_keeps_one_type(self):
        d, lib = self.driver, self.lib
        tracker(lib, "recipe", "add", "--name", "Bone armour", "--type", "troop")
        tracker(lib, "recipe", "add", "--name", "Flesh tones", "--type", "character")
        tracker(lib, "recipe", "add", "--name", "Rust", "--step", "Stipple brown")
        server = self.serve()
        self.go(server, "/tracker/recipes")
        self.click("radio", "Character")
        browser.wait("the character recipes", lambda: [e.text for e in d.find_elements(By.CSS_SELECTOR, ".tracker-row-title")] == ["Flesh tones"])
        self.assertIn("type=character", d.current_url)
        self.look("recipes-filtered")
        self.click("radio", "All")
        browser.wait("every recipe", lambda: len(d.find_elements(By.CSS_SELECTOR, ".tracker-row")) == 3)
        self.look("recipes")

        # A swipe to the left uncovers Delete; a tap on it asks first; Cancel keeps the recipe.
        row = d.find_elements(By.CSS_SELECTOR, ".tracker-row-slab")[0]
        ActionChains(d).move_to_element(row).click_and_hold().move_by_offset(-40, 0).move_by_offset(-80, 0).release().perform()
        behind = d.find_elements(By.CSS_SELECTOR, ".tracker-row-behind")[0]
        browser.wait("Delete uncovered", lambda: d.find_elements(By.CSS_SELECTOR, ".tracker-row.revealed"))
        self.assertEqual(d.current_url.split("?")[0].rstrip("/")[-len("/tracker/recipes"):], "/tracker/recipes", "the swipe did not open the row's link")
        behind.click()
        self.confirm("Delete the recipe “Bone armour”", answer="Cancel")
        self.assertEqual(len(tracker(lib, "recipe", "list")), 3)
        row = d.find_elements(By.CSS_SELECTOR, ".tracker-row-slab")[0]
        ActionChains(d).move_to_element(row).click_and_hold().move_by_offset(-40, 0).move_by_offset(-80, 0).release().perform()
        browser.wait("Delete uncovered", lambda: d.find_elements(By.CSS_SELECTOR, ".tracker-row.revealed"))
        d.find_elements(By.CSS_SELECTOR, ".tracker-row-behind")[0].click()
        self.confirm("Delete the recipe “Bone armour”")
        browser.wait("two recipes", lambda: len(d.find_elements(By.CSS_SELECTOR, ".tracker-row")) == 2)
        self.assertEqual([r["name"] for r in tracker(lib, "recipe", "list")], ["Flesh tones", "Rust"])

        # The keyboard's way: the row's own Delete button, then Enter on the dialog's Delete.
        button = self.field("button", "Delete the recipe Rust")
        d.execute_script("arguments[0].focus()", button)
        browser.press(d, Keys.ENTER)
        dialog = browser.one(d, "dialog", "Delete the recipe “Rust”?")
        self.look("confirm-delete")
        self.click("button", "Delete", within=dialog)
        browser.wait("one recipe", lambda: len(d.find_elements(By.CSS_SELECTOR, ".tracker-row")) == 1)
        self.assertEqual([r["name"] for r in tracker(lib, "recipe", "list")], ["Flesh tones"])

        # A finger's long swipe (touch events, past half the row) asks at once; Cancel slides it back.
        d.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 1})
        self.addCleanup(d.execute_cdp_cmd, "Emulation.setTouchEmulationEnabled", {"enabled": False})
        box = d.execute_script("const r = document.querySelector('.tracker-row-slab').getBoundingClientRect(); return [r.left + r.width * 0.75, r.top + r.height / 2, r.width];")
        x, y, width = box
        touch = lambda kind, px: d.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [] if kind == "touchEnd" else [{"x": px, "y": y}]})
        touch("touchStart", x)
        for step in range(1, 11):
            touch("touchMove", x - width * 0.7 * step / 10)
        touch("touchEnd", 0)
        dialog = browser.one(d, "dialog", "Delete the recipe “Flesh tones”?")
        self.click("button", "Cancel", within=dialog)
        browser.wait("the row back in place", lambda: not d.find_elements(By.CSS_SELECTOR, ".tracker-row.revealed"))
        self.assertEqual([r["name"] for r in tracker(lib, "recipe", "list")], ["Flesh tones"])

    def test_a_full_disk_is_said_in_words_and_nothing_is_made(self):
        d, lib = self.driver, self.lib
        server = self.serve(env={"SHOEBOX_TRACKER_TEST_FAIL": "store:ENOSPC"})
        self.go(server, "/tracker")
        self.type_into("combobox", "Game system", "Age of Sigmar")
        self.type_into("textbox", "Army", "Stormcast Eternals")
        self.click("button", "Create project")
        self.assertRegex(self.not_saved(), r"^Not saved: the disk holding .* is full")
        self.refused_requests(507)
        self.assertEqual(d.current_url.rstrip("/")[-8:], "/tracker", "still on the form, the text kept")
        self.assertEqual(self.field("textbox", "Army").get_attribute("value"), "Stormcast Eternals")
        self.look("disk-full")
        self.assertEqual(tracker(lib, "project", "list"), [])


if __name__ == "__main__":
    unittest.main()
