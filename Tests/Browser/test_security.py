"""The server's defences, from outside: DNS rebinding (a foreign Host), cross-site requests (a
foreign or missing Origin), path traversal in every route that takes an id, the security headers,
a page that asks nothing of anyone but the server, and `--lan` seen from another network
namespace (pairing, one-time tokens). The library's state is read back through the CLI."""
import html.parser, json, os, re, socket, subprocess, unittest, urllib.parse

from support import browser, libraries, netns
from support.server import Server

SECRETS = [b"root:x:0:0", b"SQLite format 3", b"swift-tools-version", b"# Shoebox", b"\xff\xd8\xff"]


def no_leak(test, body, what):
    for s in SECRETS:
        test.assertNotIn(s, body, f"{what}: the response holds a file's content ({s!r})")


class SecurityTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.lib = libraries.copy(libraries.small(), "security")
        cls.server = Server(cls.lib).start()
        cls.assets = libraries.cli(cls.lib, "list")
        cls.photo = libraries.first(cls.assets, kind="photo", format="jpeg")
        cls.person = libraries.cli(cls.lib, "people", "list")[0]
        _, _, page = cls.server.request("GET", "/")
        m = re.search(rb'<meta name="shoebox-token" content="([^"]+)"', page)
        cls.token = m.group(1).decode() if m else None

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def state(self):
        """What a change would show: trash, present ids, albums, people, Imports/."""
        lib = self.lib
        return ({i["id"] for i in libraries.cli(lib, "trash", "list")}, {a["id"] for a in libraries.cli(lib, "list")},
                [(a["name"], a["count"]) for a in libraries.cli(lib, "album", "list")],
                [(p["id"], p["name"], p["faces"]) for p in libraries.cli(lib, "people", "list")],
                os.path.exists(os.path.join(lib, "Imports")))

    def test_a_foreign_host_is_refused_on_pages_api_media_and_static(self):
        s, pid = self.server, self.photo["id"]
        paths = ["/", "/albums", f"/asset/{pid}", "/api/library", "/api/facets", f"/api/assets/{pid}",
                 f"/media/thumb/{pid}?size=256", f"/media/preview/{pid}", f"/media/original/{pid}",
                 "/static/css/app.css", "/static/js/app.js", "/pair?token=x"]
        hosts = ["evil.example", f"evil.example:{s.port}", f"127.0.0.1:{s.port + 1}", "127.0.0.1",
                 f"127.0.0.1.nip.io:{s.port}", f"localhost.evil.example:{s.port}"]
        wrong = []
        for path in paths:
            for host in hosts:
                status, _, body = s.request("GET", path, host=host)
                no_leak(self, body, f"GET {path} Host {host}")
                if status not in (421, 403) or b"<html" in body.lower():
                    wrong.append(f"GET {path} with Host: {host} answered {status}: {body[:60]!r}")
        self.assertEqual(wrong, [], "\n".join(wrong))
        for host in (f"localhost:{s.port}", f"127.0.0.1:{s.port}"):
            self.assertEqual(s.request("GET", "/", host=host)[0], 200, f"Host: {host} should be served")
        before = self.state()
        status, _, _ = s.request("POST", "/api/trash", {"ids": [pid]}, host=f"evil.example:{s.port}",
                                 origin=f"http://evil.example:{s.port}")
        self.assertIn(status, (421, 403))
        self.assertEqual(self.state(), before, "a request with a foreign Host changed the library")

    def test_a_cross_origin_or_originless_post_is_refused_and_changes_nothing(self):
        s, pid = self.server, self.photo["id"]
        before = self.state()
        self.assertEqual(before[0], set(), "the test library starts with an empty Recently Deleted")
        posts = [("/api/trash", {"ids": [pid]}), ("/api/albums", {"name": "Evil", "ids": [pid]}),
                 (f"/api/people/{self.person['id']}/name", {"name": "Mallory"}),
                 ("/api/people/merge", {"ids": [self.person["id"], "p2"]}),
                 ("/api/upload?name=evil.jpg", None), ("/api/curation/add", {"ids": [pid]})]
        origins = [("http://evil.example", {}), ("null", {}), (f"http://127.0.0.1:{s.port + 1}", {}),
                   (f"http://localhost.evil.example:{s.port}", {}), (f"https://127.0.0.1:{s.port}", {}),
                   (None, {}), (None, {"Referer": s.url}), (None, {"X-Shoebox-Token": "not-the-token"}),
                   ("http://evil.example", {"X-Shoebox-Token": "not-the-token"})]
        jpeg = open(os.path.join(libraries.PHOTOS, "rocket.jpg"), "rb").read()
        for path, body in posts:
            for origin, headers in origins:
                data = jpeg if body is None else body
                hdrs = dict(headers, **({"Content-Type": "image/jpeg"} if body is None else {}))
                status, _, resp = s.request("POST", path, data, headers=hdrs, origin=origin)
                self.assertEqual(status, 403, f"POST {path} with Origin {origin!r} {headers} answered {status}: {resp[:200]!r}")
        self.assertEqual(self.state(), before, "a refused POST changed the library (CLI)")
        # The same request from the page's origin, then with the page's token, does work: the
        # refusals above were for the origin, not for something else.
        status, _, resp = s.request("POST", "/api/trash", {"ids": [pid]})
        self.assertEqual(status, 200, f"a same-origin POST /api/trash: {status} {resp[:200]!r}")
        self.assertEqual({i["id"] for i in libraries.cli(self.lib, "trash", "list")}, {pid})
        self.assertIsNotNone(self.token, "the page has no <meta name=shoebox-token>")
        status, _, resp = s.request("POST", "/api/restore", {"ids": [pid]}, origin=None,
                                    headers={"X-Shoebox-Token": self.token})
        self.assertEqual(status, 200, f"POST /api/restore with the page's token: {status} {resp[:200]!r}")
        self.assertEqual(self.state(), before)

    def test_path_traversal_in_every_route_that_takes_an_id(self):
        s = self.server
        traversal = ["../../../../etc/passwd", "..%2F..%2F..%2F..%2Fetc%2Fpasswd", "%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd",
                     "%2e%2e/%2e%2e/%2e%2e/etc/passwd", "..%5C..%5C..%5Cetc%5Cpasswd", "..%252F..%252Fetc%252Fpasswd",
                     "..%2F.shoebox%2Findex.sqlite", "%2Fetc%2Fpasswd", "%00", "....%2F%2F....%2F%2Fetc%2Fpasswd",
                     self.photo["id"] + "%2F..%2F..%2F..%2Fetc%2Fpasswd"]
        # Not ids either, though no traversal: a path, a prefix (media and the API take whole ids only).
        not_ids = [urllib.parse.quote(self.photo["path"], safe=""), self.photo["id"][:8]]
        pages = ["/asset/{}", "/albums/{}", "/people/{}"]
        gets = ["/media/thumb/{}?size=256", "/media/thumb/{}", "/media/preview/{}", "/media/original/{}",
                "/media/original/{}?download=1", "/media/live/{}", "/api/assets/{}", "/api/albums/{}",
                "/api/albums/Years%2F{}", "/api/people/{}", "/static/{}", "/static/css/{}", "/static/fonts/{}"]
        wrong = []
        for route, bads in [(r, traversal) for r in pages] + [(r, traversal + not_ids) for r in gets]:
            for bad in bads:
                path = route.format(bad)
                status, _, body = s.request("GET", path)
                no_leak(self, body, f"GET {path}")
                if status not in (400, 404):
                    wrong.append(f"GET {path} answered {status}: {body[:60]!r}")
        self.assertEqual(wrong, [], f"{len(wrong)} traversal attempts not refused with 400/404:\n" + "\n".join(wrong))
        before = self.state()
        posts = ["/api/albums/{}/add", "/api/albums/{}/remove", "/api/albums/{}/order", "/api/albums/{}/delete",
                 "/api/people/{}/name"]
        for route in posts:
            for bad in traversal[:6]:
                path = route.format(bad)
                status, _, body = s.request("POST", path, {"ids": [self.photo["id"]], "name": "x"})
                self.assertIn(status, (400, 404), f"POST {path} answered {status}: {body[:120]!r}")
        for body in ({"ids": ["../../etc/passwd"]}, {"names": ["../../../etc/passwd"]}, {"names": ["../index.sqlite"]}):
            status, _, resp = s.request("POST", "/api/restore", body)
            self.assertIn(status, (400, 404), f"POST /api/restore {body}: {status} {resp[:120]!r}")
        for name in ("../../evil.jpg", "..%2F..%2Fevil.jpg", "%2Ftmp%2Fevil.jpg", ".shoebox%2Fevil.jpg"):
            jpeg = open(os.path.join(libraries.PHOTOS, "rocket.jpg"), "rb").read()
            status, _, resp = s.request("POST", f"/api/upload?name={name}", jpeg, headers={"Content-Type": "image/jpeg"})
            if status == 201:  # a cleaned name is fine, as long as it lands in Imports/
                self.assertRegex(json.loads(resp)["path"], r"^Imports/\d{4}-\d\d-\d\d/[^/]+$", f"upload name {name}")
                os.unlink(os.path.join(self.lib, json.loads(resp)["path"]))
            else:
                self.assertIn(status, (400, 415), f"upload name {name}: {status}")
        for outside in ("/tmp/evil.jpg", os.path.join(os.path.dirname(self.lib), "evil.jpg"), os.path.join(self.lib, ".shoebox", "evil.jpg")):
            self.assertFalse(os.path.exists(outside), f"an upload wrote {outside}")
        libraries.run("--library", self.lib, "scan")
        after = self.state()
        self.assertEqual(after[:4], before[:4], "a traversal attempt changed the library")

    def test_media_is_served_by_asset_id_only(self):
        s, a = self.server, self.photo
        self.assertEqual(s.request("GET", f"/media/thumb/{a['id']}?size=256")[0], 200)
        self.assertEqual(s.request("GET", f"/media/original/{a['id']}")[0], 200)
        self.assertEqual(s.request("GET", "/media/original/00000000-0000-4000-8000-000000000000")[0], 404)
        for ref in (urllib.parse.quote(a["path"]), a["sha256"], a["id"][:8], a["id"].upper() + "0", "p1"):
            status = s.request("GET", f"/media/original/{ref}")[0]
            self.assertIn(status, (400, 404), f"/media/original/{ref} answered {status}")

    def test_every_response_carries_the_security_headers(self):
        s, pid = self.server, self.photo["id"]
        requests = [("/", None), ("/albums", None), ("/api/library", None), ("/static/js/app.js", None),
                    ("/static/css/app.css", None), (f"/media/thumb/{pid}?size=256", None),
                    (f"/media/original/{pid}", None), ("/api/assets/not-an-id", None), ("/no/such/page", None),
                    ("/", "evil.example")]
        for path, host in requests:
            status, h, _ = s.request("GET", path, host=host)
            csp = h.get("content-security-policy", "")
            what = f"GET {path}{' (Host ' + host + ')' if host else ''} ({status}): CSP {csp!r}"
            directives = {d.split()[0]: d.split()[1:] for d in csp.split(";") if d.strip()}
            self.assertEqual(directives.get("default-src"), ["'self'"], what)
            for name, want in (("object-src", "'none'"), ("frame-ancestors", "'none'"), ("base-uri", "'none'")):
                self.assertEqual(directives.get(name), [want], what)
            for name in ("script-src", "style-src"):
                self.assertFalse({"'unsafe-inline'", "'unsafe-eval'"} & set(directives.get(name, [])), what)
            for name, sources in directives.items():
                self.assertFalse([x for x in sources if re.match(r"(https?:|\*|ws)", x)], f"{what}: another origin in {name}")
            self.assertEqual(h.get("x-content-type-options"), "nosniff", what)
            self.assertEqual(h.get("referrer-policy"), "same-origin", what)

    def test_the_html_has_no_inline_script_style_or_handler(self):
        class Inline(html.parser.HTMLParser):
            found, in_script = [], False

            def handle_starttag(self, tag, attrs):
                a = dict(attrs)
                if tag == "script" and not a.get("src"):
                    self.found.append("a <script> without src")
                if tag == "style":
                    self.found.append("a <style> element")
                for k, _ in attrs:
                    if k.startswith("on") or k == "style":
                        self.found.append(f"<{tag} {k}=…>")
                if tag in ("script", "link", "img") and re.match(r"(https?:)?//", a.get("src") or a.get("href") or ""):
                    self.found.append(f"<{tag}> from another origin: {a.get('src') or a.get('href')}")

        for path in ("/", "/albums", "/people", "/trash", f"/asset/{self.photo['id']}", "/tidy"):
            p = Inline()
            p.found = []
            p.feed(self.server.request("GET", path)[2].decode())
            self.assertEqual(p.found, [], path)

    def test_a_full_page_load_requests_nothing_outside_the_server(self):
        d = browser.start()
        try:
            s = self.server
            browser.requested_urls(d)
            for path in ("/", f"/asset/{self.photo['id']}", "/albums", "/people", f"/people/{self.person['id']}",
                         "/trash", "/tidy", "/memories"):
                browser.open_page(d, s.page_url(path))
                browser.wait(f"{path}'s images", lambda: browser.images_loaded(d), 30)
            urls = browser.requested_urls(d)
            # /static/js/app.js, or /static/v-VERSION/js/app.js from the built-in files.
            app_js = re.compile(re.escape(s.origin) + r"/static/(v-[0-9a-zA-Z]+/)?js/app\.js")
            self.assertTrue(any(app_js.match(u) for u in urls),
                            f"the performance log saw no request for app.js: {urls[:10]}")
            outside = [u for u in urls if not (u.startswith(s.origin + "/") or u.startswith(("data:", "blob:")))]
            self.assertEqual(outside, [], "requests to somewhere other than the server")
        finally:
            d.quit()

    def test_without_lan_nothing_listens_beyond_loopback(self):
        addrs = subprocess.run(["ip", "-4", "-o", "addr", "show"], capture_output=True, text=True).stdout
        others = [a for a in re.findall(r"inet (\d+\.\d+\.\d+\.\d+)/", addrs) if not a.startswith("127.")]
        if not others:
            self.skipTest("this machine has no address but loopback")
        for addr in others:
            with socket.socket() as c:
                c.settimeout(2)
                self.assertNotEqual(c.connect_ex((addr, self.server.port)), 0,
                                    f"serve without --lan accepts connections on {addr}:{self.server.port}")


class LanTests(unittest.TestCase):
    """`serve --lan` seen from a network namespace made by the test (root only; CI runs as root)."""

    def setUp(self):
        why = netns.unavailable()
        if why:
            print(f"\nLanTests skipped: {why}")
            self.skipTest(why)

    def test_lan_needs_the_pairing_session_and_a_token_works_once(self):
        lib = libraries.copy(libraries.small(), "lan")
        pid = libraries.first(libraries.cli(lib, "list"), kind="photo")["id"]
        with netns.Namespace() as ns, Server(lib, extra=["--lan"]) as s:
            pair = browser.wait("serve --lan to print a pairing URL", lambda: next((m for line in s.lines for m in [
                re.search(r"http://(\d+\.\d+\.\d+\.\d+):(\d+)/pair\?token=([A-Za-z0-9._~%-]+)", line)] if m), None), 15)
            ip, port, token = pair.group(1), int(pair.group(2)), pair.group(3)
            self.assertFalse(ip.startswith("127."), f"the pairing URL is on loopback: {pair.group(0)}")
            host = f"{ip}:{port}"

            def lan(method, path, **headers):
                r = ns.request(ip, port, method, path, dict({"Host": host}, **headers))
                self.assertIsNotNone(r["status"], f"{method} {path} from the LAN: {r.get('error')}")
                r["cookies"] = [v for k, v in r["headers"] if k == "set-cookie"]
                return r

            for path in ("/", "/api/library", f"/media/thumb/{pid}?size=256", "/static/js/app.js", f"/asset/{pid}"):
                r = lan("GET", path)
                self.assertEqual(r["status"], 403, f"GET {path} from the LAN without pairing: {r['status']}")
                no_leak(self, r["body"].encode("latin-1"), path)
            r = lan("GET", "/pair?token=not-the-token")
            self.assertIn(r["status"], (400, 403, 404), "a wrong pairing token")
            self.assertEqual(r["cookies"], [], "a wrong pairing token set a cookie")
            r = lan("GET", f"/pair?token={token}")
            self.assertEqual(r["status"], 303, f"pairing: {r}")
            self.assertEqual(dict(r["headers"]).get("location"), "/")
            cookie = next((c for c in r["cookies"] if c.startswith("shoebox_session=")), None)
            self.assertIsNotNone(cookie, f"pairing set no shoebox_session cookie: {r['cookies']}")
            attrs = [x.strip().lower() for x in cookie.split(";")[1:]]
            for want in ("httponly", "samesite=strict", "path=/"):
                self.assertIn(want, attrs, f"the session cookie lacks {want}: {cookie}")
            session = cookie.split(";")[0]
            for path in ("/", "/api/library", f"/media/thumb/{pid}?size=256"):
                self.assertEqual(lan("GET", path, Cookie=session)["status"], 200, f"GET {path} with the session")
            r = lan("GET", f"/pair?token={token}")
            self.assertIn(r["status"], (400, 403, 404, 410), f"the pairing token worked twice: {r['status']}")
            self.assertEqual(r["cookies"], [], "the used token set a cookie again")
            forged = "shoebox_session=" + "A" * (len(session) - len("shoebox_session="))
            self.assertEqual(lan("GET", "/", Cookie=forged)["status"], 403, "a forged session cookie")
            r = lan("POST", "/api/trash", Cookie=session, Origin="http://evil.example", **{"Content-Type": "application/json"})
            self.assertEqual(r["status"], 403, "a cross-origin POST from the paired phone")
            r = lan("GET", "/", Cookie=session, Host=f"evil.example:{port}")
            self.assertIn(r["status"], (421, 403), "a foreign Host from the paired phone")
            self.assertEqual(s.request("GET", "/")[0], 200, "loopback still served without a cookie")
            self.assertEqual(libraries.cli(lib, "trash", "list"), [])


if __name__ == "__main__":
    unittest.main()
