"""The swipe screen when the server does not answer, and when swipes come faster than its answers:
nothing is decided on a card the user did not see, and the decisions keep their order — each
checked through `tidy status --json` / `tidy list --all --json`."""
import time, unittest

from support import browser, libraries
from support.browser import Keys
from support.server import Server

CARD_JS = """const card = document.querySelector('.tidy-card-front:not(.leaving)');
return card ? (card.querySelector('.tidy-photo img')?.getAttribute('src') || 'waiting') : null;"""


def first_id(item):
    if "group" not in item:
        return item["id"]
    return next(a["id"] for a in item["items"] if a["id"] in item.get("open", [a["id"]]))


class TidySwipeTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.driver = browser.start()
        cls.addClassCleanup(cls.driver.quit)

    def serve(self, name):
        lib = libraries.copy(libraries.small(), name)
        server = Server(lib).start()
        self.addCleanup(server.stop)
        d = self.driver
        d.get(server.page_url("/static/icons/shoebox.svg"))
        d.execute_script("localStorage.setItem('shoebox.tidy.onboarded', '1')")
        browser.open_page(d, server.page_url("/tidy"))
        browser.one(d, "button", "Keep")
        return lib, server

    def card(self):
        """What the card in front shows: its picture's URL, 'waiting', or None."""
        return self.driver.execute_script(CARD_JS)

    def block(self, *patterns):
        self.driver.execute_cdp_cmd("Network.enable", {})
        self.driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": list(patterns)})

    def test_a_server_that_does_not_answer_stops_the_swiping_until_it_does(self):
        d = self.driver
        lib, server = self.serve("tidy-offline")
        self.addCleanup(self.block)
        before = libraries.cli(lib, "tidy", "status")
        under_review = first_id(libraries.cli(lib, "tidy", "next")["item"])
        browser.wait("the card of the item under review", lambda: under_review in (self.card() or ""))
        self.block("*/api/tidy*")
        browser.press(d, Keys.ARROW_RIGHT)
        browser.wait("the card to wait for the server", lambda: self.card() == "waiting", 10)
        browser.press(d, Keys.ARROW_LEFT)
        browser.press(d, Keys.ARROW_UP)
        time.sleep(4)   # past one quiet retry
        toasts = d.execute_script("return [...document.querySelectorAll('#toasts .toast.error')].map(t => t.innerText)")
        self.assertEqual(len(toasts), 1, f"one error said once, not each retry: {toasts}")
        self.assertRegex(toasts[0], r"^Error: Shoebox could not be reached")
        self.assertEqual(self.card(), "waiting", "a card was offered while the server was away")
        self.block()
        browser.wait("the card of the item under review once the server answers",
                     lambda: under_review in (self.card() or ""), 15)
        after = libraries.cli(lib, "tidy", "status")
        self.assertEqual((after["position"], after["reviewed"], after["marked"], after["maybe"]),
                         (before["position"], before["reviewed"], before["marked"], before["maybe"]),
                         "a swipe made while the server was away was decided")
        bar = browser.one(d, "progressbar", None)
        self.assertEqual(bar.get_attribute("aria-valuenow"), str(after["position"] + 1))

    def test_fast_swipes_are_decided_in_the_order_made(self):
        d = self.driver
        lib, server = self.serve("tidy-fast")
        order = [item for item in libraries.cli(lib, "tidy", "list")[:6]]
        keys = [(Keys.ARROW_RIGHT, "keep"), (Keys.ARROW_LEFT, "delete"), (Keys.ARROW_UP, "maybe"),
                (Keys.ARROW_RIGHT, "keep"), (Keys.ARROW_LEFT, "delete"), (Keys.ARROW_RIGHT, "keep")]
        shown = []
        for key, _ in keys:
            browser.wait("a card to decide", lambda: self.card() not in (None, "waiting"), 15)
            shown.append(self.card())
            browser.press(d, key)
            time.sleep(0.05)
        for item, src in zip(order, shown):
            self.assertIn(first_id(item), src, "the cards did not come in the session's order")
        browser.wait("the six decisions to reach the library",
                     lambda: libraries.cli(lib, "tidy", "status")["reviewed"] >= sum(
                         len(i["items"]) if "group" in i else 1 for i in order), 30, 0.3)
        decided = {a["id"]: a["decision"] for a in libraries.cli(lib, "tidy", "list", "--all")
                   for a in (a["items"] if "group" in a else [a])}
        for item, (_, decision) in zip(order, keys):
            for asset in (item["items"] if "group" in item else [item]):
                self.assertEqual(decided.get(asset["id"]), decision, f"{asset['path']}: not the decision its card was given")


if __name__ == "__main__":
    unittest.main()
