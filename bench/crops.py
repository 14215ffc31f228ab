#!/usr/bin/env python3
"""Crops on real group photos (issue 32): how often the one crop rule of the story's bands and the
collage's cells (Imaging's FaceCrop) keeps the faces of test-data/faces' five group photos (18 faces
boxed by hand) — no face cut, one of the largest whole — in the story's four band shapes and the
collage's cell, beside the two rules it replaced. `crop-bench` (bench/CropBench) measures; this
prints the table rows.

    bench/crops.py [--quick] [--row] [--json FILE]

--quick: the faces given to the rules are the hand boxes only; otherwise also the boxes the
pipeline's detector (CenterFace) finds on the photos (what a library really holds).
"""
import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(detector):
    # $CROP_BENCH: another build of it (the figures are counts, the same from a debug build).
    binary = os.environ.get("CROP_BENCH") or os.path.join(ROOT, ".build/release/crop-bench")
    if not os.path.exists(binary):
        subprocess.run(["swift", "build", "-c", "release", "--product", "crop-bench"], cwd=ROOT, check=True,
                       stdout=sys.stderr)
    out = subprocess.run([binary] + (["--detector"] if detector else []), check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--row", action="store_true")
    ap.add_argument("--json")
    a = ap.parse_args()
    results = [run(False)] + ([] if a.quick else [run(True)])
    rows = []
    for r in results:
        new, *old = r["rules"]
        rate = new["kept"] / r["crops"]
        before = ", ".join(f"{o['rule']}: {o['kept']}/{r['crops']}" for o in old)
        rows.append(f"| crops keeping the faces of {r['photos']} real group photos ({r['faces']}; 4 story bands + "
                    f"the collage cell) | {new['kept']}/{r['crops']} ({rate:.0%}; {new['kept_of_possible']} of the "
                    f"{r['possible']} a window can keep) | {before} | goal: every possible one: "
                    f"{'met' if new['kept_of_possible'] == r['possible'] else 'NOT MET (' + '; '.join(r['misses']) + ')'} |")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)
    print("\n".join(rows) if a.row else json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
