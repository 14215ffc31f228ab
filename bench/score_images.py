"""The scoring benchmark's pictures (bench/score.py): crops of the repository's photographs, each
clean and under graded distortions, made with ImageMagick. Deterministic for a given list."""
import os
import subprocess
from concurrent.futures import ThreadPoolExecutor

CONVERT = "/usr/bin/convert"

# The six degradations of issue 16 plus motion blur, three levels each: what a photographer
# rejects. Level 1 is already visible at full screen; level 3 is unusable.
LADDERS = {
    "blur": lambda lv, a: ["-gaussian-blur", f"0x{(1.0, 2.0, 4.0)[lv - 1]}"],
    "motion": lambda lv, a: ["-motion-blur", f"0x{(3, 6, 12)[lv - 1]}+{a}"],
    "noise": lambda lv, a: ["-attenuate", f"{(0.4, 0.9, 1.8)[lv - 1]}", "+noise", "Gaussian"],
    "dark": lambda lv, a: ["-evaluate", "multiply", f"{(0.55, 0.32, 0.16)[lv - 1]}"],
    "bright": lambda lv, a: ["-evaluate", "add", f"{(20, 40, 60)[lv - 1]}%"],
    "flat": lambda lv, a: ["+level", f"{(15, 27, 38)[lv - 1]}%,{(85, 73, 62)[lv - 1]}%"],
    "jpeg": lambda lv, a: [],
}
JPEG_QUALITY = {"jpeg": (20, 10, 4)}
# The seven kinds issue 32 measures on real photographs the scorer was not tuned on: the ladders'
# own, less over-exposure, plus pixelation (a small image blown up by repeating pixels).
PIXELATE = {"pixelate": lambda lv, a: ["-scale", f"{(50, 25, 12.5)[lv - 1]}%", "-scale", f"{(200, 400, 800)[lv - 1]}%"]}
REAL_KINDS = ("blur", "motion", "noise", "flat", "jpeg", "pixelate", "dark")
# Degradations the scorer was not tuned on (the acceptance check's "unseen degradation"):
# reported apart, never used to choose a weight.
UNSEEN = {
    "haze": lambda lv, a: ["(", "+clone", "-fill", "#c8ccd0", "-colorize", "100", ")", "-compose", "blend",
                           "-define", f"compose:args={(25, 45, 65)[lv - 1]}", "-composite"],
    "chroma-noise": lambda lv, a: ["-colorspace", "YCbCr", "-channel", "GB", "-attenuate",
                                   f"{(1.0, 2.0, 4.0)[lv - 1]}", "+noise", "Gaussian", "+channel", "-colorspace", "sRGB"],
    "vignette": lambda lv, a: ["-background", "black", "-vignette", f"0x{(60, 40, 25)[lv - 1]}%+{(10, 30, 60)[lv - 1]}+{(10, 30, 60)[lv - 1]}"],
    "banding": lambda lv, a: ["-posterize", f"{(24, 12, 6)[lv - 1]}"],
    "oversharpen": lambda lv, a: ["-unsharp", f"0x{(2, 3, 4)[lv - 1]}+{(3, 6, 12)[lv - 1]}+0"],
}


def sources(root: str) -> list:
    """(name, path) of every photograph of test-data/photos and test-data/faces."""
    out = []
    for folder in ("photos", "faces"):
        d = os.path.join(root, "test-data", folder)
        for f in sorted(os.listdir(d)):
            if f.lower().endswith(".jpg"):
                out.append((f"{folder[0]}-{os.path.splitext(f)[0]}", os.path.join(d, f)))
    return out


def real_sources(root: str, held_out: bool) -> list:
    """(name, path) of test-data/scoring's photographs (SOURCES.md there): in sorted order, the
    even-numbered ones are the tuning half, the odd-numbered ones the held-out half. The tiny
    images and the photographed page are test cases, not photographs to degrade."""
    d = os.path.join(root, "test-data", "scoring")
    photos = sorted(f for f in os.listdir(d) if f.lower().endswith(".jpg") and not f.startswith("tiny-"))
    return [(f"r-{os.path.splitext(f)[0]}", os.path.join(d, f)) for i, f in enumerate(photos) if i % 2 == int(held_out)]


def crops(name: str, path: str, per_source: int) -> list:
    """Crops of a source at ≤ 1024 px: the middle 80 %, then offset ones (the same place of
    each photo every run)."""
    w, h = map(int, subprocess.check_output(["identify", "-format", "%w %h", path + "[0]"], text=True).split())
    boxes = [(0.1, 0.1, 0.8), (0.0, 0.0, 0.75), (0.25, 0.25, 0.75)][:per_source]
    return [(f"{name}-c{i}", path, (round(x * w), round(y * h), round(s * w), round(s * h)))
            for i, (x, y, s) in enumerate(boxes)]


def run(cmd):
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def make(out_dir: str, crop, kinds: dict, jobs: int) -> list:
    """The clean crop and each kind × level: a list of (file, crop, kind or None, level)."""
    name, path, (x, y, w, h) = crop
    base = [CONVERT, path + "[0]", "-crop", f"{w}x{h}+{x}+{y}", "+repage", "-resize", "1024x1024>"]
    angle = sum(map(ord, name)) % 180  # a motion direction per crop, the same every run
    tasks = [(os.path.join(out_dir, f"{name}.jpg"), [], 92, None, 0)]
    for kind, ops in kinds.items():
        for lv in (1, 2, 3):
            q = JPEG_QUALITY.get(kind, (92, 92, 92))[lv - 1]
            tasks.append((os.path.join(out_dir, f"{name}--{kind}{lv}.jpg"), ops(lv, angle), q, kind, lv))
    for f, ops, q, _, _ in tasks:
        if not os.path.exists(f):
            run(base + ["-seed", "7"] + ops + ["-strip", "-quality", str(q), f])
    return [(f, name, kind, lv) for f, _, _, kind, lv in tasks]


def make_all(root: str, out_dir: str, per_source: int, unseen: bool, jobs: int, limit: int = 0,
             real: str = "") -> list:
    """The repository's photographs under the ladders (and the unseen kinds), or with `real`
    "tune" / "held-out" that half of test-data/scoring under the seven kinds of REAL_KINDS."""
    os.makedirs(out_dir, exist_ok=True)
    if real:
        kinds = {k: dict(LADDERS, **PIXELATE)[k] for k in REAL_KINDS}
        photos = real_sources(root, real == "held-out")
    else:
        kinds = dict(LADDERS)
        if unseen:
            kinds.update(UNSEEN)
        photos = sources(root)
    all_crops = [c for name, path in photos for c in crops(name, path, per_source)]
    if limit:
        all_crops = all_crops[::max(1, len(all_crops) // limit)][:limit]
    with ThreadPoolExecutor(jobs) as pool:
        parts = list(pool.map(lambda c: make(out_dir, c, kinds, jobs), all_crops))
    return [t for p in parts for t in p]
