#!/usr/bin/env python3
"""`shoebox memories collage` on six camera-size photos (4032 px JPEG, then HEIC), beside
ImageMagick making the same montage in the same run.

    bench/memories.py [--runs R] [--quick] [--row] [--json OUT]

Makes (once, cached in bench/out/rolls/) a roll of 4032-px photos taken in 2024 with
scripts/make-camera-roll --upscale (half of them portraits), hard-links six JPEG and six HEIC
photos into two libraries (one per format), indexes and analyses each (untimed: the scores,
faces and 1024-px previews a collage reads), then measures, median of R runs, release build:
  - previews cached: `shoebox memories collage --year 2024 -o OUT.jpg` (process start, index
    query, selection, six 1024-px previews decoded on both cores, crops, JPEG 90);
  - cold files: the same after `shoebox cache clear` (no previews: the six originals decoded,
    a JPEG by TurboJPEG's DCT scaling, a HEIC whole by libheif, on both cores);
  - ImageMagick, the tool a user would otherwise run: one `convert` making the same collage
    from the originals (same crops, read from Shoebox's --json; -auto-orient, -crop,
    -resize to the 582×484 cells, composited on a white 1200×1500 canvas, -quality 90);
  - the reverse-geocoding lookup cost: a collage reads the places the scan stored in the
    index and geocodes nothing; the scan pays for it, measured as the CPU time of `shoebox scan`
    of six photos minus that of copies without GPS (fresh index each run, median of ≥ 9): the
    gazetteer's load (69,000 places) and six lookups.
The page cache is warm for every tool (an untimed run first): "cold" means no cached preview,
not a cold disk. Goals (issue 20): under 1 s from cold files, under 300 ms with previews.
"""
import argparse, json, os, shutil, statistics, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import scan as scanbench  # noqa: E402  the binary and the roll maker, as the scan benchmark finds them

OUT = scanbench.OUT
LAYOUT = {"width": 1200, "height": 1500}


def make_roll():
    path = os.path.join(OUT, "rolls", "memories-4032")
    if not os.path.exists(path + ".manifest.json"):
        shutil.rmtree(path, ignore_errors=True)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        print(f"bench: making a 4032-px roll for memories (once; cached in {path})", file=sys.stderr)
        subprocess.run([scanbench.MAKE_ROLL, path, "--count", "30", "--long-side", "4032", "--upscale", "--seed", "7",
                        "--portraits", "0.5", "--start", "2024-01-10", "--end", "2024-12-15"], check=True, stdout=sys.stderr)
    return path


def run(cmd, env=None):
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        sys.exit(f"bench: {' '.join(cmd)} failed: {p.stderr[-1500:]}")
    return p.stdout


def timed(cmd, runs, before=None):
    """Median wall seconds and median CPU seconds (user + system, GNU time) of `cmd` over `runs`
    (after one untimed run); `before` runs untimed before each. The CPU time does not depend on
    what else the machine runs: CPU / cores is the wall time a quiet machine would show at best."""
    times, cpus = [], []
    for i in range(runs + 1):
        if before:
            before()
        t0 = time.perf_counter()
        p = subprocess.run(["/usr/bin/time", "-f", "%U %S", *cmd], capture_output=True, text=True)
        dt = time.perf_counter() - t0
        if p.returncode != 0:
            sys.exit(f"bench: {' '.join(cmd)} failed: {p.stderr[-1500:]}")
        if i > 0:
            times.append(dt)
            cpus.append(sum(map(float, p.stderr.strip().splitlines()[-1].split())))
    return statistics.median(times), statistics.median(cpus)


def library(roll, entries, name, strip_gps=False):
    lib = os.path.join(OUT, "memories", name)
    shutil.rmtree(lib, ignore_errors=True)
    os.makedirs(lib)
    for i, e in enumerate(entries):
        target = os.path.join(lib, f"{i:02d}-" + os.path.basename(e["path"]))
        if strip_gps:
            shutil.copy2(os.path.join(roll, e["path"]), target)
        else:
            os.link(os.path.join(roll, e["path"]), target)
    if strip_gps:
        run(["exiftool", "-q", "-overwrite_original", "-P", "-gps:all=", lib])
    return lib


def magick_montage(lib, cells, out):
    """One `convert` making the collage Shoebox made: the same crops, cells and quality."""
    cmd = ["convert", "-size", f"{LAYOUT['width']}x{LAYOUT['height']}", "xc:white"]
    for c in cells:
        src = os.path.join(lib, c["path"])
        info = run(["identify", "-format", "%w %h %[orientation]\n", src]).split("\n")[0].split()
        w, h = int(info[0]), int(info[1])
        if len(info) > 2 and info[2] in ("RightTop", "LeftBottom", "LeftTop", "RightBottom"):
            w, h = h, w  # upright size
        k = c["crop"]
        crop = f"{round(k['w'] * w)}x{round(k['h'] * h)}+{round(k['x'] * w)}+{round(k['y'] * h)}"
        box = c["cell"]
        cmd += ["(", src, "-auto-orient", "-crop", crop, "+repage", "-resize", f"{box['w']}x{box['h']}!", ")",
                "-geometry", f"+{box['x']}+{box['y']}", "-composite"]
    return cmd + ["-quality", "90", out]


def measure(roll, entries, fmt, runs, binary):
    lib = library(roll, entries, fmt)
    for step in (["init", lib], ["scan", "--library", lib], ["analyze", "--library", lib]):
        run([binary, *step])
    out = os.path.join(OUT, "memories", f"{fmt}.jpg")
    collage = [binary, "memories", "collage", "--library", lib, "--year", "2024", "--seed", "1", "-o", out]
    rm = lambda: os.path.exists(out) and os.remove(out)
    rm()
    layout = json.loads(run(collage + ["--json"]))
    rm()
    previews, previews_cpu = timed(collage, runs, before=rm)
    used = sorted({c["pixels"] for c in layout["cells"]})
    run([binary, "cache", "clear", "--library", lib])
    cold, cold_cpu = timed(collage, runs, before=rm)
    rm()
    cold_layout = json.loads(run(collage + ["--json"]))
    magick_out = os.path.join(OUT, "memories", f"{fmt}-magick.jpg")
    magick, magick_cpu = timed(magick_montage(lib, layout["cells"], magick_out), runs)
    return {"format": fmt, "photos": len(entries), "long_side": max(max(e["upright_size"]) for e in entries),
            "previews_s": previews, "previews_cpu_s": previews_cpu, "preview_pixels": used, "cold_s": cold, "cold_cpu_s": cold_cpu,
            "cold_pixels": sorted({c["pixels"] for c in cold_layout["cells"]}), "magick_s": magick, "magick_cpu_s": magick_cpu}


def geocoding(roll, entries, runs, binary):
    """Median scan seconds of the six photos with GPS minus without (fresh index each run)."""
    def scan_of(lib):
        def fresh():
            shutil.rmtree(os.path.join(lib, ".shoebox"), ignore_errors=True)
            run([binary, "init", lib])
        return timed([binary, "scan", "--library", lib], runs, before=fresh)
    (with_gps, with_cpu) = scan_of(library(roll, entries, "geo-with"))
    (without, without_cpu) = scan_of(library(roll, entries, "geo-without", strip_gps=True))
    return {"scan_with_gps_s": with_gps, "scan_without_gps_s": without, "scan_with_gps_cpu_s": with_cpu,
            "scan_without_gps_cpu_s": without_cpu, "lookup_cost_cpu_s": with_cpu - without_cpu}


def distinct_shots(entries):
    """One photo per source picture, then one per burst: a collage takes one photo of a shot
    (issue 32), so six frames of one burst would make a collage of one."""
    by_source, seen, rest = [], set(), []
    for e in entries:
        key = e.get("source") or e["path"]
        (rest if key in seen else by_source).append(e)
        seen.add(key)
    bursts = {e["burst"] for e in by_source if e.get("burst")}
    for e in rest:
        if not e.get("burst") or e["burst"] not in bursts:
            by_source.append(e)
            bursts.add(e.get("burst"))
    return by_source


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="3 runs each (the roll is made once either way)")
    ap.add_argument("--row", action="store_true", help="print bench/run's table rows")
    ap.add_argument("--json")
    a = ap.parse_args()
    runs = 3 if a.quick else a.runs
    binary = scanbench.shoebox_bin()
    roll = make_roll()
    manifest = json.load(open(roll + ".manifest.json"))
    photos = [e for e in manifest if e["kind"] == "photo" and not e["duplicate_of"] and not e.get("near_duplicate_of")]
    results = {"runs": runs, "cores": os.cpu_count(), "load_before": os.getloadavg()[0], "formats": []}
    for fmt in ("jpeg", "heic"):
        chosen = distinct_shots(sorted([e for e in photos if e["format"] == fmt], key=lambda e: e["path"]))[:6]
        if len(chosen) < 6:
            sys.exit(f"bench: the roll has only {len(chosen)} {fmt} photos")
        results["formats"].append(measure(roll, chosen, fmt, runs, binary))
    gps = sorted([e for e in photos if e["gps"]], key=lambda e: e["path"])[:6]
    results["geocoding"] = geocoding(roll, gps, max(runs, 9), binary)
    results["load_after"] = os.getloadavg()[0]
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=2)
    ms = lambda s: f"{s * 1000:.0f} ms"
    rows = []
    for r in results["formats"]:
        name = f"memories: collage of 6 camera-size {r['format'].upper()} ({r['long_side']} px)"
        for kind, goal, what in (("cold", 1.0, "cold files (cells from: " + "/".join(r["cold_pixels"]) + ")"),
                                 ("previews", 0.3, "previews cached (cells from: " + "/".join(r["preview_pixels"]) + ")")):
            wall, cpu = r[kind + "_s"], r[kind + "_cpu_s"]
            rows.append(f"| {name}, {what} | {ms(wall)} ({ms(cpu)} CPU) | ImageMagick's same montage from the originals: "
                        f"{ms(r['magick_s'])} ({ms(r['magick_cpu_s'])} CPU) | {r['magick_s'] / wall:.1f}× faster; goal < {ms(goal)}: "
                        f"{'met' if wall < goal else 'NOT MET'} (CPU / {results['cores']} cores: {ms(cpu / results['cores'])}) |")
    g = results["geocoding"]
    rows.append(f"| memories: reverse geocoding (at scan; a collage looks nothing up) | {ms(g['lookup_cost_cpu_s'])} CPU per scan of 6 photos: "
                f"the gazetteer's load and 6 lookups (scan {ms(g['scan_with_gps_cpu_s'])} CPU with GPS, {ms(g['scan_without_gps_cpu_s'])} without) | — | — |")
    if a.row:
        print("\n".join(rows))
    else:
        print(json.dumps(results, indent=2))
        print("\n".join(rows), file=sys.stderr)


if __name__ == "__main__":
    main()
