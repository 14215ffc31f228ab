#!/usr/bin/env python3
"""`shoebox compose export` (brief 001) on four camera-size photos, beside ImageMagick + heif-enc
doing the same job in the same run.

    bench/compose.py [--runs R] [--quick] [--detailed] [--json OUT] [--row]

Inputs: two JPEG (one stored turned, EXIF orientation 6, when the roll has one) and two HEIC
photos, 4032 px on their long side, of different photographs, without faces (Shoebox centres its
crop on faces, the reference cannot), from a small generated roll
(scripts/make-camera-roll --upscale --long-side 4032, made once and cached in bench/out/rolls/
by bench/scan.py's helper); --detailed: four of the repository's photographs at 2560 px
(test-data/photos, real detail rather than upscaled), two of them made HEIC by heif-enc.
They are hard-linked into a fresh library, indexed (untimed), then, R times each:
  - Shoebox: `compose add` (untimed) then `compose export -o story.heic` (timed: the whole
    process — decode at DCT scale, area scaling, crop, x265 encode through libheif, write);
  - the tools a user would otherwise run: ImageMagick's `convert` per photo (-auto-orient,
    -resize 1080xH^, -gravity center -extent 1080xH, to PNG; one process per core at once — in
    one `convert` of all four, ImageMagick 6.9's HEIC coder mixes up the colours of the HEIC
    bands), `convert -append`, then `heif-enc` at the same quality (libheif's x265 at its own
    default preset), timed together.
Both are timed as wall-clock seconds and as CPU seconds (user + system of the processes: the
machine's 2 cores are shared, so the CPU figure is the steadier one).
Quality: each story decoded by heif-convert, each band against the source's own fill crop
(ImageMagick, unencoded): PSNR in dB per band (ImageMagick's `compare`); and the file sizes.
Release build (bench/run builds it). --quick: 2 runs (the default is 5).
"""
import argparse, json, os, shutil, statistics, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True
import scan as scanbench  # noqa: E402  the roll and the binary, as the scan benchmark finds them

OUT = os.path.join(scanbench.OUT, "compose")
QUALITY = 70  # Shoebox's own setting (StoryExport.settings), given to heif-enc as well
BANDS = 4


def cpu():
    """CPU seconds used by the finished child processes so far."""
    r = os.times()
    return r.children_user + r.children_system


def run(cmd, env=None):
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        sys.exit(f"bench: {' '.join(cmd[:4])}… failed: {p.stderr[-1500:]}")
    return p.stdout


def pick(roll):
    """Two JPEG (a turned one first when there is one) and two HEIC photos of the roll, each of
    another photograph where the roll allows."""
    manifest = json.load(open(roll + ".manifest.json"))
    photos = [e for e in manifest if e["kind"] == "photo" and not e.get("duplicate_of") and not e.get("near_duplicate_of")
              and not e.get("live_photo_of") and max(e["upright_size"]) >= 4000
              and not e.get("persons")]  # no faces: Shoebox would centre on them, the reference cannot
    chosen, seen = [], set()
    for fmt in ("jpeg", "heic"):
        of = sorted((e for e in photos if e["format"] == fmt), key=lambda e: (e["orientation"] == 1, e["path"]))
        got = []
        for e in of:  # another photograph each, where the roll has one
            if len(got) < 2 and e.get("source") not in seen:
                got.append(e)
                seen.add(e.get("source"))
        got += [e for e in of if e not in got][:2 - len(got)]
        chosen.append(got)
    if any(len(c) < 2 for c in chosen):
        sys.exit("bench: the roll lacks two camera-size JPEG and two HEIC photos")
    (j1, j2), (h1, h2) = chosen
    return [os.path.join(roll, e["path"]) for e in (j1, h1, j2, h2)]


def detailed(work):
    """Four repository photographs at 2560 px: two JPEG as they are, two made HEIC (q 90)."""
    photos = os.path.join(scanbench.ROOT, "test-data", "photos")
    out = []
    for i, name in enumerate(["colorfulcups", "path", "eveningglow", "bythewater"]):
        src = os.path.join(photos, name + ".jpg")
        if i % 2 == 0:
            out.append(src)
            continue
        heic = os.path.join(work, name + ".heic")
        run(["heif-enc", "-q", "90", src, "-o", heic])
        out.append(heic)
    return out


def imagemagick(sources, png, heic):
    """The same story by ImageMagick and heif-enc; (wall seconds, CPU seconds)."""
    h = 1920 // len(sources)
    bands = [png + f".{i}.png" for i in range(len(sources))]
    for f in [png, heic] + bands:
        if os.path.exists(f):
            os.remove(f)
    cores = os.cpu_count() or 2
    t0, c0 = time.perf_counter(), cpu()
    for start in range(0, len(sources), cores):
        procs = [subprocess.Popen(["convert", s, "-auto-orient", "-resize", f"1080x{h}^", "-gravity", "center",
                                   "-extent", f"1080x{h}", "+repage", b], stderr=subprocess.PIPE)
                 for s, b in list(zip(sources, bands))[start:start + cores]]
        for p in procs:
            if p.wait() != 0:
                sys.exit(f"bench: convert failed: {p.stderr.read()[-800:]}")
    run(["convert", *bands, "-append", png])
    run(["heif-enc", "-q", str(QUALITY), png, "-o", heic])
    return time.perf_counter() - t0, cpu() - c0


def shoebox_export(sb, lib, names, heic, env):
    run([sb, "compose", "clear", "--library", lib], env)
    run([sb, "compose", "add", "--library", lib, *names], env)
    if os.path.exists(heic):
        os.remove(heic)
    t0, c0 = time.perf_counter(), cpu()
    run([sb, "compose", "export", "--library", lib, "-o", heic], env)
    return time.perf_counter() - t0, cpu() - c0


def band_psnrs(heic, sources, work):
    """PSNR (dB) of each band of `heic`, decoded by heif-convert, against its source's fill crop."""
    decoded = os.path.join(work, os.path.basename(heic) + ".png")
    run(["heif-convert", heic, decoded])
    h = 1920 // len(sources)
    out = []
    for i, s in enumerate(sources):
        ref, band = os.path.join(work, f"ref{i}.png"), os.path.join(work, f"band{i}.png")
        if not os.path.exists(ref):
            run(["convert", s, "-auto-orient", "-resize", f"1080x{h}^", "-gravity", "center", "-extent", f"1080x{h}", "+repage", ref])
        run(["convert", decoded, "-crop", f"1080x{h}+0+{i * h}", "+repage", band])
        p = subprocess.run(["compare", "-metric", "PSNR", band, ref, "null:"], capture_output=True, text=True)
        out.append(float(p.stderr.split()[0]))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--json")
    ap.add_argument("--row", action="store_true", help="print the table row of bench/run")
    ap.add_argument("--detailed", action="store_true", help="repository photographs at 2560 px instead of the 4032 px roll")
    a = ap.parse_args()
    runs = 2 if a.quick else a.runs
    sb = scanbench.shoebox_bin()
    shutil.rmtree(OUT, ignore_errors=True)
    lib, work = os.path.join(OUT, "library"), os.path.join(OUT, "work")
    os.makedirs(lib)
    os.makedirs(work)
    sources = detailed(work) if a.detailed else pick(scanbench.make_roll(12, 4032))
    names = []
    for i, s in enumerate(sources):
        names.append(f"{i}-" + os.path.basename(s))
        os.link(s, os.path.join(lib, names[-1]))
        with open(s, "rb") as f:
            f.read()  # the page cache warm for every tool
    env = dict(os.environ, SHOEBOX_LIBRARY="")
    run([sb, "init", lib], env)
    run([sb, "scan", "--library", lib], env)
    ours, theirs = os.path.join(work, "shoebox.heic"), os.path.join(work, "imagemagick.heic")
    sb_t, im_t = [], []
    for _ in range(runs):  # interleaved, so a busy moment of the machine weighs on both
        sb_t.append(shoebox_export(sb, lib, names, ours, env))
        im_t.append(imagemagick(sources, os.path.join(work, "imagemagick.png"), theirs))
    med = lambda xs, k: statistics.median(x[k] for x in xs)
    r = {"inputs": [{"file": os.path.basename(s), "bytes": os.path.getsize(s)} for s in sources],
         "runs": runs, "quality": QUALITY,
         "shoebox_s": med(sb_t, 0), "imagemagick_heifenc_s": med(im_t, 0),
         "shoebox_cpu_s": med(sb_t, 1), "imagemagick_heifenc_cpu_s": med(im_t, 1),
         "shoebox_bytes": os.path.getsize(ours), "imagemagick_heifenc_bytes": os.path.getsize(theirs),
         "shoebox_psnr_db": band_psnrs(ours, sources, work), "imagemagick_heifenc_psnr_db": band_psnrs(theirs, sources, work)}
    r["speedup"] = r["imagemagick_heifenc_s"] / r["shoebox_s"]
    r["cpu_speedup"] = r["imagemagick_heifenc_cpu_s"] / r["shoebox_cpu_s"]
    if a.json:
        with open(a.json, "w") as f:
            json.dump(r, f, indent=1)
    psnr = lambda xs: "/".join(f"{x:.1f}" for x in xs)
    what = "4 repository photographs at 2560 px (2 JPEG, 2 HEIC)" if a.detailed else "4 photos at 4032 px (2 JPEG, 2 HEIC)"
    row = (f"| compose export: {what} → 1080×1920 HEIC | {r['shoebox_s']:.2f} s ({r['shoebox_cpu_s']:.2f} s CPU), "
           f"{r['shoebox_bytes'] / 1e6:.2f} MB, PSNR {psnr(r['shoebox_psnr_db'])} dB | ImageMagick + heif-enc: "
           f"{r['imagemagick_heifenc_s']:.2f} s ({r['imagemagick_heifenc_cpu_s']:.2f} s CPU), "
           f"{r['imagemagick_heifenc_bytes'] / 1e6:.2f} MB, PSNR {psnr(r['imagemagick_heifenc_psnr_db'])} dB "
           f"| **{r['speedup']:.1f}×** wall, {r['cpu_speedup']:.1f}× CPU (goal ≥ 4×) |")
    if a.row:
        print(row)
    else:
        print(json.dumps(r, indent=1))
        print(row)


if __name__ == "__main__":
    main()
