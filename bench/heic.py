#!/usr/bin/env python3
"""HEIC decoding: libde265 fed directly (Imaging's HEVCDecoder) beside libheif, the bare
decoder `libde265-dec265` and `vipsthumbnail`, in the same run.

    bench/heic.py [--runs R] [--quick] [--row] [--json OUT]

Makes (once, cached in bench/out/heic/) a 12-megapixel HEIC (4032×3024, a photograph of
test-data/photos scaled up, `heif-enc` at its default quality: one HEVC frame, x265's
wavefront rows), and extracts its HEVC stream with start codes (`heic-bench annexb`: the
primary item's hvcC parameter sets and data, as HEIFItems reads them). Then, release build,
medians of R runs:
  - CPU per decode, full size to RGB (`heic-bench decode`, in-process, CPU from getrusage over
    every thread): the direct path, the libheif path (SHOEBOX_HEIC_LIBHEIF=1), and
    `libde265-dec265 -q` on the extracted stream with no threads and with 2 (process CPU and
    wall from GNU time, its start-up included: a few ms);
  - thumbnails: the 4032-px HEICs of the memories roll, each to a 512-px JPEG in one process,
    two files at a time as the analysis pipeline works (`heic-bench thumbnails 512`), beside
    `vipsthumbnail -s 512` over the same files in one process (libheif inside libvips; it
    takes one file after another, its own threads inside each);
  - the cold six-HEIC memories collage (bench/memories.py's measurement: no cached previews),
    direct and through libheif.
Goals (issue 33): CPU per 12 MP HEIC ≤ 1.25× dec265's single-threaded decode; thumbnails
≥ 2× vipsthumbnail; the cold collage < 1 s.
"""
import argparse, glob, json, os, shutil, statistics, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import scan as scanbench  # noqa: E402
import memories  # noqa: E402

ROOT = os.path.dirname(HERE)
OUT = os.path.join(scanbench.OUT, "heic")
BENCH = os.path.join(ROOT, ".build", "release", "heic-bench")


def run(cmd, env=None):
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        sys.exit(f"bench: {' '.join(cmd)} failed: {p.stderr[-1500:]}")
    return p.stdout


def libheif_env():
    return dict(os.environ, SHOEBOX_HEIC_LIBHEIF="1")


def make_inputs():
    os.makedirs(OUT, exist_ok=True)
    heic = os.path.join(OUT, "photo-12mp.heic")
    if not os.path.exists(heic):
        png = os.path.join(OUT, "photo-12mp.png")
        run(["convert", os.path.join(ROOT, "test-data", "photos", "kite.jpg"), "-resize", "4032x3024!", png])
        run(["heif-enc", png, "-o", heic])
        os.remove(png)
    stream = os.path.join(OUT, "photo-12mp.265")
    run([BENCH, "annexb", heic, stream])
    return heic, stream


def dec265(stream, threads, runs):
    cpus, walls = [], []
    for i in range(runs + 1):
        p = subprocess.run(["/usr/bin/time", "-f", "%e %U %S", "libde265-dec265", "-q", "-t", str(threads), stream],
                           capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit(f"bench: libde265-dec265 failed: {p.stderr[-500:]}")
        e, u, s = map(float, p.stderr.strip().splitlines()[-1].split())
        if i > 0:
            walls.append(e * 1000)
            cpus.append((u + s) * 1000)
    return {"cpu_ms": statistics.median(cpus), "wall_ms": statistics.median(walls)}


def timed(cmd, runs, env=None):
    cpus, walls = [], []
    for i in range(runs + 1):
        p = subprocess.run(["/usr/bin/time", "-f", "%e %U %S", *cmd], capture_output=True, text=True, env=env)
        if p.returncode != 0:
            sys.exit(f"bench: {' '.join(cmd)} failed: {p.stderr[-500:]}")
        e, u, s = map(float, p.stderr.strip().splitlines()[-1].split())
        if i > 0:
            walls.append(e)
            cpus.append(u + s)
    return statistics.median(walls), statistics.median(cpus)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--quick", action="store_true", help="3 runs each")
    ap.add_argument("--row", action="store_true", help="print bench/run's table rows")
    ap.add_argument("--json")
    a = ap.parse_args()
    runs = 3 if a.quick else a.runs
    heic, stream = make_inputs()
    r = {"runs": runs, "cores": os.cpu_count(), "load_before": os.getloadavg()[0]}
    r["dec265_t0"] = dec265(stream, 0, runs)
    r["dec265_t2"] = dec265(stream, 2, runs)
    r["direct"] = json.loads(run([BENCH, "decode", heic, str(runs), "100000"]))
    r["libheif"] = json.loads(run([BENCH, "decode", heic, str(runs), "100000"], env=libheif_env()))

    roll = memories.make_roll()
    files = sorted(glob.glob(os.path.join(roll, "**", "*.HEIC"), recursive=True))
    thumbs = os.path.join(OUT, "vips")
    shutil.rmtree(thumbs, ignore_errors=True)
    os.makedirs(thumbs)
    r["thumb_files"] = len(files)
    r["thumbs_direct"] = timed([BENCH, "thumbnails", "512", *files], runs)
    r["thumbs_libheif"] = timed([BENCH, "thumbnails", "512", *files], runs, env=libheif_env())
    r["thumbs_vips"] = timed(["vipsthumbnail", "-s", "512", "-o", os.path.join(thumbs, "%s.jpg"), *files], runs)

    manifest = json.load(open(roll + ".manifest.json"))
    photos = [e for e in manifest if e["kind"] == "photo" and not e["duplicate_of"] and not e.get("near_duplicate_of")]
    # Eight: the collage takes six, and one of the roll's first six HEICs is a second photo of
    # one shot, which a collage leaves out (with libheif too).
    chosen = sorted([e for e in photos if e["format"] == "heic"], key=lambda e: e["path"])[:8]
    binary = scanbench.shoebox_bin()
    r["collage_direct"] = memories.measure(roll, chosen, "heic", runs, binary)
    saved = os.environ.get("SHOEBOX_HEIC_LIBHEIF")
    os.environ["SHOEBOX_HEIC_LIBHEIF"] = "1"
    r["collage_libheif"] = memories.measure(roll, chosen, "heic-libheif", runs, binary)
    if saved is None:
        del os.environ["SHOEBOX_HEIC_LIBHEIF"]
    r["load_after"] = os.getloadavg()[0]
    if a.json:
        with open(a.json, "w") as f:
            json.dump(r, f, indent=2)

    ms = lambda v: f"{v:.0f} ms"
    d, lh, t0, t2 = r["direct"], r["libheif"], r["dec265_t0"], r["dec265_t2"]
    ratio = d["cpu_ms"] / t0["cpu_ms"]
    rows = [f"| heic: CPU per 12 MP HEIC (4032×3024, one HEVC frame), decoded to full-size RGB | {ms(d['cpu_ms'])} CPU, "
            f"{ms(d['wall_ms'])} wall (libheif path: {ms(lh['cpu_ms'])} CPU, {ms(lh['wall_ms'])} wall) | `libde265-dec265 -q` on the "
            f"same frame: {ms(t0['cpu_ms'])} CPU one thread, {ms(t2['cpu_ms'])} CPU / {ms(t2['wall_ms'])} wall with -t 2 | "
            f"{ratio:.2f}× dec265's CPU; goal ≤ 1.25×: {'met' if ratio <= 1.25 else 'NOT MET'} |"]
    (tw, tc), (lw, lc), (vw, vc) = r["thumbs_direct"], r["thumbs_libheif"], r["thumbs_vips"]
    n = r["thumb_files"]
    rows.append(f"| heic: {n} 4032-px HEICs to 512-px JPEG thumbnails, one process | "
                f"{n / tw:.1f}/s ({tc / n * 1000:.0f} ms CPU each; libheif path {n / lw:.1f}/s) | `vipsthumbnail -s 512`: "
                f"{n / vw:.1f}/s ({vc / n * 1000:.0f} ms CPU each) | {vw / tw:.2f}× vipsthumbnail; goal ≥ 2×: "
                f"{'met' if vw / tw >= 2 else 'NOT MET'} |")
    c, cl = r["collage_direct"], r["collage_libheif"]
    rows.append(f"| heic: memories collage of 6 HEICs ({c['long_side']} px), cold files | {c['cold_s'] * 1000:.0f} ms "
                f"({c['cold_cpu_s'] * 1000:.0f} ms CPU) | libheif path: {cl['cold_s'] * 1000:.0f} ms ({cl['cold_cpu_s'] * 1000:.0f} ms CPU) | "
                f"goal < 1 s: {'met' if c['cold_s'] < 1 else 'NOT MET'} |")
    if a.row:
        print("\n".join(rows))
    else:
        print(json.dumps(r, indent=2))
        print("\n".join(rows), file=sys.stderr)


if __name__ == "__main__":
    main()
