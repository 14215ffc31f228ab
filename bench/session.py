#!/usr/bin/env python3
"""The session layer's cost on every change (issue 28), through the built binary.

    bench/session.py [--quick] [--trashed N] [--runs R] [--json OUT] [--row]

Every writing command opens a `LibrarySession` and, under the writer lock, repairs what a kill
may have left before its own change: the asset journal, `Recently Deleted/` reconciled with the
disk (skipped while its folders and the index are as the last reconcile left them), each
feature's recovery. Makes a library of N+R small JPEGs (default N = 1,000; --quick 200), N of them
in Recently Deleted, then, each the median of R runs (default 9; --quick 5):
  - trash: `shoebox trash FILE` of one photo (the session's repairs, the move, the .trashinfo,
    the index, the albums) against trash-cli's `trash-put --trash-dir` of one file into a
    freedesktop trash folder of N items (what a user would otherwise run);
  - idle write: `shoebox album create` of one photo, Recently Deleted unchanged (the repairs
    cost a few lstats) and after its `info/` folder changed (a full reconcile reads every
    `.trashinfo`): the cost of the full reconcile the stamp saves;
  - start-up: `shoebox --version`.
Release build (bench/run builds it). With --row, one row of the benchmark table on stdout.
"""
import argparse, json, os, shutil, statistics, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TRASH_PUT = os.path.join(os.environ.get("SHOEBOX_TOOLS", os.path.expanduser("~/.cache/shoebox-tools")), "trash-cli", "bin", "trash-put")


def shoebox():
    b = os.environ.get("SHOEBOX_BIN") or os.path.join(ROOT, ".build", "release", "shoebox")
    if not os.access(b, os.X_OK):
        sys.exit(f"bench: {b} not built (swift build -c release --product shoebox)")
    return b


def timed(cmd, env=None):
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        sys.exit(f"bench: {' '.join(cmd[:5])}… failed: {p.stderr[-1500:]}")
    return time.perf_counter() - t0, p.stdout


def make_photos(folder, count):
    """`count` small JPEGs with distinct bytes (a comment each), so each is an asset of its own."""
    os.makedirs(folder)
    small = os.path.join(folder, ".seed.jpg")
    subprocess.run(["convert", os.path.join(ROOT, "test-data/photos/kite.jpg"), "-resize", "64x", small], check=True)
    data = open(small, "rb").read()
    os.remove(small)
    names = []
    for i in range(count):
        name = os.path.join(folder, f"IMG_{i:05d}.jpg")
        with open(name, "wb") as f:
            # A COM segment after SOI: other bytes, the same picture.
            comment = f"shoebox bench {i}".encode()
            f.write(data[:2] + b"\xff\xfe" + (len(comment) + 2).to_bytes(2, "big") + comment + data[2:])
        names.append(name)
    return names


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--trashed", type=int)
    ap.add_argument("--runs", type=int)
    ap.add_argument("--json")
    ap.add_argument("--row", action="store_true")
    a = ap.parse_args()
    trashed = a.trashed or (200 if a.quick else 1000)
    runs = a.runs or (5 if a.quick else 9)
    if not os.access(TRASH_PUT, os.X_OK):
        sys.exit(f"bench: {TRASH_PUT} missing (scripts/install-deps installs trash-cli)")
    sb = shoebox()
    work = tempfile.mkdtemp(prefix="shoebox-bench-session-")
    lib = os.path.join(work, "library")
    env = dict(os.environ, SHOEBOX_LIBRARY=lib)
    env.pop("SHOEBOX_NOW", None)
    try:
        os.makedirs(lib)
        timed([sb, "init", lib], env)
        photos = make_photos(os.path.join(lib, "photos"), trashed + 2 * runs)
        timed([sb, "scan"], env)
        timed([sb, "trash"] + photos[:trashed], env)
        # trash-cli's own trash folder, holding as many items.
        other = os.path.join(work, "other-trash")
        loose = make_photos(os.path.join(work, "loose"), trashed + runs)
        subprocess.run([TRASH_PUT, "--trash-dir", other] + loose[:trashed], check=True, capture_output=True)
        start, trash, put, idle, full = [], [], [], [], []
        info = os.path.join(lib, "Recently Deleted", "info")
        for r in range(runs):
            start.append(timed([sb, "--version"], env)[0])
            trash.append(timed([sb, "trash", photos[trashed + r]], env)[0])
            put.append(timed([TRASH_PUT, "--trash-dir", other, loose[trashed + r]])[0])
            keep = photos[trashed + runs + r]
            # The trash above changed Recently Deleted: this change reconciles and stamps it...
            timed([sb, "album", "create", f"Warm {r}", keep], env)
            # ...so this one finds it as it was left.
            idle.append(timed([sb, "album", "create", f"Idle {r}", keep], env)[0])
            # A file manager touched Recently Deleted: the next change reconciles in full.
            marker = os.path.join(info, ".bench-marker")
            open(marker, "w").close()
            os.remove(marker)
            full.append(timed([sb, "album", "create", f"Full {r}", keep], env)[0])
        med = lambda xs: statistics.median(xs) * 1000
        res = {"trashed": trashed, "runs": runs, "startup_ms": round(med(start), 1),
               "trash_ms": round(med(trash), 1), "trash_put_ms": round(med(put), 1),
               "write_unchanged_trash_ms": round(med(idle), 1), "write_after_trash_changed_ms": round(med(full), 1)}
        res["trash_vs_trash_put"] = round(res["trash_ms"] / res["trash_put_ms"], 2)
        res["full_reconcile_ms"] = round(res["write_after_trash_changed_ms"] - res["write_unchanged_trash_ms"], 1)
        print(json.dumps(res, indent=1), file=sys.stderr)
        if a.json:
            with open(a.json, "w") as f:
                json.dump(res, f, indent=1)
        if a.row:
            goal = res["trash_ms"] < 300
            print(f"| session layer: a change in a library with {trashed:,} items in Recently Deleted | "
                  f"`trash` of one photo {res['trash_ms']:.0f} ms; a change with Recently Deleted as last seen "
                  f"{res['write_unchanged_trash_ms']:.0f} ms, after it changed {res['write_after_trash_changed_ms']:.0f} ms "
                  f"(start-up alone {res['startup_ms']:.0f} ms) | trash-cli `trash-put` {res['trash_put_ms']:.0f} ms "
                  f"| trash {res['trash_vs_trash_put']}× trash-put; goal trash < 300 ms: {'met' if goal else 'NOT MET'} |")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
