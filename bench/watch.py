#!/usr/bin/env python3
"""`shoebox watch`: latency from a file's close to its asset in the index, and bulk throughput.

    bench/watch.py [--drops N] [--bulk N] [--runs R] [--roll-files N] [--long-side PX] [--json OUT]

Uses the camera-size roll of bench/scan.py (made once, cached in bench/out/rolls/). Starts the
release `shoebox watch` on a fresh library, then:
  - single drops: N photos written one at a time (write + close); the time from close until the
    asset's row is in the index (SQLite, polled read-only every 0.5 ms); p50 and p99;
  - bulk drop: N photos copied in as fast as Python can; files/s until every one is indexed,
    beside a cold `shoebox scan` of the same files in another fresh library (the goal: equal).
With --runs R the whole measurement is repeated R times (the goal: bulk ≥ 1× scan in every run).

Nothing is deleted (libraries are set aside into bench/out/leftovers/, which bench/run deletes
at its end): on ext4 without a journal (this machine's), the
kernel will not reuse an inode deleted in the last minutes and looks at every such inode before
it allocates a new one, so files created just after thousands were deleted cost several times
as much (a third of the watcher's CPU in a profile, run after run). A first drop into a library
never follows the deletion of the previous benchmark's 8,000 files; the runs here don't either.
"""
import argparse, json, os, resource, shutil, sqlite3, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scan as scanbench  # the roll and the binary, exactly as the scan benchmark finds them


def start_watch(sb, lib, log_path, analyze=True):
    log = open(log_path, "w")
    p = subprocess.Popen([sb, "watch", "--library", lib] + ([] if analyze else ["--no-analyze"]), stdout=subprocess.DEVNULL, stderr=log,
                         env=dict(os.environ, SHOEBOX_LIBRARY=""))
    deadline = time.time() + 60
    while "reconciled by a scan (start-up)" not in open(log_path).read():
        if time.time() > deadline or p.poll() is not None:
            sys.exit(f"bench: watch did not start: {open(log_path).read()[-2000:]}")
        time.sleep(0.01)
    return p


def index_db(lib):
    db = sqlite3.connect(f"file:{os.path.join(lib, '.shoebox', 'index.sqlite')}?mode=ro", uri=True, timeout=30)
    return db


def present(db, path):
    return db.execute("SELECT 1 FROM asset WHERE path = ? AND state = 'present'", (path,)).fetchone() is not None


def all_present(db, names):
    """Whether every one of `names` is indexed. The last name first, by the index on path: the
    watcher applies arrivals in order, so until the last is in, one cheap look-up answers. A
    COUNT over the table every 10 ms (0.4 ms each for 2,200 rows held in memory; more read from
    the file) took CPU from the watcher it was timing, which the cold scan it is compared with
    never had to share."""
    if not present(db, names[-1]):
        return False
    chunks = [names[i:i + 900] for i in range(0, len(names), 900)]
    return all(db.execute(f"SELECT COUNT(*) FROM asset WHERE state = 'present' AND path IN ({','.join('?' * len(c))})",
                          c).fetchone()[0] == len(c) for c in chunks)


def cpu_seconds():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def percentile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def one_run(a, sb, photos, contents, work):
    """One measurement in the folder `work` (left in place: see the module's comment)."""
    watch = None
    try:
        lib = os.path.join(work, "library")
        os.makedirs(os.path.join(lib, "drops"))
        subprocess.run([sb, "init", lib], check=True, capture_output=True)
        watch = start_watch(sb, lib, os.path.join(work, "watch.log"), analyze=not a.no_analyze)
        db = index_db(lib)
        latencies = []
        for i in range(a.drops):
            rel = f"drops/d-{i}.jpg"
            data = contents[i % len(contents)] + f"drop-{i}".encode()  # distinct content, bytes after the end marker
            with open(os.path.join(lib, rel), "wb") as f:
                f.write(data)
            closed = time.perf_counter()
            while not present(db, rel):
                time.sleep(0.0005)
                if time.perf_counter() - closed > 30:
                    sys.exit(f"bench: {rel} not indexed after 30 s")
            latencies.append(time.perf_counter() - closed)

        # Bulk: copy N files in; time until all are indexed.
        sources = [photos[i % len(photos)] for i in range(a.bulk)]
        names = [f"bulk/{i // 200}/b-{i}{os.path.splitext(s)[1]}" for i, s in enumerate(sources)]
        total_bytes = sum(os.path.getsize(s) for s in sources)
        # The files are written beside the library first (untimed: that is the disk's speed, not
        # Shoebox's), then moved in one by one, as a file manager drops a selection.
        staging = os.path.join(work, "staging")
        for s, n in zip(sources, names):
            dst = os.path.join(staging, n)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            with open(s, "rb") as fi, open(dst, "wb") as fo:
                fo.write(fi.read())
                fo.write(b"bulk-" + n.encode())
        for d in sorted({os.path.dirname(n) for n in names}):
            os.makedirs(os.path.join(lib, d), exist_ok=True)
        time.sleep(1)  # let the watcher take the new folders
        t0 = time.perf_counter()
        for n in names:
            os.rename(os.path.join(staging, n), os.path.join(lib, n))
        copied = time.perf_counter() - t0
        observer_cpu = cpu_seconds()
        while not all_present(db, names):
            time.sleep(0.01)
            if time.perf_counter() - t0 > 1800:
                sys.exit("bench: bulk drop not indexed after 30 min")
        bulk_s = time.perf_counter() - t0
        observer_cpu = cpu_seconds() - observer_cpu
        watch.terminate()
        watch.wait(timeout=60)

        # The same files, scanned cold in a fresh library (page cache warm for both).
        lib2 = os.path.join(work, "scanned")
        shutil.copytree(os.path.join(lib, "bulk"), os.path.join(lib2, "bulk"))
        subprocess.run([sb, "init", lib2], check=True, capture_output=True)
        scan_s, _, _ = scanbench.timed([sb, "scan", "--library", lib2, "--json"], dict(os.environ, SHOEBOX_LIBRARY=""))
    finally:
        if watch is not None and watch.poll() is None:
            watch.terminate()
            watch.wait(timeout=60)

    r = {
        "drops": a.drops, "p50_ms": 1000 * statistics.median(latencies), "p99_ms": 1000 * percentile(latencies, 0.99),
        "max_ms": 1000 * max(latencies), "mb_per_file": sum(len(c) for c in contents) / len(contents) / 1e6,
        "bulk_files": a.bulk, "bulk_s": bulk_s, "bulk_copy_s": copied, "bulk_files_s": a.bulk / bulk_s,
        "bulk_mb_s": total_bytes / bulk_s / 1e6, "bulk_observer_cpu_s": observer_cpu, "scan_s": scan_s, "scan_files_s": a.bulk / scan_s,
    }
    r["bulk_vs_scan"] = r["bulk_files_s"] / r["scan_files_s"]
    return r


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--drops", type=int, default=200)
    ap.add_argument("--bulk", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--roll-files", type=int, default=1000)
    ap.add_argument("--long-side", type=int, default=4032)
    ap.add_argument("--no-analyze", action="store_true", help="watch without its background analysis (to see what it costs)")
    ap.add_argument("--json")
    a = ap.parse_args()
    sb = scanbench.shoebox_bin()
    roll = scanbench.make_roll(a.roll_files, a.long_side)
    # JPEGs only: each drop gets distinct bytes appended after the end marker, which JPEG allows
    # (after a HEIC's last box they would make a structurally incomplete file).
    photos = sorted(f for f in scanbench.media_files(roll) if f.lower().endswith((".jpg", ".jpeg")))
    contents = [open(f, "rb").read() for f in photos[:50]]
    works = []
    try:
        runs = []
        for i in range(a.runs):
            works.append(tempfile.mkdtemp(prefix="shoebox-bench-watch-"))
            runs.append(one_run(a, sb, photos, contents, works[-1]))
            if a.runs > 1:
                print(f"bench: run {i + 1}: bulk {runs[-1]['bulk_s']:.2f} s, scan {runs[-1]['scan_s']:.2f} s, "
                      f"{runs[-1]['bulk_vs_scan']:.2f}×", file=sys.stderr)
    finally:
        for w in works:
            scanbench.set_aside(w)
    ratios = [x["bulk_vs_scan"] for x in runs]
    r = min(runs, key=lambda x: abs(x["bulk_vs_scan"] - statistics.median(ratios)))
    r = dict(r, runs=len(runs), ratios=ratios, runs_at_least_1x=sum(x >= 1 for x in ratios))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(r, f, indent=1)
    print(f"| watch: close → indexed, {r['drops']} single drops ({r['mb_per_file']:.1f} MB each) "
          f"| p50 {r['p50_ms']:.0f} ms, p99 {r['p99_ms']:.0f} ms (max {r['max_ms']:.0f}) | — | goal p50 < 50 ms, p99 < 200 ms |")
    print(f"| watch: bulk drop of {r['bulk_files']} files | {r['bulk_files_s']:.0f} files/s ({r['bulk_s']:.1f} s, "
          f"moving in took {r['bulk_copy_s']:.2f} s) | cold `scan` of the same files: {r['scan_files_s']:.0f} files/s "
          f"({r['scan_s']:.1f} s) | **{r['bulk_vs_scan']:.2f}×** scan (goal 1×)"
          + (f"; {r['runs_at_least_1x']} of {r['runs']} runs ≥ 1× (" + ", ".join(f"{x:.2f}" for x in ratios) + ")"
             if r["runs"] > 1 else "") + " |")


if __name__ == "__main__":
    main()
