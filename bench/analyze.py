#!/usr/bin/env python3
"""`shoebox analyze` on camera-size JPEG and HEIC files, beside vipsthumbnail in the same run.

    bench/analyze.py [--files N] [--long-side PX] [--runs R] [--json OUT] [--baseline BINARY]

Uses the camera-size roll of bench/scan.py (made once, cached in bench/out/rolls/). Its JPEG
and HEIC photos are hard-linked into two fresh libraries (one per format; nothing copied), each
indexed with `shoebox scan` (untimed), then measured:
  - vipsthumbnail (libvips, the tool a user would otherwise run) making the same two thumbnails
    Shoebox makes (1024 and 256 px long side, JPEG), one process per core over half the files
    each: 2 × `vipsthumbnail --size 1024 --export-profile srgb -o …[Q=82]` and the same at 256;
  - `shoebox analyze --stages thumbnails` (decode once + both thumbnails, nothing stored:
    the like-for-like comparison);
  - `shoebox analyze` (the whole pipeline: decode, thumbnails, perceptual hash, face detection
    and descriptors, people, stored through the writer), on a fresh index each run;
  - peak RSS of each (GNU time);
  - issue 33's comparison: `vipsthumbnail -s 512` over the same files in one process (its own
    threads), against the whole pipeline with scoring on: goals ≥ 25 JPEG/s and ≥ 12 HEIC/s on
    2 cores, ≥ 1× (JPEG) and ≥ 2.5× (HEIC) of vipsthumbnail's files/s; and the pipeline's CPU
    per file (user + system), which a shared machine's load disturbs less than its wall time.
Release build. The page cache is warm for every tool (an untimed read first).
--baseline BINARY: the whole pipeline of another build (a copy of `shoebox` from before a change)
measured too, in the same run, after this build's each time: a before/after on one machine's load.
"""
import argparse, json, os, shutil, statistics, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import scan as scanbench  # noqa: E402  the roll and the binary, exactly as the scan benchmark finds them

OUT = scanbench.OUT


def timed(cmd, env=None):
    return scanbench.timed(cmd, env)[:2]


def parallel(cmds):
    """Seconds until every command (one per core) is done; peak RSS of the largest."""
    t0 = time.perf_counter()
    procs = [subprocess.Popen(["/usr/bin/time", "-f", "%M", *c], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
             for c in cmds]
    rss = 0
    for p in procs:
        _, err = p.communicate()
        if p.returncode != 0:
            sys.exit(f"bench: {' '.join(p.args[3:8])}… failed: {err[-1500:]}")
        rss = max(rss, int(err.strip().splitlines()[-1]) / 1024)
    return time.perf_counter() - t0, rss


def library_of(files, name):
    lib = os.path.join(OUT, "analyze", name)
    shutil.rmtree(lib, ignore_errors=True)
    os.makedirs(lib)
    for i, f in enumerate(files):
        os.link(f, os.path.join(lib, f"{i:05d}-" + os.path.basename(f)))
    return lib


def vips(files, size, outdir):
    os.makedirs(outdir, exist_ok=True)
    cores = os.cpu_count() or 2
    shares = [files[i::cores] for i in range(cores)]
    return parallel([["vipsthumbnail", "--size", str(size), "--export-profile", "srgb",
                      "-o", os.path.join(outdir, "%s.jpg[Q=82]"), *share] for share in shares if share])


def vips512(files, outdir):
    """(seconds, CPU seconds) of one `vipsthumbnail -s 512` process over every file."""
    os.makedirs(outdir, exist_ok=True)
    cpu = []
    t, _, _ = scanbench.timed(["vipsthumbnail", "-s", "512", "-o", os.path.join(outdir, "%s.jpg"), *files], cpu=cpu)
    return t, cpu[0]


def measure(sb, lib, runs, baseline=None):
    env = dict(os.environ, SHOEBOX_LIBRARY="")
    subprocess.run([sb, "init", lib], check=True, capture_output=True)
    subprocess.run([sb, "scan", "--library", lib], check=True, capture_output=True, env=env)
    thumbs = [timed([sb, "analyze", "--library", lib, "--stages", "thumbnails"], env) for _ in range(runs)]
    whole, before = [], []
    for _ in range(runs):
        for binary, into in ((sb, whole), (baseline, before)):
            if binary is None:
                continue
            # A fresh analysis each run: the index and sidecars of the scan, without earlier results.
            shutil.rmtree(os.path.join(lib, ".shoebox"))
            subprocess.run([binary, "init", lib], check=True, capture_output=True)
            subprocess.run([binary, "scan", "--library", lib], check=True, capture_output=True, env=env)
            cpu = []
            t, rss, out = scanbench.timed([binary, "analyze", "--library", lib, "--json"], env, cpu=cpu)
            into.append((t, rss, json.loads(out), cpu[0]))
    return thumbs, whole, before


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", type=int, default=1000)
    ap.add_argument("--long-side", type=int, default=4032)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json")
    ap.add_argument("--baseline", help="another shoebox binary whose whole pipeline is measured beside this build's")
    a = ap.parse_args()
    sb = scanbench.shoebox_bin()
    roll = scanbench.make_roll(a.files, a.long_side)
    files = sorted(scanbench.media_files(roll))
    rows, result = [], {}
    for fmt, exts in (("JPEG", (".jpg", ".jpeg")), ("HEIC", (".heic",))):
        chosen = [f for f in files if f.lower().endswith(exts) and "/Screenshots/" not in f and "/Documents/" not in f]
        if not chosen:
            continue
        for f in chosen:
            with open(f, "rb") as fh:
                fh.read()
        lib = library_of(chosen, fmt.lower())
        out = os.path.join(OUT, "analyze", "vips-" + fmt.lower())
        v = [(lambda r1, r2: (r1[0] + r2[0], max(r1[1], r2[1])))(vips(chosen, 1024, out), vips(chosen, 256, out + "-256"))
             for _ in range(a.runs)]
        v512 = [vips512(chosen, out + "-512") for _ in range(a.runs)]
        thumbs, whole, before = measure(sb, lib, a.runs, a.baseline)
        n = len(chosen)
        vips_s, thumbs_s = statistics.median(t for t, _ in v), statistics.median(t for t, _ in thumbs)
        whole_s = statistics.median(t for t, _, _, _ in whole)
        v512_s = statistics.median(t for t, _ in v512)
        r = {"files": n, "mb_per_file": sum(os.path.getsize(f) for f in chosen) / n / 1e6,
             "vips_s": vips_s, "vips_files_s": n / vips_s, "vips_rss_mib": max(x for _, x in v),
             "thumbs_s": thumbs_s, "thumbs_files_s": n / thumbs_s, "thumbs_rss_mib": max(x for _, x in thumbs),
             "pipeline_s": whole_s, "pipeline_files_s": n / whole_s, "pipeline_rss_mib": max(x for _, x, _, _ in whole),
             "pipeline_cpu_ms_per_file": statistics.median(c for *_, c in whole) / n * 1000,
             "vips512_s": v512_s, "vips512_files_s": n / v512_s,
             "vips512_cpu_ms_per_file": statistics.median(c for _, c in v512) / n * 1000,
             "faces": whole[-1][2].get("faces"), "analyzed": whole[-1][2].get("analyzed")}
        if before:
            r["baseline_s"] = statistics.median(t for t, *_ in before)
            r["baseline_files_s"] = n / r["baseline_s"]
            r["baseline_cpu_ms_per_file"] = statistics.median(c for *_, c in before) / n * 1000
            r["baseline_rss_mib"] = max(x for _, x, _, _ in before)
            r["baseline_faces"] = before[-1][2].get("faces")
        r["thumbs_vs_vips"] = r["thumbs_files_s"] / r["vips_files_s"]
        r["pipeline_vs_vips512"] = r["pipeline_files_s"] / r["vips512_files_s"]
        result[fmt.lower()] = r
        rows.append(f"| analyze, thumbnails only ({n} {fmt}, {r['mb_per_file']:.1f} MB each, 1024 + 256 px) | "
                    f"{r['thumbs_files_s']:.1f} files/s, peak RSS {r['thumbs_rss_mib']:.0f} MiB | vipsthumbnail, "
                    f"{os.cpu_count()} processes: {r['vips_files_s']:.1f} files/s | **{r['thumbs_vs_vips']:.2f}×** vipsthumbnail |")
        goal_rate, goal_ratio = (25, 1.0) if fmt == "JPEG" else (12, 2.5)
        met = "✓" if r["pipeline_files_s"] >= goal_rate and r["pipeline_vs_vips512"] >= goal_ratio else "not met"
        rows.append(f"| analyze with scoring, whole pipeline ({n} {fmt}, {a.long_side} px: decode, thumbnails, hash, faces, "
                    f"score, people, stored) | {r['pipeline_files_s']:.1f} files/s, {r['pipeline_cpu_ms_per_file']:.0f} ms CPU a file, "
                    f"peak RSS {r['pipeline_rss_mib']:.0f} MiB, {r['faces']} faces | `vipsthumbnail -s 512`, one process: "
                    f"{r['vips512_files_s']:.1f} files/s, {r['vips512_cpu_ms_per_file']:.0f} ms CPU a file | "
                    f"**{r['pipeline_vs_vips512']:.2f}×** (goal ≥ {goal_ratio:g}× and ≥ {goal_rate} {fmt}/s: {met}) |")
        if before:
            rows.append(f"| the same, baseline build {os.path.basename(a.baseline)} | {r['baseline_files_s']:.1f} files/s, "
                        f"{r['baseline_cpu_ms_per_file']:.0f} ms CPU a file, peak RSS {r['baseline_rss_mib']:.0f} MiB, "
                        f"{r['baseline_faces']} faces | | {r['baseline_files_s'] / r['vips512_files_s']:.2f}× |")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(result, f, indent=1)
    print("\n".join(rows))


if __name__ == "__main__":
    main()
