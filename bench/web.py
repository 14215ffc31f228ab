#!/usr/bin/python3
"""The web app's speed (issue 29): `shoebox serve` on a library of small generated photos, in
headless Chromium.

    bench/web.py [--quick] [--assets N] [--rss-assets M] [--runs R] [--thumbs K] [--cache] [--json OUT] [--row]

On N assets (default 10,000; scripts/make-big-library, cached in bench/out/web/) served by the
release build (`serve --no-watch`), each the median of R page loads (default 7; --quick 3) with
the browser's cache off (a first visit; --cache: on, a repeat visit, where the built-in files and
the versioned thumbnails come from the cache), measured in the page with performance.now() from
navigation start:
  - first row: until every thumbnail of the grid's first (full) row has loaded and the next frame
    has begun (so they are painted); also the first load after `cache clear` (thumbnails made on
    demand) and First Contentful Paint;
  - viewer: /asset/ID until its full-size image has loaded and a frame has passed; and → (the
    next photo) from the key press to its image shown;
  - both again with the browser's cache on (a returning visitor; the same photo's second view);
  - thumbnails: K (default 1,000) requests `/media/thumb/ID?size=256&v=…` over different ids on one
    keep-alive connection, warm (made by a first pass, whose time is kept too): p50 / p99; beside
    `python3 -m http.server` serving the same thumbnail files from `.shoebox/thumbs/` (the same
    client, the same run: what a user would otherwise put in front of them);
  - memory: the server's peak RSS (VmHWM) after the grid's first row and a scroll to its end, at M
    assets (default 100,000; --quick: the N-asset library, said so in the row), and how long
    /api/library takes there.
Goals (issue 29): first row < 200 ms, viewer < 200 ms, thumbnail p99 < 20 ms, RSS < 300 MB.
With --row, the rows of the benchmark table on stdout.
"""
import argparse, http.client, json, os, re, shutil, signal, statistics, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
OUT = os.path.join(HERE, "out", "web")
sys.path.insert(0, os.path.join(ROOT, "Tests", "Browser"))
from support import browser  # noqa: E402  (the tests' Chromium, quiet and loopback-only)
from support.server import Server  # noqa: E402
from support.tiles import scroll_to_end  # noqa: E402

PROBE = r"""
(() => {
  // Each frame: has the grid's first full row of thumbnails loaded? has the viewer's image?
  // A time is taken at the frame after (so the pixels have been painted).
  const m = window.__bench = {firstRow: null, shown: {}, keyAt: null};
  const thumb = /\/media\/thumb\//, full = /\/media\/(preview|original)\//;
  addEventListener('keydown', () => { m.keyAt = performance.now(); }, true);
  let pendingRow = false, pendingView = null;
  function visible(re) {
    return [...document.querySelectorAll('img')].filter(i => re.test(i.getAttribute('src') || ''))
      .map(i => [i, i.getBoundingClientRect()]).filter(([, r]) => r.width > 0 && r.bottom > 0 && r.top < innerHeight);
  }
  function frame(now) {
    if (pendingRow) { m.firstRow = now; pendingRow = false; }
    if (pendingView) { m.shown[pendingView] = now; pendingView = null; }
    if (m.firstRow === null) {
      const tiles = visible(thumb);
      if (tiles.length) {
        const top = Math.min(...tiles.map(([, r]) => r.top));
        const row = tiles.filter(([, r]) => Math.abs(r.top - top) < 4);
        const right = Math.max(...row.map(([, r]) => r.right)), width = row[0][1].width;
        const fullRow = right + width > document.documentElement.clientWidth - 8 || tiles.length === row.length;
        if (fullRow && row.every(([i]) => i.complete && i.naturalWidth > 0)) pendingRow = true;
      }
    }
    const id = (/\/asset\/([0-9a-fA-F-]{36})/.exec(location.pathname) || [])[1];
    if (id && !(id in m.shown) && !pendingView) {
      if (visible(full).some(([i]) => (i.getAttribute('src') || '').includes(id) && i.complete && i.naturalWidth > 0)) pendingView = id;
    }
    requestAnimationFrame(frame);
  }
  requestAnimationFrame(frame);
})();
"""


def shoebox_bin():
    for b in (os.environ.get("SHOEBOX_BIN"), os.path.join(ROOT, ".build", "release", "shoebox"),
              os.path.join(ROOT, ".build-release", "release", "shoebox")):
        if b and os.access(b, os.X_OK):
            return b
    sys.exit("bench: no release shoebox (swift build -c release --product shoebox, or $SHOEBOX_BIN)")


def library(sb, n):
    """The cached N-asset library, made once, brought up to date by a scan, thumbnails cleared."""
    lib, done = os.path.join(OUT, f"library-{n}"), os.path.join(OUT, f"library-{n}.complete")
    if not os.path.exists(done):
        shutil.rmtree(lib, ignore_errors=True)
        os.makedirs(OUT, exist_ok=True)
        print(f"bench: making a library of {n} items (once; cached in {lib})", file=sys.stderr)
        subprocess.run([os.path.join(ROOT, "scripts", "make-big-library"), str(n), lib, "--scan", "--shoebox", sb], check=True)
        open(done, "w").write(f"{n}\n")
    env = dict(os.environ, SHOEBOX_LIBRARY="")
    subprocess.run([sb, "--library", lib, "scan"], check=True, stdout=subprocess.DEVNULL, env=env)
    subprocess.run([sb, "--library", lib, "cache", "clear"], check=True, stdout=subprocess.DEVNULL, env=env)
    return lib


def new_browser(cache=False):
    d = browser.start()
    d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": PROBE})
    d.execute_cdp_cmd("Network.enable", {})
    d.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": not cache})
    return d


def wait_mark(d, expr, what, timeout=60):
    try:
        return browser.wait(what, lambda: d.execute_script(f"return window.__bench && {expr}"), timeout, 0.02)
    except AssertionError:
        state = d.execute_script("return [location.href, JSON.stringify(window.__bench), [...document.querySelectorAll('img')]"
                                 ".slice(0, 8).map(i => [i.getAttribute('src') || i.dataset.src, i.complete, i.naturalWidth,"
                                 " Math.round(i.getBoundingClientRect().top)])]")
        sys.exit(f"bench: timed out waiting for {what}; the page: {state}")


def first_row(d, url):
    # A fresh visit: the grid puts you back at the photo last viewed when sessionStorage says so.
    if d.current_url.startswith(url):
        d.execute_script("sessionStorage.clear()")
    d.get(url)
    t = wait_mark(d, "window.__bench.firstRow", "the grid's first row")
    fcp = d.execute_script("return (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime || null")
    return t, fcp


def viewer(d, server, ids):
    """(ms to the viewer's image from navigation, ms from → to the next image) for /asset/ids[0]."""
    d.get(server.page_url(f"/asset/{ids[0]}"))
    t = wait_mark(d, f"window.__bench.shown['{ids[0]}']", "the viewer's image")
    browser.press(d, browser.Keys.ARROW_RIGHT)
    m = wait_mark(d, "Object.keys(window.__bench.shown).length > 1 && window.__bench", "the next photo after →")
    nxt = [v for k, v in m["shown"].items() if k != ids[0]][0]
    return t, nxt - m["keyAt"]


class Client:
    """GETs on one keep-alive connection (reopened when the server closes it); ms per request."""

    def __init__(self, port, host):
        self.port, self.host, self.conn = port, host, None

    def get(self, path):
        if self.conn is None:
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        t0 = time.perf_counter()
        self.conn.request("GET", path, headers={"Host": self.host})
        r = self.conn.getresponse()
        body = r.read()
        dt = (time.perf_counter() - t0) * 1000
        if r.status != 200 or body[:3] != b"\xff\xd8\xff":
            sys.exit(f"bench: GET {path}: {r.status} {body[:100]!r}")
        if r.will_close:
            self.conn.close()
            self.conn = None
        return dt


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def thumbnails(server, lib, k):
    items = server.get_json("/api/library")["items"]
    step = max(1, len(items) // k)
    chosen = [(i[0], i[5]) for i in items[::step] if i[2] != "v"][:k]
    paths = [f"/media/thumb/{i}?size=256&v={sha}" for i, sha in chosen]
    c = Client(server.port, server.host)
    cold = [c.get(p) for p in paths]
    warm = [c.get(p) for p in paths]
    # The same files through python3 -m http.server (HTTP/1.0: a connection per request).
    files = {}
    for dirpath, _, names in os.walk(os.path.join(lib, ".shoebox", "thumbs")):
        for name in names:
            if name.endswith(".256.jpg"):
                files[name.split(".")[0]] = os.path.relpath(os.path.join(dirpath, name), os.path.join(lib, ".shoebox", "thumbs"))
    missing = [i for i, _ in chosen if i not in files]
    if missing:
        sys.exit(f"bench: {len(missing)} thumbnails served but not found in .shoebox/thumbs (layout changed?)")
    other = subprocess.Popen(["/usr/bin/python3", "-m", "http.server", "--bind", "127.0.0.1", "0", "--directory",
                              os.path.join(lib, ".shoebox", "thumbs")], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        port = int(re.search(r"port (\d+)", other.stdout.readline()).group(1))
        o = Client(port, f"127.0.0.1:{port}")
        [o.get("/" + files[i]) for i, _ in chosen[:50]]
        base = [o.get("/" + files[i]) for i, _ in chosen]
    finally:
        other.send_signal(signal.SIGTERM)
        other.wait()
    return {"requests": len(paths), "cold_p50_ms": round(pct(cold, 50), 2), "cold_p99_ms": round(pct(cold, 99), 2),
            "warm_p50_ms": round(pct(warm, 50), 2), "warm_p99_ms": round(pct(warm, 99), 2),
            "http_server_p50_ms": round(pct(base, 50), 2), "http_server_p99_ms": round(pct(base, 99), 2)}


def memory(sb, n):
    lib = library(sb, n)
    with Server(lib) as s:
        t0 = time.perf_counter()
        s.get_json("/api/library")
        api_ms = (time.perf_counter() - t0) * 1000
        d = new_browser()
        try:
            first_row(d, s.url)
            scroll_to_end(d)
            time.sleep(1)
            hwm = s.rss_hwm_kib() / 1024
        finally:
            d.quit()
    return {"assets": n, "rss_hwm_mib": round(hwm, 1), "api_library_ms": round(api_ms, 1)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--assets", type=int, default=10000)
    ap.add_argument("--rss-assets", type=int)
    ap.add_argument("--runs", type=int)
    ap.add_argument("--thumbs", type=int, default=1000)
    ap.add_argument("--cache", action="store_true", help="the browser's cache on: repeat visits")
    ap.add_argument("--json")
    ap.add_argument("--row", action="store_true")
    a = ap.parse_args()
    runs = a.runs or (3 if a.quick else 7)
    rss_n = a.rss_assets or (a.assets if a.quick else 100000)
    sb = shoebox_bin()
    os.environ["SHOEBOX_BIN"] = sb
    lib = library(sb, a.assets)
    res = {"assets": a.assets, "runs": runs, "cache": a.cache}
    with Server(lib) as s:
        d = new_browser(cache=a.cache)
        try:
            res["first_row_cold_thumbs_ms"], _ = first_row(d, s.url)
            rows, fcps, views, steps = [], [], [], []
            ids = [i[0] for i in s.get_json("/api/library")["items"] if i[2] != "v"]
            for r in range(runs):
                t, fcp = first_row(d, s.url)
                rows.append(t)
                fcps.append(fcp or 0)
                k = len(ids) // 3 + r * 97
                v, step = viewer(d, s, ids[k:k + 2])
                views.append(v)
                steps.append(step)
            # A returning visitor: the browser's cache on (scripts and styles revalidated, thumbnails
            # immutable), after one load to fill it.
            d.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": False})
            first_row(d, s.url)
            cached_rows, cached_views = [], []
            for r in range(runs):
                cached_rows.append(first_row(d, s.url)[0])
                k = len(ids) // 3 + r * 97
                viewer(d, s, ids[k:k + 2])
                cached_views.append(viewer(d, s, ids[k:k + 2])[0])
        finally:
            d.quit()
        med = lambda xs: round(statistics.median(xs), 1)
        res.update(first_row_ms=med(rows), first_row_max_ms=round(max(rows), 1), fcp_ms=med(fcps),
                   viewer_ms=med(views), viewer_max_ms=round(max(views), 1), viewer_next_ms=med(steps),
                   first_row_cached_ms=med(cached_rows), viewer_cached_ms=med(cached_views))
        res["first_row_cold_thumbs_ms"] = round(res["first_row_cold_thumbs_ms"], 1)
        res["thumbnails"] = thumbnails(s, lib, a.thumbs)
    res["memory"] = memory(sb, rss_n)
    print(json.dumps(res, indent=1), file=sys.stderr)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(res, f, indent=1)
    if a.row:
        print_rows(res)


def print_rows(r):
    ok = lambda good: "met" if good else "NOT MET"
    th, mem = r["thumbnails"], r["memory"]
    n = f"{r['assets']:,}"
    cache = "on: a repeat visit" if r.get("cache") else "off"
    print(f"| web: grid's first row of thumbnails painted, {n} assets (median of {r['runs']}, browser cache {cache}) "
          f"| **{r['first_row_ms']:.0f} ms** (max {r['first_row_max_ms']:.0f}; First Contentful Paint {r['fcp_ms']:.0f} ms; "
          f"first load after `cache clear`, thumbnails made on demand: {r['first_row_cold_thumbs_ms']:.0f} ms); "
          f"browser cache on: {r['first_row_cached_ms']:.0f} ms | — "
          f"| goal < 200 ms: cache off {ok(r['first_row_ms'] < 200)}, on {ok(r['first_row_cached_ms'] < 200)} |")
    print(f"| web: viewer's full-size image shown, from navigation | **{r['viewer_ms']:.0f} ms** (max {r['viewer_max_ms']:.0f}); "
          f"browser cache on: {r['viewer_cached_ms']:.0f} ms; → to the next photo {r['viewer_next_ms']:.0f} ms | — "
          f"| goal < 200 ms: cache off {ok(r['viewer_ms'] < 200)}, on {ok(r['viewer_cached_ms'] < 200)} |")
    ratio = th["warm_p99_ms"] / th["http_server_p99_ms"] if th["http_server_p99_ms"] else float("nan")
    print(f"| web: thumbnail request, warm, {th['requests']:,} different ids on one keep-alive connection "
          f"| p50 {th['warm_p50_ms']:.2f} ms, **p99 {th['warm_p99_ms']:.2f} ms** (made on demand: p50 {th['cold_p50_ms']:.1f}, "
          f"p99 {th['cold_p99_ms']:.1f}) | `python3 -m http.server` on the same files: p50 {th['http_server_p50_ms']:.2f} ms, "
          f"p99 {th['http_server_p99_ms']:.2f} ms | {ratio:.2f}× http.server (p99); goal p99 < 20 ms: {ok(th['warm_p99_ms'] < 20)} |")
    print(f"| web: server's peak RSS after the grid (first row, then scrolled to the end), {mem['assets']:,} assets "
          f"| **{mem['rss_hwm_mib']:.0f} MiB**; GET /api/library {mem['api_library_ms']:.0f} ms | — "
          f"| goal < 300 MB{'' if mem['assets'] >= 100000 else ' (at 100,000; this is ' + format(mem['assets'], ',') + ')'}: "
          f"{ok(mem['rss_hwm_mib'] * 1.048576 < 300)} |")


if __name__ == "__main__":
    main()
