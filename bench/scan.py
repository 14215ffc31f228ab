#!/usr/bin/env python3
"""Cold and warm `shoebox scan` of a camera-size roll, beside exiftool and the SHA-256 ceiling.

    bench/scan.py [--files N] [--long-side PX] [--runs R] [--json OUT] [--roll DIR] [--before BIN]

Makes (once, cached in bench/out/rolls/) a roll of N camera-size files with
scripts/make-camera-roll --upscale, then measures in the same run:
  - the SHA-256 ceiling: `openssl speed -evp sha256` on one core and on two (-multi 2);
  - reading and hashing the roll's files, nothing else: `openssl dgst -sha256`, one process per
    core (the ceiling of any program that reads these files through the page cache: the copy
    out of it, the opens and the per-file work cost a third of openssl's own speed here);
  - exiftool -json -n -r over the roll (headers only), the tool a user would otherwise run;
  - shoebox scan on a fresh index (cold: metadata + full SHA-256 + index + sidecars);
  - shoebox scan again with nothing changed (warm: process start included);
  - peak RSS and CPU time (user + system) of each (GNU time);
  - the floor (bench/scan_floor.c, built here): a C program that only reads and hashes every file on
    one thread per core, then also writes each file's sidecar, then also its two album links —
    what SPEC requires a scan to keep, and nothing else (no metadata, index or fsync): the best
    any scanner can do on this machine's file system;
  - the full-work floor (the same program's `full` stage): the sidecars plus what a scan cannot
    leave out either, done the cheapest way C allows — EXIF by libexif, XMP by libxml2's SAX2, the
    sidecar holding them, each batch of 256 made durable as docs/RELIABILITY.md argues (replay
    record flushed, one syncfs, the rows in one SQLite transaction, synchronous = FULL) by one
    committer while the other threads hash, then a year album and a folder's album whose links
    are named by their place (SPEC), written once the last batch is in. It has no program start,
    walk, gazetteer, places or people: the part of the scan's time above it is Shoebox's own.
--roll DIR measures the files of DIR instead (a roll made some other way; an earlier run's
`.shoebox/` and `Albums/` in it are set aside). --before BIN also times BIN's cold scan, each of
its runs right after one of the scan's, so that a change is measured against what it replaces
under the same load.
The ceiling is openssl's CPU-time figure (its default), while the scan's is wall-clock time: on a
busy machine the scan gets less than two cores and its share falls. The scan's CPU time is
printed beside it, as MB hashed per CPU-second against openssl's one core: that share does not
depend on the load, and says how much of the scan's work is SHA-256.
The page cache is warm for every tool (exiftool runs first, once untimed), so the
comparison is of work done, not of the disk.
"""
import argparse, json, os, re, shutil, statistics, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
OUT = os.path.join(HERE, "out")
MAKE_ROLL = os.environ.get("SHOEBOX_MAKE_CAMERA_ROLL", os.path.join(ROOT, "scripts", "make-camera-roll"))


def shoebox_bin():
    b = os.environ.get("SHOEBOX_BIN") or os.path.join(ROOT, ".build", "release", "shoebox")
    if not os.path.exists(b):
        sys.exit(f"bench: {b} is missing; run `swift build -c release` first")
    return b


def timed(cmd, env=None, cpu=None):
    """(seconds, peak RSS in MiB, stdout) of one run, via GNU time; its CPU seconds appended to `cpu`."""
    t0 = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-f", "%M %U %S", *cmd], capture_output=True, text=True, env=env)
    dt = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit(f"bench: {' '.join(cmd)} failed: {p.stderr[-2000:]}")
    rss_kib, user, system = p.stderr.strip().splitlines()[-1].split()
    if cpu is not None:
        cpu.append(float(user) + float(system))
    return dt, int(rss_kib) / 1024, p.stdout


def sha256_ceiling():
    """Bytes/s of SHA-256 on 16 KiB blocks: one core, and all cores together."""
    def speed(extra):
        p = subprocess.run(["openssl", "speed", "-evp", "sha256", "-bytes", "16384", "-seconds", "3", *extra],
                           capture_output=True, text=True)
        line = [l for l in p.stdout.splitlines() if l.startswith("sha256")][-1]
        return float(re.findall(r"([\d.]+)k", line)[-1]) * 1000
    return speed([]), speed(["-multi", str(os.cpu_count() or 2)])


def read_and_hash(files, runs):
    """Seconds (median of `runs`) for `openssl dgst -sha256` over `files`, one process per core."""
    cores = os.cpu_count() or 2
    shares = [files[i::cores] for i in range(cores)]
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        procs = [subprocess.Popen(["openssl", "dgst", "-sha256", *share], stdout=subprocess.DEVNULL) for share in shares]
        for p in procs:
            p.wait()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


LEFTOVERS = os.path.join(OUT, "leftovers")


def set_aside(path):
    """Moves what a run made (a library, a scratch folder) into bench/out/leftovers/ instead of
    deleting it: on ext4 without a journal (this machine's) the kernel will not reuse an inode
    deleted in the last minute (six while its inode table is unwritten) and walks every such
    inode before it allocates another, so deleting thousands of files makes every benchmark of
    the next minutes that creates files (sidecars, links) pay for them — the scan twice as slow,
    run after run. bench/run deletes the leftovers once every benchmark is over."""
    if not os.path.exists(path):
        return
    os.makedirs(LEFTOVERS, exist_ok=True)
    target = tempfile.mkdtemp(prefix="set-aside-", dir=LEFTOVERS)
    try:
        os.rename(path, os.path.join(target, os.path.basename(path)))
    except OSError:  # another file system: it costs this one nothing
        shutil.rmtree(path, ignore_errors=True)


def scan_floor(roll, files, runs):
    """Median wall seconds of bench/scan_floor.c at each stage (hash, sidecar, links) over the
    roll's files, one thread per core; every run writes into a fresh folder under bench/out/ (on
    the roll's file system), left in place until the end, as the scans' libraries are."""
    exe = os.path.join(OUT, "scan_floor")
    compiler = shutil.which("cc") or shutil.which("clang") or "cc"  # Swift's toolchain brings clang
    subprocess.run([compiler, "-O2", "-I/usr/include/libxml2", "-o", exe, os.path.join(HERE, "scan_floor.c"),
                    "-lcrypto", "-lpthread", "-lexif", "-lxml2", "-lsqlite3"], check=True)
    listing = os.path.join(OUT, "scan_floor.list")
    with open(listing, "w") as f:
        f.write("".join(os.path.relpath(x, roll) + "\n" for x in files))
    scratch = tempfile.mkdtemp(prefix="scan-floor-", dir=OUT)
    medians = {}
    for stage in ("hash", "sidecar", "links", "full"):
        times, cpu = [], []
        for run in range(runs):
            # CPU time (user + system, GNU time) beside the wall: on a loaded machine the ratio of
            # CPU per file is the comparison the load does not move.
            p = subprocess.run(["/usr/bin/time", "-f", "%U %S", exe, listing, os.path.join(scratch, f"{stage}{run}"),
                                str(os.cpu_count() or 2), stage], cwd=roll, capture_output=True, text=True, check=True)
            times.append(float(p.stdout.split()[0]))
            user, system = p.stderr.strip().splitlines()[-1].split()
            cpu.append(float(user) + float(system))
        medians[stage] = statistics.median(times)
        medians[stage + "_cpu"] = statistics.median(cpu)
    return medians, scratch


def make_roll(files, long_side):
    path = os.path.join(OUT, "rolls", f"camera-{files}-{long_side}")
    if not os.path.exists(path + ".manifest.json"):
        shutil.rmtree(path, ignore_errors=True)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        print(f"bench: making a {files}-file roll at {long_side} px (once; cached in {path})", file=sys.stderr)
        subprocess.run([MAKE_ROLL, path, "--count", str(files), "--long-side", str(long_side), "--upscale",
                        "--seed", "3"], check=True, stdout=sys.stderr)
    return path


def media_files(root):
    """The roll's files; not the links of Albums/, which an earlier run's scan made in the cached roll."""
    out = []
    for d, dirs, names in os.walk(root):
        dirs[:] = [x for x in dirs if not x.startswith(".")]
        out += [os.path.join(d, n) for n in names if not n.startswith(".") and not os.path.islink(os.path.join(d, n))]
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", type=int, default=1000)
    ap.add_argument("--long-side", type=int, default=4032)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json")
    ap.add_argument("--roll", help="measure this folder's files instead of a generated roll")
    ap.add_argument("--before", help="another shoebox binary whose cold scan is timed beside this one's")
    a = ap.parse_args()
    sb = shoebox_bin()
    roll = os.path.abspath(a.roll) if a.roll else make_roll(a.files, a.long_side)
    files = media_files(roll)
    total = sum(os.path.getsize(f) for f in files)
    one_core, all_cores = sha256_ceiling()

    # exiftool: one untimed run warms the page cache for everybody.
    subprocess.run(["exiftool", "-json", "-n", "-r", "-q", roll], capture_output=True)
    ex = [timed(["exiftool", "-json", "-n", "-r", "-q", roll])[:2] for _ in range(a.runs)]
    ex_s = statistics.median(t for t, _ in ex)
    dgst_s = read_and_hash(files, max(3, a.runs))
    floor, floor_scratch = scan_floor(roll, files, max(5, a.runs))

    env = dict(os.environ, SHOEBOX_LIBRARY="")
    cold, cold_cpu, before, before_cpu = [], [], [], []
    # Earlier indexes are set aside, not deleted (see set_aside): no first scan of a real
    # library follows the deletion of thousands of files.
    for run in range(a.runs):
        for binary, times, cpu in [(sb, cold, cold_cpu)] + ([(a.before, before, before_cpu)] if a.before else []):
            set_aside(os.path.join(roll, ".shoebox"))
            set_aside(os.path.join(roll, "Albums"))
            subprocess.run([binary, "init", roll], check=True, capture_output=True)
            t, rss, out = timed([binary, "scan", "--library", roll, "--json"], env, cpu)
            report = json.loads(out)
            if report["added"] != len(files) - len([f for f in files if f.endswith(".md")]):
                print(f"bench: warning: {binary} scan added {report['added']} of {len(files)} files", file=sys.stderr)
            times.append((t, rss))
    set_aside(floor_scratch)
    cold_s = statistics.median(t for t, _ in cold)
    cold_rss = max(r for _, r in cold)
    warm = [timed([sb, "scan", "--library", roll, "--json"], env)[:2] for _ in range(max(5, a.runs))]
    warm_s = statistics.median(t for t, _ in warm)
    warm_rss = max(r for _, r in warm)

    r = {
        "files": len(files), "bytes": total, "mb_per_file": total / len(files) / 1e6,
        "sha256_one_core_mb_s": one_core / 1e6, "sha256_all_cores_mb_s": all_cores / 1e6,
        "exiftool_s": ex_s, "exiftool_files_s": len(files) / ex_s, "exiftool_rss_mib": max(x for _, x in ex),
        "cold_s": cold_s, "cold_files_s": len(files) / cold_s, "cold_mb_s": total / cold_s / 1e6,
        "cold_rss_mib": cold_rss, "warm_s": warm_s, "warm_rss_mib": warm_rss,
        "cold_cpu_s": statistics.median(cold_cpu),
        "read_and_hash_s": dgst_s, "read_and_hash_mb_s": total / dgst_s / 1e6,
    }
    for stage in ("hash", "sidecar", "links", "full"):
        seconds = floor[stage]
        r[f"floor_{stage}_s"] = seconds
        r[f"floor_{stage}_cpu_s"] = floor[stage + "_cpu"]
        r[f"floor_{stage}_vs_sha_ceiling"] = total / seconds / all_cores
    r["cold_vs_floor"] = floor["links"] / cold_s
    # The floor's CPU time over the scan's: the share of the floor's speed the scan would have
    # with both given the same cores (what the load does not change).
    r["cold_cpu_vs_floor_cpu"] = floor["links_cpu"] / r["cold_cpu_s"]
    r["cold_vs_full_floor"] = floor["full"] / cold_s
    r["cold_cpu_vs_full_floor_cpu"] = floor["full_cpu"] / r["cold_cpu_s"]
    r["full_floor_vs_floor"] = floor["links"] / floor["full"]
    if before:
        r["before_s"] = statistics.median(t for t, _ in before)
        r["before_cpu_s"] = statistics.median(before_cpu)
        r["before_rss_mib"] = max(x for _, x in before)
        r["before_vs_floor"] = floor["links"] / r["before_s"]
        r["before_cpu_vs_floor_cpu"] = floor["links_cpu"] / r["before_cpu_s"]
    r["cold_vs_exiftool"] = r["cold_files_s"] / r["exiftool_files_s"]
    r["cold_vs_sha_ceiling"] = r["cold_mb_s"] / r["sha256_all_cores_mb_s"]
    r["cold_vs_read_and_hash"] = r["cold_mb_s"] / r["read_and_hash_mb_s"]
    r["read_and_hash_vs_sha_ceiling"] = r["read_and_hash_mb_s"] / r["sha256_all_cores_mb_s"]
    r["cold_mb_per_cpu_s"] = total / r["cold_cpu_s"] / 1e6
    r["cold_cpu_vs_one_core"] = r["cold_mb_per_cpu_s"] / r["sha256_one_core_mb_s"]
    if a.json:
        with open(a.json, "w") as f:
            json.dump(r, f, indent=1)
    print(f"| scan, cold ({r['files']} files, {r['mb_per_file']:.1f} MB each) | {r['cold_files_s']:.0f} files/s, "
          f"{r['cold_mb_s']:.0f} MB/s, {r['cold_s']:.2f} s, peak RSS {r['cold_rss_mib']:.0f} MiB "
          f"| exiftool -json -n -r: {r['exiftool_files_s']:.0f} files/s ({r['exiftool_s']:.2f} s) "
          f"| **{r['cold_vs_exiftool']:.1f}×** exiftool |")
    print(f"| scan, cold: hashing throughput | {r['cold_mb_s']:.0f} MB/s | SHA-256 ceiling (openssl, "
          f"{os.cpu_count()} cores): {r['sha256_all_cores_mb_s']:.0f} MB/s (1 core: {r['sha256_one_core_mb_s']:.0f}) "
          f"| **{100 * r['cold_vs_sha_ceiling']:.0f} %** of ceiling |")
    print(f"| scan, cold: beside reading and hashing the same files | {r['cold_mb_s']:.0f} MB/s "
          f"| `openssl dgst -sha256`, {os.cpu_count()} processes: {r['read_and_hash_mb_s']:.0f} MB/s "
          f"({100 * r['read_and_hash_vs_sha_ceiling']:.0f} % of the ceiling) | **{100 * r['cold_vs_read_and_hash']:.0f} %** of it |")
    print(f"| scan, cold: beside the floor (read, hash, sidecar, 2 album links; C, {os.cpu_count()} threads) "
          f"| {r['cold_s']:.2f} s | floor: {r['floor_links_s']:.2f} s = {100 * r['floor_links_vs_sha_ceiling']:.0f} % of the ceiling "
          f"(hash only {100 * r['floor_hash_vs_sha_ceiling']:.0f} %, + sidecars {100 * r['floor_sidecar_vs_sha_ceiling']:.0f} %) "
          f"| **{100 * r['cold_vs_floor']:.0f} %** of the floor's speed |")
    if before:
        print(f"| scan, cold, before (`{a.before}`, runs alternating with the above) | {r['before_s']:.2f} s, "
              f"{r['before_cpu_s']:.2f} s CPU, peak RSS {r['before_rss_mib']:.0f} MiB | floor: {r['floor_links_s']:.2f} s "
              f"| **{100 * r['before_vs_floor']:.0f} %** of the floor's speed |")
    print(f"| scan, cold: CPU time | {r['cold_cpu_s']:.2f} s user + system, {r['cold_mb_per_cpu_s']:.0f} MB per CPU-second "
          f"| SHA-256 on one core (openssl): {r['sha256_one_core_mb_s']:.0f} MB/s "
          f"| SHA-256 at openssl's speed would be {100 * r['cold_cpu_vs_one_core']:.0f} % of the scan's CPU time |")
    print(f"| scan, cold: CPU time beside the floor's | {r['cold_cpu_s']:.2f} s CPU "
          f"| floor (links stage): {r['floor_links_cpu_s']:.2f} s CPU "
          f"| **{100 * r['cold_cpu_vs_floor_cpu']:.0f} %** of the floor's speed by CPU"
          + (f" (before: {100 * r['before_cpu_vs_floor_cpu']:.0f} %)" if before else "") + " |")
    print(f"| scan, cold: beside the full-work floor (+ EXIF, XMP, durable batches, SQLite rows, numbered albums; C) | {r['cold_s']:.2f} s, "
          f"{r['cold_cpu_s']:.2f} s CPU | full-work floor: {r['floor_full_s']:.2f} s, {r['floor_full_cpu_s']:.2f} s CPU = "
          f"{100 * r['full_floor_vs_floor']:.0f} % of the floor's speed | **{100 * r['cold_vs_full_floor']:.0f} %** of its speed, "
          f"{100 * r['cold_cpu_vs_full_floor_cpu']:.0f} % by CPU |")
    print(f"| scan, warm (nothing changed, process start included) | {r['warm_s'] * 1000:.0f} ms, peak RSS "
          f"{r['warm_rss_mib']:.0f} MiB | — | goal < 200 ms |")


if __name__ == "__main__":
    main()
