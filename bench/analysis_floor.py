#!/usr/bin/env python3
"""Why analysis with scoring cannot reach issue 33's rate here: its parts that no change of
Shoebox's own code removes, measured alone, against the budget the goal leaves a photo.

    bench/analysis_floor.py [--files N] [--long-side PX] [--sample K] [--sides 512,448,384] [--repeats R] [--json OUT]

Budget: 2 cores at ≥ 25 JPEG/s leave 80 ms of CPU a JPEG; ≥ 12 HEIC/s leave 167 ms a HEIC.
Measured, in one run:
  - CenterFace alone (bench/centerface_floor.cpp: OpenCV dnn, one thread, the pipeline's
    pre- and post-processing, padding only to a multiple of 32 — less than the pipeline's three
    shapes, so a floor) at each input long side of --sides: thread CPU per forward pass, median
    over the JPEGs of bench/analyze.py's roll, and the hand-boxed group photos of test-data/faces
    at camera size (GroupPhotoTests' 24 faces) found at that side (IoU ≥ 0.3): the smallest side
    that finds all 24 is the detector's cost at the recall the pipeline keeps;
  - decode + both thumbnails (`shoebox analyze --stages thumbnails`, CPU a file) on the same
    roll's JPEG and HEIC files: what the pipeline spends before any analysis.
Release build (bench/run builds it); the roll is bench/scan.py's (cached in bench/out/rolls/);
--sample K: the detector on K of its JPEGs only, evenly spread (decode is timed on all).
"""
import argparse, json, os, shutil, statistics, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import analyze as analyzebench  # noqa: E402  the roll's libraries, as bench/analyze.py makes them
import scan as scanbench  # noqa: E402

ROOT = os.path.dirname(HERE)
FACES = os.path.join(ROOT, "test-data", "faces")
MODEL = os.path.join(os.path.expanduser("~"), ".local", "share", "shoebox", "models", "centerface.onnx")
BUDGET = {"JPEG": 2000 / 25, "HEIC": 2000 / 12}


def build_tool():
    exe = os.path.join(scanbench.OUT, "centerface_floor")
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "opencv4"], capture_output=True, text=True, check=True).stdout.split()
    compiler = os.environ.get("CXX") or shutil.which("c++") or shutil.which("clang++") or "c++"  # Swift's toolchain brings clang++
    subprocess.run([compiler, "-O2", "-std=c++17", "-o", exe, os.path.join(HERE, "centerface_floor.cpp"), *flags], check=True)
    return exe


def iou(a, b):
    ix = max(0.0, min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]))
    inter = ix * iy
    return inter / (a[2] * a[3] + b[2] * b[3] - inter) if inter > 0 else 0.0


def hand_boxed_scores(rows):
    """{side: (found, of, false)} over the hand-boxed group photos; a detection inside an `ignore`
    region counts neither way (GroupPhotoTests' rule)."""
    photos = {p["file"]: p for p in json.load(open(os.path.join(FACES, "boxes.json")))["photos"]}
    out = {}
    for r in rows:
        p = photos[os.path.basename(r["file"])]
        W, H = p["width"], p["height"]
        norm = lambda b: (b[0] / W, b[1] / H, b[2] / W, b[3] / H)  # noqa: E731
        truth, ignore = [norm(b) for b in p["faces"]], [norm(b) for b in p.get("ignore", [])]
        found = [f[:4] for f in r["faces"]]
        inside = lambda d, g: g[0] < d[0] + d[2] / 2 < g[0] + g[2] and g[1] < d[1] + d[3] / 2 < g[1] + g[3]  # noqa: E731
        tp = sum(1 for g in truth if any(iou(g, d) >= 0.3 for d in found))
        fp = sum(1 for d in found if not any(iou(g, d) >= 0.3 for g in truth)
                 and not any(iou(g, d) >= 0.3 or inside(d, g) for g in ignore))
        s = out.setdefault(r["side"], [0, 0, 0])
        s[0] += tp; s[1] += len(truth); s[2] += fp
    return out


def detector(exe, lines, sides, repeats):
    p = subprocess.run([exe, MODEL, ",".join(map(str, sides)), str(repeats)], input="".join(l + "\n" for l in lines),
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"bench: centerface_floor failed: {p.stderr[-1500:]}")
    return [json.loads(l) for l in p.stdout.splitlines()]


def decode_and_thumbnails(files, fmt):
    """CPU ms a file of `analyze --stages thumbnails` (median of 3), on a fresh library of `files`."""
    sb = scanbench.shoebox_bin()
    lib = analyzebench.library_of(files, "floor-" + fmt.lower())
    env = dict(os.environ, SHOEBOX_LIBRARY="")
    subprocess.run([sb, "init", lib], check=True, capture_output=True)
    subprocess.run([sb, "scan", "--library", lib], check=True, capture_output=True, env=env)
    cpu = []
    for _ in range(3):
        scanbench.timed([sb, "analyze", "--library", lib, "--stages", "thumbnails"], env, cpu=cpu)
    return statistics.median(cpu) / len(files) * 1000


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", type=int, default=100)
    ap.add_argument("--long-side", type=int, default=4032)
    ap.add_argument("--sample", type=int, default=0)
    ap.add_argument("--sides", default="512,448,384")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--json")
    a = ap.parse_args()
    sides = [int(s) for s in a.sides.split(",")]
    if not os.path.exists(MODEL):
        sys.exit(f"bench: no {MODEL} (scripts/install-deps fetches the face models)")
    exe = build_tool()
    roll = scanbench.make_roll(a.files, a.long_side)
    files = sorted(scanbench.media_files(roll))
    usable = [f for f in files if "/Screenshots/" not in f and "/Documents/" not in f]
    jpegs = [f for f in usable if f.lower().endswith((".jpg", ".jpeg"))]
    heics = [f for f in usable if f.lower().endswith(".heic")]
    groups = sorted(os.path.join(FACES, p["file"]) for p in json.load(open(os.path.join(FACES, "boxes.json")))["photos"])

    found = hand_boxed_scores(detector(exe, ["camera " + g for g in groups], sides, 1))
    sample = jpegs[::max(1, len(jpegs) // a.sample)][:a.sample] if a.sample else jpegs
    on_roll = detector(exe, ["roll " + f for f in sample], sides, a.repeats)
    cpu = {s: statistics.median(r["cpu_ms"] for r in on_roll if r["side"] == s) for s in sides}
    faces = {s: sum(len(r["faces"]) for r in on_roll if r["side"] == s) for s in sides}
    keeps = [s for s in sides if found[s][0] == found[s][1] and found[s][2] == 0]
    floor_side = min(keeps) if keeps else max(sides)
    decode = {"JPEG": decode_and_thumbnails(jpegs, "JPEG")}
    if heics:
        decode["HEIC"] = decode_and_thumbnails(heics, "HEIC")

    rows = []
    for s in sides:
        rows.append(f"| analysis floor: CenterFace alone at {s} px ({len(sample)} roll JPEGs, one thread) | {cpu[s]:.0f} ms CPU "
                    f"a photo, {faces[s]} faces on the roll | hand-boxed group photos at camera size: {found[s][0]} of "
                    f"{found[s][1]} found, {found[s][2]} false | {'keeps recall' if s in keeps else 'loses faces'} |")
    for fmt, ms in decode.items():
        least = ms + cpu[floor_side]
        rows.append(f"| analysis floor: {fmt} decode + thumbnails, then CenterFace at {floor_side} px, nothing else | "
                    f"{ms:.0f} + {cpu[floor_side]:.0f} = **{least:.0f} ms CPU a file** | budget of the goal on 2 cores: "
                    f"{BUDGET[fmt]:.0f} ms | {'over the budget by ' + format(least / BUDGET[fmt], '.2f') + '× before any scoring' if least > BUDGET[fmt] else format(BUDGET[fmt] - least, '.0f') + ' ms left for hashing, descriptors and scoring'} |")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"centerface_cpu_ms": cpu, "roll_faces": faces, "hand_boxed": found, "floor_side": floor_side,
                       "decode_thumbnails_cpu_ms": decode, "budget_ms": BUDGET}, f, indent=1)
    print("\n".join(rows))


if __name__ == "__main__":
    main()
