"""People found by `shoebox analyze` on real photos: two named on their pages, then merged from
/people by selecting both — checked through `people list --json`."""
import re, unittest

from support import browser, libraries
from support.browser import Keys
from support.server import Server

TILE_ROLES = ("option", "gridcell", "checkbox", "link", "button")


def person_tile(driver, name):
    """The visible element standing for the person named NAME on /people (its accessible name
    starts with the name: "Ada Lovelace, 4 photos" will do)."""
    pattern = re.compile(rf"^\s*{re.escape(name)}\b")

    def find():
        for role in TILE_ROLES:
            shown = [e for e in browser.by_role(driver, role, pattern) if e.is_displayed()]
            if shown:
                return shown[0]
        return None
    return browser.wait(f"the tile of the person {name!r}", find, 20)


def select_person(driver, name):
    """Selects the person named NAME on /people as a user would: their checkbox ("Select NAME"),
    or, where people are options of a list, a ctrl-click on theirs. Returns the element."""
    boxes = [e for e in browser.by_role(driver, "checkbox", re.compile(rf"^\s*(Select\s+)?{re.escape(name)}\b"))
             if e.is_displayed()]
    if boxes:
        boxes[0].click()
        return boxes[0]
    for role in ("option", "gridcell"):
        shown = [e for e in browser.by_role(driver, role, re.compile(rf"^\s*{re.escape(name)}\b")) if e.is_displayed()]
        if shown:
            browser.modified_click(driver, shown[0], Keys.CONTROL)
            return shown[0]
    raise AssertionError(f"nothing on /people selects {name!r} (a checkbox named 'Select {name}' or an option)")


def is_selected(driver, element):
    return driver.execute_script(
        "const e = arguments[0].closest('[aria-selected],[aria-checked]') || arguments[0];"
        "return e.getAttribute('aria-selected') === 'true' || e.getAttribute('aria-checked') === 'true'"
        " || e.checked === true", element)


def name_field(driver):
    """The text field that names the person on /people/ID (opened by its button when hidden)."""
    label = re.compile(r"^Name\b", re.I)
    try:
        return browser.one(driver, "textbox", label, timeout=3)
    except AssertionError:
        browser.one(driver, "button", re.compile(r"^(Add a name|Name|Rename)\b", re.I), timeout=5).click()
        return browser.one(driver, "textbox", label, timeout=5)


class PeopleTests(unittest.TestCase):
    def test_name_two_people_then_merge_them(self):
        lib = libraries.copy(libraries.small(), "people")
        people = libraries.cli(lib, "people", "list")
        unnamed = [p for p in people if p["name"] is None]
        self.assertGreaterEqual(len(unnamed), 2, f"analyze found fewer than two unnamed people: {people}")
        a, b = unnamed[0], unnamed[1]
        d = browser.start()
        try:
            with Server(lib) as s:
                for person, name in ((a, "Ada Lovelace"), (b, "Grace Hopper")):
                    browser.open_page(d, s.page_url(f"/people/{person['id']}"))
                    field = name_field(d)
                    field.clear()
                    field.send_keys(name, Keys.ENTER)
                    browser.wait(f"people list --json to name {person['id']} {name!r}", lambda: libraries.first(
                        libraries.cli(lib, "people", "list"), id=person["id"]).get("name") == name, 15, 0.3)
                    browser.one(d, "heading", re.compile(re.escape(name)))
                browser.screenshot(d, "person-named")

                browser.open_page(d, s.page_url("/people"))
                person_tile(d, "Ada Lovelace")
                for name in ("Ada Lovelace", "Grace Hopper"):
                    el = select_person(d, name)
                    browser.wait(f"{name} to be selected", lambda: is_selected(d, el), 5)
                browser.one(d, "button", re.compile(r"^Merge\b")).click()
                try:
                    dialog = browser.wait("a confirmation", lambda: [e for role in ("dialog", "alertdialog")
                                                                       for e in browser.by_role(d, role) if e.is_displayed()], 2)
                    browser.one(d, "button", re.compile(r"^Merge\b"), within=dialog[0]).click()
                except AssertionError:
                    pass
                after = browser.wait("people list --json to show the merge", lambda: (
                    lambda ps: ps if len(ps) == len(people) - 1 else None)(libraries.cli(lib, "people", "list")), 15, 0.3)
                kept = [p for p in after if p["id"] in (a["id"], b["id"])]
                self.assertEqual(len(kept), 1, f"both or neither of {a['id']}, {b['id']} after the merge: {after}")
                self.assertIn(kept[0]["name"], ("Ada Lovelace", "Grace Hopper"))
                self.assertEqual(kept[0]["faces"], a["faces"] + b["faces"], "faces lost or gained in the merge")
                gone = "Grace Hopper" if kept[0]["name"] == "Ada Lovelace" else "Ada Lovelace"
                browser.wait(f"{gone}'s tile to leave /people", lambda: not [
                    e for role in TILE_ROLES for e in browser.by_role(d, role, re.compile(rf"^\s*{gone}\b"))
                    if e.is_displayed()], 10)
                person_tile(d, kept[0]["name"])
                browser.screenshot(d, "people-merged")
        finally:
            d.quit()


if __name__ == "__main__":
    unittest.main()
