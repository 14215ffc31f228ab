#!/usr/bin/env python3
"""A library of N small photos (100,000 by default): scan, watch start-up, listings, index size.

    bench/scale.py [--assets N] [--quick] [--runs R] [--json OUT] [--keep] [--warm-only] [--no-baseline]
    bench/scale.py --project A.json B.json C.json [--to 1000000]

Makes (once, cached in bench/out/scale/) a library of N distinct small JPEGs, ~100 per folder in
YYYY/YYYY-MM-DD Trip K/ folders over 2010–2025: nine real photos of sample-library/ (8–26 KB; with
GPS in five cities, one without, people in XMP and face regions) are the bases; each copy gets
its own EXIF capture time (so years spread over Albums/Years/), one of 16 person names in its XMP
(Albums/People/), its file mtime set to that time, and distinct bytes after the JPEG end marker
(which JPEG allows), so no two files have the same SHA-256. Then, in the same run:

  - cold `shoebox scan` on a fresh index (every file hashed and read, one sidecar each), beside a
    bare `sha256sum` of every file (2 processes; reads and hashes, writes nothing);
  - warm `shoebox scan`, nothing changed (median of R), beside `find -printf` that lstat()s every
    file (the walk a rescan cannot avoid); the issue quotes Immich at ~3.7 s per 100k for its scan;
  - `shoebox watch` start-up until its log says "reconciled by a scan (start-up)";
  - `shoebox list --sort score --limit 50` (median of 5), beside the same query in `sqlite3`;
  - `shoebox list --json > /dev/null` (median of 3), beside `sqlite3 -json` printing the rows;
  - the index on disk: `.shoebox/index.sqlite*` and `.shoebox/sidecars/` (du -sb);
  - peak RSS of every command (GNU time; watch: VmHWM from /proc).

`--warm-only` measures the scans, watch start-up and listings again on the index a previous run
left (its cold-scan figures are kept from that run's `--json OUT`): at 1,000,000 the cold scan
alone takes many minutes.

`--project` fits a line (least squares) through the figures of two or more earlier `--json`
outputs and prints them at `--to` assets (1,000,000 by default).
"""
import argparse, json, os, re, shutil, signal, statistics, subprocess, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scan as scanbench  # set_aside

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
OUT = os.path.join(HERE, "out")
SAMPLE = os.path.join(ROOT, "sample-library")

# Small sample photos: (path, person in its XMP or None). Five cities, one without GPS.
BASES = [
    ("2025/2025-05 Reykjavik/IMG_0464.JPG", "Ana"),
    ("2021/2021-11 Sydney/IMG_0456.JPG", "Tom"),
    ("2019/2019-08 Reykjavik/IMG_0439.JPG", "Tom"),
    ("2026/2026-10 Honolulu/IMG_0482.JPG", "Ana"),
    ("2023/2023-07 Paris/IMG_0463.JPG", "Tom"),
    ("2025/2025-05 Reykjavik/IMG_0470.JPG", "Ana"),
    ("2026/2026-08 Queenstown/IMG_0478.JPG", "Tom"),
    ("2025/2025-05 Reykjavik/IMG_0473.JPG", None),
    ("2026/2026-08 Queenstown/IMG_0475.JPG", None),
]
# Same length as the bases' names, so that the XMP segment keeps its length.
PEOPLE = ["Ana", "Tom", "Bea", "Cid", "Dan", "Eva", "Ivo", "Joe", "Kim", "Lea", "Max", "Noa", "Oli", "Pia", "Raj", "Zoe"]
PER_FOLDER = 100
FIRST_YEAR, LAST_YEAR = 2010, 2025


def shoebox_bin():
    b = os.environ.get("SHOEBOX_BIN") or os.path.join(ROOT, ".build", "release", "shoebox")
    if not os.path.exists(b):
        sys.exit(f"bench: {b} is missing; run `swift build -c release` first")
    return b


def timed(cmd, env=None, stdout=None):
    """(seconds, peak RSS in MiB, stdout) of one run, via GNU time (wall clock from here: %e is 10 ms)."""
    t0 = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-f", "%e %M", *cmd], stdout=stdout or subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, env=env)
    dt = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit(f"bench: {' '.join(cmd)} failed: {p.stderr[-2000:]}")
    rss_kib = int(p.stderr.strip().splitlines()[-1].split()[1])
    return dt, rss_kib / 1024, p.stdout


def segments(data):
    """(marker, start, end) of each JPEG segment before the scan; start/end bound the payload."""
    out, i = [], 2
    while i + 4 <= len(data) and data[i] == 0xFF:
        marker = data[i + 1]
        if marker == 0xDA:
            break
        length = int.from_bytes(data[i + 2:i + 4], "big")
        out.append((marker, i + 4, i + 2 + length))
        i += 2 + length
    return out


def base_photos():
    out = []
    for rel, person in BASES:
        data = open(os.path.join(SAMPLE, rel), "rb").read()
        assert data[:2] == b"\xff\xd8" and data[-2:] == b"\xff\xd9", rel
        exif = next((s, e) for m, s, e in segments(data) if m == 0xE1 and data[s:s + 4] == b"Exif")
        date = re.search(rb"\d{4}:\d\d:\d\d \d\d:\d\d:\d\d", data[exif[0]:exif[1]]).group()
        xmp = next(((s, e) for m, s, e in segments(data) if m == 0xE1 and data[s:s + 4] == b"http"), None)
        out.append({"data": data, "exif": exif, "date": date, "xmp": xmp, "person": person})
    return out


def make_photo(base, when, person, serial):
    d = bytearray(base["data"])
    s, e = base["exif"]
    d[s:e] = bytes(d[s:e]).replace(base["date"], time.strftime("%Y:%m:%d %H:%M:%S", time.gmtime(when)).encode())
    if base["person"] and base["xmp"]:
        s, e = base["xmp"]
        old, new = base["person"].encode(), person.encode()
        d[s:e] = bytes(d[s:e]).replace(b">" + old + b"<", b">" + new + b"<")
    return bytes(d) + b"shoebox-scale-%d" % serial  # after the end marker: distinct content


def make_library(n):
    """The cached photo tree for n assets (made once); returns its path."""
    tree = os.path.join(OUT, "scale", f"photos-{n}")
    done = os.path.join(OUT, "scale", f"photos-{n}.complete")
    if os.path.exists(done):
        return tree
    shutil.rmtree(tree, ignore_errors=True)
    os.makedirs(tree)
    print(f"bench: making a library of {n} photos (once; cached in {tree})", file=sys.stderr)
    bases = base_photos()
    folders = max(1, (n + PER_FOLDER - 1) // PER_FOLDER)
    start = time.mktime((FIRST_YEAR, 1, 1, 9, 0, 0, 0, 0, 0)) - time.timezone
    span = time.mktime((LAST_YEAR, 12, 1, 9, 0, 0, 0, 0, 0)) - time.timezone - start
    serial = 0
    for k in range(folders):
        day = start + span * k / folders
        folder = time.strftime(f"%Y/%Y-%m-%d Trip {k + 1}", time.gmtime(day))
        os.makedirs(os.path.join(tree, folder), exist_ok=True)
        for i in range(min(PER_FOLDER, n - serial)):
            base = bases[(i * 7 + k) % len(bases)]
            when = int(day) + i * 97
            person = PEOPLE[(k + i // 25) % len(PEOPLE)]
            path = os.path.join(tree, folder, f"IMG_{serial + 1:06d}.JPG")
            with open(path, "wb") as f:
                f.write(make_photo(base, when, person, serial))
            os.utime(path, (when, when))
            serial += 1
    open(done, "w").write(f"{n}\n")
    return tree


def du(paths):
    paths = [p for p in paths if os.path.exists(p)]
    if not paths:
        return 0
    out = subprocess.run(["du", "-sbc", *paths], capture_output=True, text=True, check=True).stdout
    return int(out.strip().splitlines()[-1].split()[0])


ASIDE = os.path.join(OUT, "scale", "aside")


def fresh_index(sb, lib):
    """Moves what an earlier run made (index, sidecars, albums) aside and initialises the library.
    What is moved aside is deleted at the end of the run, not now: ext4 is slow to allocate inodes
    next to ones deleted seconds ago, which no first scan of a real library meets."""
    os.makedirs(ASIDE, exist_ok=True)
    for name in (".shoebox", "Albums", "Recently Deleted"):
        if os.path.exists(os.path.join(lib, name)):
            os.rename(os.path.join(lib, name), os.path.join(ASIDE, f"{name}-{time.time_ns()}"))
    subprocess.run([sb, "init", lib], check=True, capture_output=True)


def watch_startup(sb, lib, env):
    """Seconds from start until the start-up reconcile is logged, and the peak RSS (MiB) by then."""
    log_path = os.path.join(OUT, "scale", "watch.log")
    with open(log_path, "w") as log:
        t0 = time.perf_counter()
        p = subprocess.Popen([sb, "watch", "--library", lib], stdout=subprocess.DEVNULL, stderr=log, env=env)
        try:
            while "reconciled by a scan (start-up)" not in open(log_path, errors="replace").read():
                if p.poll() is not None or time.perf_counter() - t0 > 600:
                    sys.exit(f"bench: watch did not start: {open(log_path).read()[-2000:]}")
                time.sleep(0.005)
            dt = time.perf_counter() - t0
            hwm = next(int(l.split()[1]) for l in open(f"/proc/{p.pid}/status") if l.startswith("VmHWM:"))
        finally:
            p.send_signal(signal.SIGTERM)
            p.wait(timeout=120)
    return dt, hwm / 1024


def median_run(cmd, runs, env=None, stdout=None):
    rs = [timed(cmd, env, stdout)[:2] for _ in range(runs)]
    return statistics.median(t for t, _ in rs), max(r for _, r in rs)


def measure(a):
    sb = shoebox_bin()
    n = a.assets
    lib = make_library(n)
    env = dict(os.environ, SHOEBOX_LIBRARY="")
    photos_bytes = du([lib]) - du([os.path.join(lib, x) for x in (".shoebox", "Albums")])
    sha_s = None
    if not a.warm_only and not a.no_baseline:
        # The page cache is warm for every tool: one untimed read of every file first.
        subprocess.run(f"find {shq(lib)} -type f -not -path '*/.shoebox/*' -print0 | xargs -0 cat > /dev/null",
                       shell=True, check=True)
        cores = str(os.cpu_count() or 2)
        sha_s, _, _ = timed(["sh", "-c", f"find {shq(lib)} -type f -name '*.JPG' -print0 | xargs -0 -P {cores} -n 2000 sha256sum > /dev/null"])

    if a.warm_only:
        previous = json.load(open(a.json))
        cold_s, cold_rss, sha_s = previous.get("cold_s"), previous.get("cold_rss_mib"), previous.get("sha256sum_s")
    else:
        fresh_index(sb, lib)
        cold_s, cold_rss, out = timed([sb, "scan", "--library", lib, "--json"], env)
        report = json.loads(out)
        if report["added"] != n:
            print(f"bench: warning: the cold scan added {report['added']} of {n} files", file=sys.stderr)
    albums = sum(1 for top in ("Years", "Places", "People") if os.path.isdir(os.path.join(lib, "Albums", top))
                 for _ in os.scandir(os.path.join(lib, "Albums", top)))
    albums += sum(1 for top in ("Screenshots", "Videos") if os.path.isdir(os.path.join(lib, "Albums", top)))
    links = int(subprocess.run(f"find {shq(os.path.join(lib, 'Albums'))} -type l | wc -l", shell=True,
                               capture_output=True, text=True).stdout)

    walk_s, _ = median_run(["sh", "-c", f"find {shq(lib)} -path {shq(lib + '/.shoebox')} -prune -o "
                            f"-path {shq(lib + '/Albums')} -prune -o -type f -printf '%s %T@ %i %p\\n' | wc -l"], a.runs)
    # The first rescan after the cold scan verifies every album folder that scan wrote (readlink of
    # every link); later ones find them as they left them (see AlbumLinker's stamps). A folder is
    # only trusted once it has been still for 2 s before a scan verifies it, so the first rescan
    # waits that long (as any rescan by a person does), or the next ones would verify again.
    time.sleep(3)
    if a.warm_only and "first_rescan_s" in previous:
        first_s, first_rss = previous["first_rescan_s"], previous["warm_rss_mib"]
    else:
        first_s, first_rss, _ = timed([sb, "scan", "--library", lib, "--json"], env)
    warm_s, warm_rss = median_run([sb, "scan", "--library", lib, "--json"], a.runs, env)
    warm_rss = max(warm_rss, first_rss)
    watch_s, watch_rss = watch_startup(sb, lib, env)

    db = os.path.join(lib, ".shoebox", "index.sqlite")
    top_sql = ("SELECT id, path, score, taken_at FROM asset WHERE state = 'present' AND live_photo_of IS NULL "
               "ORDER BY score IS NULL, score DESC, taken_at_epoch ASC, id LIMIT 50")
    top_s, top_rss = median_run([sb, "list", "--library", lib, "--sort", "score", "--limit", "50"], 5, env)
    top_sqlite_s, _ = median_run(["sqlite3", "-readonly", db, top_sql], 5)
    json_bytes = len(subprocess.run([sb, "list", "--library", lib, "--json"], capture_output=True, env=env,
                                    check=True).stdout)
    with open(os.devnull, "w") as null:
        json_s, json_rss = median_run([sb, "list", "--library", lib, "--json"], 3, env, stdout=null)
        json_sqlite_s, _ = median_run(["sqlite3", "-readonly", "-json", db,
                                       "SELECT * FROM asset WHERE state = 'present' AND live_photo_of IS NULL "
                                       "ORDER BY taken_at_epoch IS NULL, taken_at_epoch, path, id"], 3, stdout=null)
    index_bytes = du([db, db + "-wal", db + "-shm"])
    sidecar_bytes = du([os.path.join(lib, ".shoebox", "sidecars")])

    r = {
        "assets": n, "folders": (n + PER_FOLDER - 1) // PER_FOLDER, "photos_bytes": photos_bytes,
        "album_folders": albums, "album_links": links,
        "cold_s": cold_s, "cold_rss_mib": cold_rss, "sha256sum_s": sha_s,
        "warm_s": warm_s, "warm_rss_mib": warm_rss, "walk_s": walk_s, "first_rescan_s": first_s,
        "watch_startup_s": watch_s, "watch_rss_mib": watch_rss,
        "top50_s": top_s, "top50_rss_mib": top_rss, "top50_sqlite_s": top_sqlite_s,
        "json_s": json_s, "json_bytes": json_bytes, "json_rss_mib": json_rss, "json_sqlite_s": json_sqlite_s,
        "index_bytes": index_bytes, "sidecar_bytes": sidecar_bytes,
    }
    r["peak_rss_mib"] = max(x for x in (cold_rss, warm_rss, watch_rss, top_rss, json_rss) if x is not None)
    scanbench.set_aside(ASIDE)
    return r


def shq(s):
    return "'" + s.replace("'", "'\\''") + "'"


def fmt_s(s):
    return f"{s * 1000:.0f} ms" if s < 1 else f"{s:.2f} s"


def rows(r, prefix=""):
    n = r["assets"]
    k = f"{n:,}"
    scaled = lambda s: "" if n == 100000 else f" ({fmt_s(s * n / 100000)} here)"
    mb = lambda b: b / 1e6
    if r.get("cold_s") is None:
        yield f"| {prefix}scan, cold ({k}) | not measured here (an index filled without a scan) | — | — |"
    else:
        baseline = (f"sha256sum of every file (2 processes, writes nothing): {fmt_s(r['sha256sum_s'])} "
                    f"| **{r['cold_s'] / r['sha256sum_s']:.1f}×** sha256sum" if r.get("sha256sum_s")
                    else "sha256sum: not measured (`--no-baseline`) | —")
        yield (f"| {prefix}scan, cold ({k} small JPEGs, {r['album_folders']} generated albums, {r['album_links']:,} links) "
               f"| {fmt_s(r['cold_s'])} ({n / r['cold_s']:.0f} files/s), peak RSS {r['cold_rss_mib']:.0f} MiB | {baseline} |")
    first = f" (the first after the cold scan: {fmt_s(r['first_rescan_s'])})" if "first_rescan_s" in r else ""
    yield (f"| {prefix}scan, warm ({k} unchanged, process start included) | {fmt_s(r['warm_s'])}{first}, peak RSS "
           f"{r['warm_rss_mib']:.0f} MiB | `find -printf` lstat of every file: {fmt_s(r['walk_s'])}; Immich (issue): "
           f"~{fmt_s(3.7 * n / 100000)} (**{3.7 * n / 100000 / r['warm_s']:.1f}×** faster) | goal < 2 s per 100,000{scaled(2)} |")
    yield (f"| {prefix}watch start-up ({k}, until \"reconciled by a scan (start-up)\") | {fmt_s(r['watch_startup_s'])}, "
           f"peak RSS {r['watch_rss_mib']:.0f} MiB | warm `scan`: {fmt_s(r['warm_s'])} | "
           f"**{r['watch_startup_s'] / r['warm_s']:.2f}×** scan |")
    yield (f"| {prefix}`list --sort score --limit 50` ({k}) | {fmt_s(r['top50_s'])}, peak RSS {r['top50_rss_mib']:.0f} MiB "
           f"| the same query in `sqlite3`: {fmt_s(r['top50_sqlite_s'])} | goal < 50 ms |")
    yield (f"| {prefix}`list --json` ({k} assets, {mb(r['json_bytes']):.0f} MB of JSON) | {fmt_s(r['json_s'])}, "
           f"peak RSS {r['json_rss_mib']:.0f} MiB | `sqlite3 -json` of the same rows, every column: "
           f"{fmt_s(r['json_sqlite_s'])} | goal < 1 s per 100,000{scaled(1)} |")
    yield (f"| {prefix}index on disk ({k}) | index.sqlite {mb(r['index_bytes']):.0f} MB + sidecars "
           f"{mb(r['sidecar_bytes']):.0f} MB ({(r['index_bytes'] + r['sidecar_bytes']) / n / 1024:.1f} KiB per asset) "
           f"| the photos: {mb(r['photos_bytes']):.0f} MB | "
           f"{100 * (r['index_bytes'] + r['sidecar_bytes']) / r['photos_bytes']:.0f} % of the photos |")
    goal = "goal < 200 MB" if n <= 100000 else "goal (issue 12): warm rescan < 10 s and < 300 MB at 1,000,000"
    yield (f"| {prefix}peak RSS, any command ({k}) | {r['peak_rss_mib']:.0f} MiB (warm rescan {r['warm_rss_mib']:.0f} MiB) "
           f"| — | {goal} |")


# Figures that do not grow with the library (a page read from an index; a streamed listing's memory).
CONSTANT = {"top50_s", "top50_sqlite_s", "top50_rss_mib", "json_rss_mib"}


def project(paths, to):
    rs = sorted((json.load(open(p)) for p in paths), key=lambda r: r["assets"])
    xs = [r["assets"] for r in rs]
    out = {"assets": to, "from": xs}
    for key, v in rs[-1].items():
        if key in ("assets", "folders") or not isinstance(v, (int, float)):
            continue
        ys = [r[key] for r in rs]
        if key in CONSTANT:
            out[key] = statistics.fmean(ys)
            continue
        mx, my = statistics.fmean(xs), statistics.fmean(ys)
        sxx = sum((x - mx) ** 2 for x in xs)
        slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx else 0
        out[key] = max(0, my + slope * (to - mx))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--assets", type=int, default=100000)
    ap.add_argument("--quick", action="store_true", help="10,000 assets")
    ap.add_argument("--runs", type=int, default=3, help="warm scans (median)")
    ap.add_argument("--json")
    ap.add_argument("--warm-only", action="store_true", help="reuse the index and cold figures of an earlier --json run")
    ap.add_argument("--no-baseline", action="store_true",
                    help="skip the page-cache warm-up and sha256sum of every file (at 1,000,000: 15 GB read twice)")
    ap.add_argument("--prefix", default="", help="put before each row's name (\"1M: \")")
    ap.add_argument("--project", nargs="+", metavar="JSON")
    ap.add_argument("--to", type=int, default=1000000)
    ap.add_argument("--show", metavar="JSON", help="print the rows of an earlier --json output")
    a = ap.parse_args()
    if a.project:
        p = project(a.project, a.to)
        k = ", ".join(f"{x:,}" for x in p["from"])
        print(f"| projection to {a.to:,} assets (least-squares line through {k}) | cold scan {fmt_s(p['cold_s'])}; "
              f"warm scan {fmt_s(p['warm_s'])} (first after the cold scan {fmt_s(p.get('first_rescan_s', 0))}); watch start-up {fmt_s(p['watch_startup_s'])}; top 50 {fmt_s(p['top50_s'])} (constant); "
              f"`list --json` {fmt_s(p['json_s'])}; index {p['index_bytes'] / 1e6:.0f} MB + sidecars "
              f"{p['sidecar_bytes'] / 1e6:.0f} MB; peak RSS {p['peak_rss_mib']:.0f} MiB | — | — |")
        if a.json:
            json.dump(p, open(a.json, "w"), indent=1)
        return
    if a.show:
        for row in rows(json.load(open(a.show)), a.prefix):
            print(row)
        return
    if a.quick:
        a.assets = 10000
    if a.warm_only and not (a.json and os.path.exists(a.json)):
        sys.exit("bench: --warm-only needs the --json OUT of an earlier full run")
    r = measure(a)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(r, f, indent=1)
    for row in rows(r, a.prefix):
        print(row)


if __name__ == "__main__":
    main()
