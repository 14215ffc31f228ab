#!/usr/bin/env python3
"""The painting tracker (issue 18) on a large store, through the built binary.

    bench/tracker.py [--quick] [--minis N] [--runs R] [--json OUT] [--row]

Makes a library whose Tracker/tracker.json holds N miniatures (default 1,000; --quick 200) in
N/10 projects, each with its progress history, a linked recipe and a photo (a real small JPEG in
Tracker/photos/), written as `tracker` writes it (schema_version 2). Then, each the median of R
runs (default 5; --quick 3):
  - load: `tracker mini list --json` (read, decode, integrity check with one lstat per photo,
    print), against `jq .miniatures` on the same file (what a user would run to read it);
  - change: `tracker mini update ID --progress primed` (writer lock, load, save whole: temporary,
    fdatasync, rename, folder fsync);
  - start-up: `shoebox --version`, the part of each figure that is loading the binary and its libraries;
  - photo: `tracker photo add MINI FILE` of a 4032×3024 JPEG (sniff, capture time, free-space
    check, copy with SHA-256, fsync, save), against `cp` + `sha256sum` + `sync` of the same file.
Release build (bench/run builds it). With --row, one row of the benchmark table on stdout.
"""
import argparse, json, os, shutil, statistics, subprocess, sys, tempfile, time, uuid

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


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


def make_store(lib, minis):
    """Tracker/tracker.json with `minis` miniatures, and their photos (one small JPEG, copied)."""
    photos_dir = os.path.join(lib, "Tracker", "photos")
    os.makedirs(photos_dir)
    small = os.path.join(lib, "small.jpg")
    subprocess.run(["convert", os.path.join(ROOT, "test-data/photos/kite.jpg"), "-resize", "320x", small], check=True)
    sha = subprocess.run(["sha256sum", small], capture_output=True, text=True, check=True).stdout[:64]
    now = "2026-11-22T10:15:03Z"
    projects = [{"id": str(uuid.uuid4()), "game_system": ["Age of Sigmar", "Warhammer 40K", "Horus Heresy"][i % 3],
                 "army": f"Army {i}", "name": None, "created_at": now} for i in range(max(1, minis // 10))]
    recipes = [{"id": str(uuid.uuid4()), "name": f"Recipe {i}", "type": "troop", "steps": ["Prime", "Base", "Wash"],
                "paints": ["Macragge Blue"], "techniques": ["layering"]} for i in range(20)]
    mini_list, photo_list = [], []
    for i in range(minis):
        mid, pid = str(uuid.uuid4()), str(uuid.uuid4())
        name = f"Tracker/photos/{pid}.jpg"
        shutil.copyfile(small, os.path.join(lib, name))
        photo_list.append({"id": pid, "mini_id": mid, "file": name, "taken_at": None, "added_at": now, "sha256": sha})
        mini_list.append({"id": mid, "project_id": projects[i % len(projects)]["id"], "name": f"Mini {i}", "type": "troop",
                          "progress": "basecoated", "history": [{"progress": p, "at": now} for p in ("unpainted", "primed", "basecoated")],
                          "recipe_ids": [recipes[i % 20]["id"]], "photo_ids": [pid]})
    with open(os.path.join(lib, "Tracker", "tracker.json"), "w") as f:
        json.dump({"schema_version": 2, "projects": projects, "miniatures": mini_list, "recipes": recipes, "photos": photo_list},
                  f, indent=2, sort_keys=True)
    os.remove(small)
    return mini_list


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--minis", type=int)
    ap.add_argument("--runs", type=int)
    ap.add_argument("--json")
    ap.add_argument("--row", action="store_true")
    a = ap.parse_args()
    minis = a.minis or (200 if a.quick else 1000)
    runs = a.runs or (3 if a.quick else 5)
    sb = shoebox()
    work = tempfile.mkdtemp(prefix="shoebox-bench-tracker-")
    lib = os.path.join(work, "library")
    env = dict(os.environ, SHOEBOX_LIBRARY=lib)
    env.pop("SHOEBOX_NOW", None)
    try:
        os.makedirs(lib)
        timed([sb, "init", lib], env)
        minis_made = make_store(lib, minis)
        store = os.path.join(lib, "Tracker", "tracker.json")
        big = os.path.join(work, "big.jpg")
        subprocess.run(["convert", os.path.join(ROOT, "test-data/photos/kite.jpg"), "-resize", "4032x3024!", "-quality", "92", big], check=True)
        load, jq, change, photo, copy, start = [], [], [], [], [], []
        for r in range(runs):
            start.append(timed([sb, "--version"], env)[0])
            load.append(timed([sb, "tracker", "mini", "list", "--json"], env)[0])
            jq.append(timed(["jq", ".miniatures", store])[0])
            change.append(timed([sb, "tracker", "mini", "update", minis_made[r]["id"], "--progress", "primed"], env)[0])
            photo.append(timed([sb, "tracker", "photo", "add", minis_made[r]["id"], big], env)[0])
            dest = os.path.join(work, f"copy-{r}.jpg")
            copy.append(timed(["sh", "-c", f"cp '{big}' '{dest}' && sha256sum '{dest}' >/dev/null && sync '{dest}'"])[0])
        med = lambda xs: statistics.median(xs) * 1000
        res = {"minis": minis, "runs": runs, "store_bytes": os.path.getsize(store), "photo_bytes": os.path.getsize(big),
               "load_ms": round(med(load), 1), "jq_ms": round(med(jq), 1), "change_ms": round(med(change), 1),
               "photo_add_ms": round(med(photo), 1), "cp_sha256sum_sync_ms": round(med(copy), 1),
               "startup_ms": round(med(start), 1)}
        res["load_vs_jq"] = round(res["load_ms"] / res["jq_ms"], 2)
        res["photo_vs_cp"] = round(res["photo_add_ms"] / res["cp_sha256sum_sync_ms"], 2)
        print(json.dumps(res, indent=1), file=sys.stderr)
        if a.json:
            with open(a.json, "w") as f:
                json.dump(res, f, indent=1)
        if a.row:
            goal = res["load_ms"] < 500 and res["change_ms"] < 500
            print(f"| tracker: {minis:,} miniatures ({res['store_bytes'] / 1e6:.1f} MB store); load, change, photo add "
                  f"({res['photo_bytes'] / 1e6:.1f} MB JPEG) | load {res['load_ms']:.0f} ms, change {res['change_ms']:.0f} ms, "
                  f"photo add {res['photo_add_ms']:.0f} ms (process start-up alone {res['startup_ms']:.0f} ms) | jq {res['jq_ms']:.0f} ms, cp + sha256sum + sync {res['cp_sha256sum_sync_ms']:.0f} ms "
                  f"| load {res['load_vs_jq']}× jq, photo add {res['photo_vs_cp']}× cp; goal load and change < 500 ms: "
                  f"{'met' if goal else 'NOT MET'} |")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
