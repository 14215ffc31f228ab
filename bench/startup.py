#!/usr/bin/env python3
"""How long the everyday commands take to start (issue 33), beside `sqlite3 :memory: 'select 1'`.

    bench/startup.py [--quick] [--runs R] [--json OUT] [--row] [--before OTHER_SHOEBOX]

On a scanned copy of sample-library/ (a tidy session started, one tracker project), hyperfine
times in one run (-N: no shell; 3 warm-ups; R runs, default 30, --quick 15):
  - `sqlite3 :memory: 'select 1'`: a C program that opens a database, the yardstick;
  - `shoebox --version`, `list --limit 50`, `show ID`, `tidy next`, `curate list`,
    `tracker project list`, `album list`, `trash list`: the commands `shoebox` runs itself;
  - `shoebox-pixels --version`: the same start with the pixel stack loaded (what every command
    cost before the split);
  - `shoebox-readers --version`: with the image codecs only (where scan, rebuild and doctor run).
Peak RSS of each: GNU time's maximum resident set size, median of 5. Goals: each everyday
command ≤ 12× sqlite3's time and < 20 ms, < 25 MB. Release build (bench/run builds it).
--before OTHER_SHOEBOX: the everyday commands of another build too, in the same hyperfine run
(keys "before: …" in the JSON; the row is this build's): a change's before and after.
"""
import argparse, json, os, shutil, statistics, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def binaries():
    b = os.environ.get("SHOEBOX_BIN") or os.path.join(ROOT, ".build", "release", "shoebox")
    pixels = os.path.join(os.path.dirname(b), "shoebox-pixels")
    readers = os.path.join(os.path.dirname(b), "shoebox-readers")
    for path in (b, pixels, readers):
        if not os.access(path, os.X_OK):
            sys.exit(f"bench: {path} not built (swift build -c release --product shoebox --product shoebox-readers "
                     "--product shoebox-pixels)")
    return b, pixels, readers


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        sys.exit(f"bench: {' '.join(cmd[:6])}… failed: {p.stderr[-1500:]}")
    return p.stdout


def make_library(shoebox, work):
    lib = os.path.join(work, "library")
    shutil.copytree(os.path.join(ROOT, "sample-library"), lib, symlinks=True)
    env = dict(os.environ, SHOEBOX_LIBRARY="")
    for args in (["init", lib], ["scan", "--library", lib], ["tidy", "filter", "all", "--library", lib],
                 ["tracker", "project", "add", "--game-system", "40k", "--army", "Bench", "--library", lib]):
        run([shoebox, *args], env=env)
    first = json.loads(run([shoebox, "list", "--library", lib, "--limit", "1", "--json"], env=env))[0]["id"]
    return lib, first


def peak_rss_mib(cmd):
    values = []
    for _ in range(5):
        p = subprocess.run(["/usr/bin/time", "-f", "%M", *cmd], capture_output=True, text=True)
        values.append(int(p.stderr.strip().splitlines()[-1]) / 1024)
    return statistics.median(values)


def measure(a):
    shoebox, pixels, readers = binaries()
    work = tempfile.mkdtemp(prefix="shoebox-startup-")
    try:
        lib, asset = make_library(shoebox, work)
        everyday = {
            "--version": [shoebox, "--version"],
            "list --limit 50": [shoebox, "list", "--library", lib, "--limit", "50"],
            "show ID": [shoebox, "show", asset, "--library", lib],
            "tidy next": [shoebox, "tidy", "next", "--library", lib],
            "curate list": [shoebox, "curate", "list", "--library", lib],
            "tracker project list": [shoebox, "tracker", "project", "list", "--library", lib],
            "album list": [shoebox, "album", "list", "--library", lib],
            "trash list": [shoebox, "trash", "list", "--library", lib],
        }
        commands = {"sqlite3": ["sqlite3", ":memory:", "select 1"], **everyday,
                    "shoebox-readers --version": [readers, "--version"], "shoebox-pixels --version": [pixels, "--version"]}
        if a.before:
            commands.update({f"before: {n}": [a.before, *c[1:]] for n, c in everyday.items()})
        out = os.path.join(work, "hyperfine.json")
        cmdlines = [" ".join(f"'{w}'" if " " in w else w for w in c) for c in commands.values()]
        subprocess.run(["hyperfine", "-N", "--warmup", "3", "--runs", str(a.runs), "--export-json", out, *cmdlines],
                       check=True, capture_output=True, env=dict(os.environ, SHOEBOX_LIBRARY=""))
        results = json.load(open(out))["results"]
        ms = {name: r["mean"] * 1000 for name, r in zip(commands, results)}
        cpu = {name: (r["user"] + r["system"]) * 1000 for name, r in zip(commands, results)}
        rss = {name: peak_rss_mib(c) for name, c in commands.items() if name != "sqlite3"}
        return {"mean_ms": ms, "cpu_ms": cpu, "peak_rss_mib": rss, "runs": a.runs, "everyday": list(everyday)}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def row(r):
    ms, cpu, rss, every = r["mean_ms"], r["cpu_ms"], r["peak_rss_mib"], r["everyday"]
    worst = max(every, key=lambda n: ms[n])
    worst_rss = max(rss[n] for n in every)
    ratio = ms[worst] / ms["sqlite3"]
    each = ", ".join(f"{n} {ms[n]:.1f}" for n in every)
    verdict = (f"≤ 12× sqlite3: {'met' if ratio <= 12 else f'NOT MET ({ratio:.1f}×)'}; "
               f"< 20 ms: {'met' if ms[worst] < 20 else f'NOT MET ({ms[worst]:.1f} ms)'}; "
               f"< 25 MB: {'met' if worst_rss * 1.048576 < 25 else f'NOT MET ({worst_rss * 1.048576:.1f} MB)'}")
    return (f"| start-up of the everyday commands (`shoebox`, mean of {r['runs']} runs, ms) | {each}; "
            f"slowest **{ms[worst]:.1f} ms** ({cpu[worst]:.1f} ms CPU), peak RSS ≤ {worst_rss:.1f} MiB "
            f"| `sqlite3 :memory: 'select 1'`: {ms['sqlite3']:.1f} ms ({cpu['sqlite3']:.1f} ms CPU); with the pixel stack "
            f"(`shoebox-pixels --version`): {ms['shoebox-pixels --version']:.1f} ms, {rss['shoebox-pixels --version']:.0f} MiB; "
            f"with the readers (`shoebox-readers --version`, where scan runs): {ms['shoebox-readers --version']:.1f} ms, "
            f"{rss['shoebox-readers --version']:.0f} MiB "
            f"| {ratio:.1f}× sqlite3; {verdict} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--runs", type=int)
    ap.add_argument("--json")
    ap.add_argument("--row", action="store_true")
    ap.add_argument("--before", help="another build's shoebox, measured in the same run")
    a = ap.parse_args()
    a.runs = a.runs or (15 if a.quick else 30)
    r = measure(a)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(r, f, indent=1)
    print(row(r) if a.row else json.dumps(r, indent=1))


if __name__ == "__main__":
    main()
