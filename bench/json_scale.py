#!/usr/bin/env python3
"""Every large `--json` on 100,000 assets: wall time and peak RSS (issue 33's goal: under 1 s).

    bench/json_scale.py [--assets N] [--quick] [--runs R] [--before BIN] [--json OUT] [--row]

The library is bench/tidy.py's: N synthetic index rows (capture times over 16 years, bursts,
byte and re-encoded copies, screenshots, videos; no files), then, in the same run:
`tidy filter all` (a session over everything), `tidy delete` and `tidy maybe` of 300 items,
`curate add --year` of the largest year (whose album `album show` prints). Each command's `--json` goes to /dev/null, timed from
here (median of R) with its CPU time (user + system) and peak RSS from GNU time (`/usr/bin/time
-v`). The goal (< 1 s) is judged on CPU time: on this shared 2-core machine the wall time is
mostly other people's builds; `shoebox --version`'s CPU, measured in the same run, is printed
beside it (process start-up, being removed separately). `--before BIN`: the same commands by another build on the same library, one after the
other, and their outputs compared byte for byte with this build's (any difference stops the run).
"""
import argparse, json, os, sqlite3, statistics, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import tidy as tidybench  # make_library, shoebox_bin
import scan as scanbench  # set_aside


def run(cmd, stdout=subprocess.DEVNULL):
    """(wall seconds, CPU seconds, peak RSS in MiB) of one run."""
    t0 = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-v", *cmd], stdout=stdout, stderr=subprocess.PIPE, text=True)
    dt = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit(f"bench: {' '.join(cmd)} failed: {p.stderr[-2000:]}")
    field = lambda name: next(l.split(": ")[1] for l in p.stderr.splitlines() if name in l)
    cpu = float(field("User time (seconds)")) + float(field("System time (seconds)"))
    return dt, cpu, int(field("Maximum resident set size")) / 1024


def measure(binary, lib, args, runs):
    """(median wall, median CPU, max peak RSS) of `runs` runs."""
    rs = [run([binary, "--library", lib, *args, "--json"]) for _ in range(runs)]
    return statistics.median(r[0] for r in rs), statistics.median(r[1] for r in rs), max(r[2] for r in rs)


def startup_cpu(binary, runs):
    return statistics.median(run([binary, "--version"])[1] for _ in range(max(runs, 3)))


def output(binary, lib, args):
    return subprocess.run([binary, "--library", lib, *args, "--json"], check=True, capture_output=True).stdout


def prepare(lib, sb):
    """A tidy session with marks and maybes, and a curation list of the largest year."""
    def ok(*args):
        subprocess.run([sb, "--library", lib, *args], check=True, capture_output=True)
    ok("tidy", "filter", "all")
    for i in range(300):
        ok("tidy", "delete" if i % 2 == 0 else "maybe")
    db = sqlite3.connect(os.path.join(lib, ".shoebox", "index.sqlite"))
    y = db.execute("SELECT year FROM asset WHERE year IS NOT NULL GROUP BY year ORDER BY count(*) DESC LIMIT 1").fetchone()[0]
    db.close()
    ok("curate", "add", "--year", str(y))
    return {"name": f"Years/{y}"}


def commands(year):
    return [
        ("list", ["list"]),
        ("tidy similar", ["tidy", "similar"]),
        ("tidy list", ["tidy", "list"]),
        ("tidy list --all", ["tidy", "list", "--all"]),
        ("tidy trash", ["tidy", "trash"]),
        ("tidy maybes", ["tidy", "maybes"]),
        (f"album show {year['name']}", ["album", "show", year["name"]]),
        ("album list", ["album", "list"]),
        ("curate list", ["curate", "list"]),
        ("memories sources", ["memories", "sources"]),
    ]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--assets", type=int)
    ap.add_argument("--quick", action="store_true", help="10,000 assets")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--before", help="another build of shoebox, measured on the same library")
    ap.add_argument("--json")
    ap.add_argument("--row", action="store_true")
    ap.add_argument("--dir", help="make the library under DIR instead of bench/out (a folder in no library)")
    a = ap.parse_args()
    if a.dir:
        tidybench.OUT = a.dir
    n = a.assets or (10_000 if a.quick else 100_000)
    sb = tidybench.shoebox_bin()
    lib, _, _ = tidybench.make_library(n)
    year = prepare(lib, sb)
    out = {"assets": n, "commands": []}
    for name, args in commands(year):
        size = len(output(sb, lib, args))
        after = measure(sb, lib, args, a.runs)
        row = {"command": name, "bytes": size, "s": after[0], "cpu_s": after[1], "rss_mib": after[2]}
        if a.before:
            if output(a.before, lib, args) != output(sb, lib, args):
                sys.exit(f"bench: `{name} --json` differs between {a.before} and {sb}")
            row["before_s"], row["before_cpu_s"], row["before_rss_mib"] = measure(a.before, lib, args, a.runs)
        out["commands"].append(row)
    out["startup_cpu_s"] = startup_cpu(sb, a.runs)
    scanbench.set_aside(lib)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f, indent=1)
    start = out["startup_cpu_s"]
    for r in out["commands"]:
        before = (f"before: {r['before_cpu_s']:.2f} s CPU ({r['before_s']:.2f} s wall), {r['before_rss_mib']:.0f} MiB; same bytes"
                  if "before_s" in r else "—")
        cpu = r["cpu_s"]
        goal = "goal < 1 s CPU: " + ("met" if cpu < 1 else f"missed by {cpu - 1:.2f} s") + f" (start-up {start:.2f} s of it)"
        print(f"| json: `{r['command']} --json` ({n:,} assets, {r['bytes'] / 1e6:.1f} MB) | {cpu:.2f} s CPU "
              f"({r['s']:.2f} s wall), peak RSS {r['rss_mib']:.0f} MiB | {before} | {goal} |")


if __name__ == "__main__":
    main()
