"""Tidy's swipe screen as brief 004 draws it ("UI/UX Design Direction"): its computed styles in
light and dark mode against the brief's values (palette, fonts, the card, the stacked cards, the
wax seal, the progress footer, grain and vignette), the progress bar's X of Y against
`tidy status --json`, the hover and press effects, the drag's tilt (none under reduced motion),
axe-core, and screenshots of both modes."""
import math, re, time, unittest

from support import browser, libraries
from support.browser import ActionChains
from support.server import Server

ONBOARDED = "localStorage.setItem('shoebox.tidy.onboarded', '1')"

# One read of everything the brief fixes, by what each thing is on screen.
STYLES_JS = r"""
const css = (el, pseudo) => getComputedStyle(el, pseudo || null);
const front = document.querySelector('.tidy-card-front:not(.leaving)');
const photo = front.querySelector('.tidy-photo');
const named = (role, name) => [...document.querySelectorAll('button')].find(b =>
  (b.getAttribute('aria-label') || b.textContent).trim() === name);
const undo = named('button', 'Undo');
const title = document.querySelector('h1');
const progress = document.querySelector('[role=progressbar]');
const text = progress.querySelector('p');
const track = progress.querySelector('.tidy-bar');
const fill = track.firstElementChild;
const side = (which) => document.querySelector(`.tidy-side-${which}`);
const pick = (s, keys) => Object.fromEntries(keys.map(k => [k, s[k]]));
const root = css(document.documentElement);
return {
  innerHeight,
  tokens: Object.fromEntries(['--cream', '--charcoal', '--gold', '--gold-dark', '--wax', '--wax-border']
    .map(k => [k, root.getPropertyValue(k).trim().toLowerCase()])),
  body: pick(css(document.body), ['backgroundColor', 'color']),
  grain: css(document.body, '::before').opacity,
  vignette: css(document.body, '::after').backgroundImage,
  title: {text: title.textContent, ...pick(css(title), ['fontFamily', 'fontStyle', 'fontWeight', 'fontSize', 'color'])},
  card: {width: front.offsetWidth, height: front.offsetHeight,
         ...pick(css(front), ['paddingTop', 'paddingRight', 'paddingBottom', 'paddingLeft', 'borderTopLeftRadius',
           'borderBottomRightRadius', 'boxShadow', 'borderTopWidth', 'borderTopColor', 'borderLeftColor',
           'backgroundColor', 'transition', 'touchAction', 'willChange'])},
  matte: css(photo, '::after').boxShadow,
  backs: [...document.querySelectorAll('.tidy-card-back')].map(b => ({
    depth: b.className, transform: css(b).transform, opacity: css(b).opacity,
    src: b.querySelector('img')?.getAttribute('src') || ''})),
  frontSrc: front.querySelector('img').getAttribute('src'),
  undo: {width: undo.offsetWidth, height: undo.offsetHeight,
         ...pick(css(undo), ['backgroundColor', 'borderTopWidth', 'borderTopStyle', 'borderTopColor', 'borderTopLeftRadius',
           'boxShadow', 'transition']),
         icon: pick(css(undo.querySelector('svg')), ['transform', 'transition']),
         rect: undo.getBoundingClientRect().toJSON(), card: front.getBoundingClientRect().toJSON()},
  sides: ['delete', 'keep'].map(w => ({
    mark: pick(css(side(w).querySelector('.tidy-side-mark')), ['width', 'height', 'borderTopWidth', 'borderTopColor',
      'borderTopLeftRadius', 'opacity', 'backdropFilter', 'backgroundColor']),
    label: {text: side(w).querySelector('.tidy-side-label').textContent,
            ...pick(css(side(w).querySelector('.tidy-side-label')), ['transform', 'fontStyle', 'color'])}})),
  maybe: {mark: css(named('button', 'Maybe').firstElementChild).opacity,
          label: pick(css(named('button', 'Maybe').lastElementChild), ['textTransform', 'color'])},
  actions: ['Delete', 'Keep'].map(n => pick(css(named('button', n)), ['fontStyle', 'fontFamily', 'fontSize', 'color'])),
  progress: {shown: text.innerText, ...pick(css(text), ['fontFamily', 'fontWeight', 'fontSize', 'letterSpacing',
               'textTransform', 'color']),
             track: {width: track.offsetWidth, height: track.offsetHeight, ...pick(css(track), ['borderTopLeftRadius', 'backgroundColor'])},
             fill: {width: fill.getBoundingClientRect().width, ...pick(css(fill), ['backgroundColor', 'transition'])}},
};
"""

LIGHT = {"bg": "rgb(245, 240, 230)", "text": "rgb(54, 50, 43)", "card": "rgb(251, 248, 241)",
         # charcoal at 60 % darkened to pass AA (css/screens/tidy.css): the app's --text-muted
         "muted": "rgb(102, 98, 90)", "track": "rgba(54, 50, 43, 0.1)", "keep_label": "rgb(138, 104, 9)",
         "maybe_label": "rgb(138, 104, 9)", "side_line": "rgba(54, 50, 43, 0.2)",
         "glass": "rgba(245, 240, 230, 0.8)", "grain": "0.4", "vignette": "rgba(54, 50, 43, 0.08)",
         "delete_hover": "rgb(139, 0, 0)", "keep_hover": "rgb(138, 104, 9)"}
DARK = {"bg": "rgb(34, 29, 16)", "text": "rgb(232, 225, 207)", "card": "rgb(42, 36, 21)",
        "muted": "rgba(232, 225, 207, 0.6)", "track": "rgba(232, 225, 207, 0.1)", "keep_label": "rgb(182, 137, 12)",
        "maybe_label": "rgba(182, 137, 12, 0.92)", "side_line": "rgba(232, 225, 207, 0.2)",
        "glass": "rgba(34, 29, 16, 0.8)", "grain": None, "vignette": None,
        "delete_hover": "rgb(190, 112, 112)", "keep_hover": "rgb(182, 137, 12)"}

CARD_SHADOW = "rgba(0, 0, 0, 0.1) 0px 10px 15px 0px, rgba(0, 0, 0, 0.05) 0px 4px 6px 0px"
SEAL_SHADOW = ("rgba(0, 0, 0, 0.2) 0px 4px 6px 0px, rgba(255, 255, 255, 0.3) 0px 2px 4px 0px inset, "
               "rgba(0, 0, 0, 0.2) 0px -2px 4px 0px inset")


def matrix(transform):
    """The six numbers of a computed `matrix(a, b, c, d, e, f)` ("none" is the identity)."""
    if transform == "none":
        return [1, 0, 0, 1, 0, 0]
    m = re.fullmatch(r"matrix\(([^)]*)\)", transform)
    if not m:
        raise AssertionError(f"not a 2D matrix: {transform}")
    return [float(v) for v in m.group(1).split(",")]


def close(a, b, tolerance=1e-3):
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


def rotation(degrees):
    r = math.radians(degrees)
    return [math.cos(r), math.sin(r), -math.sin(r), math.cos(r), 0, 0]


class TidyStyleTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.lib = libraries.copy(libraries.small(), "tidy-style")
        cls.server = Server(cls.lib).start()
        cls.driver = browser.start()
        # Onboarding done before the page loads: the swipe screen comes first.
        cls.driver.get(cls.server.page_url("/static/icons/shoebox.svg"))
        cls.driver.execute_script(ONBOARDED)

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()
        cls.server.stop()

    def setUp(self):
        browser.color_scheme(self.driver, "light")
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "", "features": [
            {"name": "prefers-color-scheme", "value": "light"}, {"name": "prefers-reduced-motion", "value": "no-preference"}]})

    def open_swipe(self, scheme="light"):
        d = self.driver
        browser.color_scheme(d, scheme)
        browser.open_page(d, self.server.page_url("/tidy"))
        browser.one(d, "button", "Keep")
        browser.wait("the card's picture to load", lambda: browser.images_loaded(d), 30)
        # Off the card, so that nothing is hovered.
        ActionChains(d).move_to_element_with_offset(d.find_element("tag name", "h1"), 0, 0).perform()
        time.sleep(0.7)   # transitions (the bar's is 500 ms) come to rest
        return d.execute_script(STYLES_JS)

    @staticmethod
    def first_member(item):
        """What a card shows of ITEM: the asset, or a group's best open member."""
        if "group" not in item:
            return item
        return next(a for a in item["items"] if a["id"] in item.get("open", [a["id"]]))

    def check_scheme(self, scheme, want):
        s = self.open_swipe(scheme)
        browser.screenshot(self.driver, f"tidy-swipe-{scheme}")
        problems = []

        def expect(what, got, wanted):
            if got != wanted:
                problems.append(f"{what}: {got!r}, the brief's is {wanted!r}")

        def expect_true(what, ok, got):
            if not ok:
                problems.append(f"{what}: {got!r}")

        expect("palette tokens", s["tokens"], {"--cream": "#f5f0e6", "--charcoal": "#36322b", "--gold": "#b6890c",
                                               "--gold-dark": "#8a6605", "--wax": "#8b0000", "--wax-border": "#6d0000"})
        expect("page background", s["body"]["backgroundColor"], want["bg"])
        expect("text colour", s["body"]["color"], want["text"])
        if want["grain"]:
            expect("paper grain opacity", s["grain"], want["grain"])
        if want["vignette"]:
            expect_true("vignette (transparent centre to charcoal 8 % at the edges)",
                        "transparent 50%" in s["vignette"].replace("rgba(0, 0, 0, 0)", "transparent")
                        and want["vignette"] in s["vignette"], s["vignette"])
        t = s["title"]
        expect("title", t["text"], "Tidy")
        expect_true("title font (Newsreader, or its stand-in EB Garamond)",
                    re.match(r'^"?(EB Garamond|Newsreader)', t["fontFamily"]), t["fontFamily"])
        expect("title style/weight/size", (t["fontStyle"], t["fontWeight"], t["fontSize"]), ("italic", "500", "30px"))
        expect("title colour", t["color"], want["text"])

        c = s["card"]
        expect_true("card 3:4 (±1 px)", abs(c["width"] * 4 / 3 - c["height"]) <= 1, (c["width"], c["height"]))
        expect_true("card at most 65 % of the viewport's height", c["height"] <= 0.65 * s["innerHeight"] + 0.5,
                    (c["height"], s["innerHeight"]))
        expect("card padding", [c[k] for k in ("paddingTop", "paddingRight", "paddingBottom", "paddingLeft")], ["12px"] * 4)
        expect("card radius", (c["borderTopLeftRadius"], c["borderBottomRightRadius"]), ("8px", "8px"))
        expect("card shadows", c["boxShadow"], CARD_SHADOW)
        expect("card border", (c["borderTopWidth"], c["borderTopColor"], c["borderLeftColor"]),
               ("1px", "rgba(182, 137, 12, 0.2)", "rgba(182, 137, 12, 0.2)"))
        expect("card surface", c["backgroundColor"], want["card"])
        expect("card hover transition", c["transition"], "transform 0.3s ease-out")
        expect("card drag hints", (c["touchAction"], c["willChange"]), ("none", "transform"))
        expect("inner matte", s["matte"], "rgba(0, 0, 0, 0.1) 0px 0px 0px 0.5px inset")

        backs = {("far" if "back-2" in b["depth"] else "middle"): b for b in s["backs"]}
        expect("stacked cards", sorted(backs), ["far", "middle"])
        coming = [self.first_member(item)["id"] for item in self.server.get_json("/api/tidy")["ahead"]]
        if len(backs) == 2 and len(coming) >= 2:
            expect_true("the middle card shows the next item", coming[0] in backs["middle"]["src"], backs["middle"]["src"])
            expect_true("the far card shows the one after", coming[1] in backs["far"]["src"], backs["far"]["src"])
            expect_true("far card: scale 95 %, +3 px", close(matrix(backs["far"]["transform"]), [0.95, 0, 0, 0.95, 0, 3]),
                        backs["far"]["transform"])
            expect("far card opacity", backs["far"]["opacity"], "0.6")
            expect_true("middle card: scale 97.5 %, +1.5 px",
                        close(matrix(backs["middle"]["transform"]), [0.975, 0, 0, 0.975, 0, 1.5]), backs["middle"]["transform"])
            expect("middle card opacity", backs["middle"]["opacity"], "0.8")

        for side, label, turn, colour in ((s["sides"][0], "Delete", -90, want["muted"]),
                                          (s["sides"][1], "Keep", 90, want["keep_label"])):
            m = side["mark"]
            expect(f"{label} indicator circle", (m["width"], m["height"], m["borderTopWidth"], m["borderTopLeftRadius"]),
                   ("48px", "48px", "1px", "50%"))
            expect(f"{label} indicator opacity", m["opacity"], "0.4")
            expect(f"{label} indicator blur", m["backdropFilter"], "blur(4px)")
            expect(f"{label} indicator background", m["backgroundColor"], want["glass"])
            expect(f"{label} label", (side["label"]["text"], side["label"]["fontStyle"], side["label"]["color"]),
                   (label, "italic", colour))
            expect_true(f"{label} label rotated {turn}°", close(matrix(side["label"]["transform"]), rotation(turn)),
                        side["label"]["transform"])
        expect("Delete circle border", s["sides"][0]["mark"]["borderTopColor"], want["side_line"])
        expect("Keep circle border", s["sides"][1]["mark"]["borderTopColor"], "rgba(182, 137, 12, 0.3)")
        expect("Maybe indicator opacity", s["maybe"]["mark"], "0.6")
        expect("Maybe label", (s["maybe"]["label"]["textTransform"], s["maybe"]["label"]["color"]),
               ("uppercase", want["maybe_label"]))
        for name, a in zip(("Delete", "Keep"), s["actions"]):
            expect_true(f"{name} label: serif italic 14px", a["fontStyle"] == "italic" and a["fontSize"] == "14px"
                        and re.match(r'^"?(EB Garamond|Newsreader)', a["fontFamily"]), a)
            expect(f"{name} label colour", a["color"], want["muted"])

        u = s["undo"]
        expect("seal size", (u["width"], u["height"], u["borderTopLeftRadius"]), (56, 56, "50%"))
        expect("seal colours", (u["backgroundColor"], u["borderTopWidth"], u["borderTopStyle"], u["borderTopColor"]),
               ("rgb(139, 0, 0)", "2px", "solid", "rgb(109, 0, 0)"))
        expect("seal shadows", u["boxShadow"], SEAL_SHADOW)
        expect("seal press transition", u["transition"], "transform 0.15s ease-out")
        expect_true("seal icon rotated -12°", close(matrix(u["icon"]["transform"]), rotation(-12)), u["icon"]["transform"])
        expect("seal icon transition", u["icon"]["transition"], "transform 0.2s ease-out")
        expect_true("seal overlaps the card's lower edge", u["rect"]["top"] < u["card"]["bottom"] < u["rect"]["bottom"],
                    (u["rect"]["top"], u["card"]["bottom"], u["rect"]["bottom"]))

        p = s["progress"]
        expect_true("progress text 'X OF Y'", re.fullmatch(r"\d[\d,]* OF \d[\d,]*", p["shown"]), p["shown"])
        expect_true("progress font Inter", p["fontFamily"].startswith('"Inter"') or p["fontFamily"].startswith("Inter"),
                    p["fontFamily"])
        expect("progress weight/size/tracking/case", (p["fontWeight"], p["fontSize"], p["letterSpacing"], p["textTransform"]),
               ("600", "11px", "1.1px", "uppercase"))
        expect("progress text colour", p["color"], want["muted"])
        expect("bar size", (p["track"]["width"], p["track"]["height"]), (200, 4))
        expect("bar rounded", p["track"]["borderTopLeftRadius"], "9999px")
        expect("bar track", p["track"]["backgroundColor"], want["track"])
        expect("bar fill", p["fill"]["backgroundColor"], "rgb(182, 137, 12)")
        expect("bar transition", p["fill"]["transition"], "width 0.5s ease-out")
        x, y = (int(v.replace(",", "")) for v in p["shown"].split(" OF ")) if " OF " in p["shown"] else (0, 1)
        expect_true("bar filled X/Y", abs(p["fill"]["width"] - 200 * x / max(y, 1)) <= 1, (p["fill"]["width"], x, y))

        # Hover colours of the action labels (150 ms transitions).
        for name, key in (("Delete", "delete_hover"), ("Keep", "keep_hover")):
            button = browser.one(self.driver, "button", name)
            ActionChains(self.driver).move_to_element(button).perform()
            time.sleep(0.35)
            expect(f"{name} on hover", self.driver.execute_script("return getComputedStyle(arguments[0]).color", button),
                   want[key])
        self.assertFalse(problems, f"the swipe screen in {scheme} mode:\n  " + "\n  ".join(problems))

    def test_light_mode_matches_the_brief(self):
        self.check_scheme("light", LIGHT)

    def test_dark_mode_matches_the_brief(self):
        self.check_scheme("dark", DARK)

    def test_progressbar_says_x_of_y_as_tidy_status(self):
        self.open_swipe()
        status = libraries.cli(self.lib, "tidy", "status")
        bar = browser.one(self.driver, "progressbar", re.compile(r".*"))
        x, y = min(status["total"], status["position"] + 1), status["total"]
        self.assertEqual((bar.get_attribute("aria-valuenow"), bar.get_attribute("aria-valuemax")), (str(x), str(y)))
        self.assertEqual(bar.get_attribute("aria-valuetext"), f"{x:,} of {y:,}")

    def test_hover_lifts_the_card_and_the_seal_turns_and_presses(self):
        d = self.driver
        self.open_swipe()
        card = d.find_element("css selector", ".tidy-card-front")
        ActionChains(d).move_to_element(card).perform()
        time.sleep(0.45)
        self.assertTrue(close(matrix(card.value_of_css_property("transform")), [1.01, 0, 0, 1.01, 0, 0]),
                        f"the card on hover: {card.value_of_css_property('transform')} (the brief: scale 1.01)")
        seal = browser.one(d, "button", "Undo")
        icon = seal.find_element("css selector", "svg")
        ActionChains(d).move_to_element(seal).perform()
        time.sleep(0.35)
        self.assertTrue(close(matrix(icon.value_of_css_property("transform")), rotation(0)),
                        f"the seal's icon on hover: {icon.value_of_css_property('transform')} (the brief: 0°)")
        # Pressed (and let go elsewhere, so that nothing is undone): scale 0.95.
        ActionChains(d).click_and_hold(seal).perform()
        try:
            time.sleep(0.3)
            self.assertTrue(close(matrix(seal.value_of_css_property("transform")), [0.95, 0, 0, 0.95, 0, 0]),
                            f"the seal pressed: {seal.value_of_css_property('transform')} (the brief: scale 0.95)")
        finally:
            ActionChains(d).move_by_offset(0, -200).release().perform()

    def drag_transform(self):
        """The card's transform 80 px into a drag to the right (the drag then taken back)."""
        d = self.driver
        card = d.find_element("css selector", ".tidy-card-front")
        chain = ActionChains(d, duration=16).click_and_hold(card)
        for _ in range(8):
            chain.move_by_offset(10, 0)
        chain.perform()
        time.sleep(0.2)
        try:
            return card.value_of_css_property("transform"), d.execute_script(
                "return getComputedStyle(document.querySelector('.tidy-side-keep .tidy-side-mark')).opacity")
        finally:
            back = ActionChains(d, duration=16)
            for _ in range(8):
                back.move_by_offset(-10, 0)
            back.release().perform()
            time.sleep(0.5)

    def test_dragging_tilts_the_card_but_not_under_reduced_motion(self):
        self.open_swipe()
        transform, keep = self.drag_transform()
        m = matrix(transform)
        self.assertGreater(m[4], 40, f"the card did not follow the pointer: {transform}")
        self.assertGreater(abs(m[1]), 0.02, f"the card did not tilt: {transform}")
        self.assertGreater(float(keep), 0.6, "the Keep indicator did not come up with the drag")
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "", "features": [
            {"name": "prefers-color-scheme", "value": "light"}, {"name": "prefers-reduced-motion", "value": "reduce"}]})
        transform, _ = self.drag_transform()
        m = matrix(transform)
        self.assertGreater(m[4], 40, f"the card did not follow the pointer: {transform}")
        self.assertAlmostEqual(m[1], 0, 6, f"the card tilted under prefers-reduced-motion: {transform}")
        status = libraries.cli(self.lib, "tidy", "status")
        self.assertEqual(status["reviewed"], 0, "a drag taken back decided something")

    def test_axe_finds_nothing_serious_light_and_dark(self):
        problems = []
        for scheme in ("light", "dark"):
            browser.console_errors(self.driver)
            self.open_swipe(scheme)
            # Read before axe runs: axe re-reads the stylesheets itself, which the CSP refuses.
            errors = browser.console_errors(self.driver)
            if errors:
                problems.append(f"console errors, {scheme}:\n  " + "\n  ".join(errors))
            violations = browser.axe_violations(self.driver)
            if violations:
                problems.append(f"axe-core, {scheme}:\n{browser.describe_violations(violations)}")
        self.assertFalse(problems, "/tidy:\n" + "\n".join(problems))

if __name__ == "__main__":
    unittest.main()
