#!/usr/bin/env python3
"""What a long tidy session's state file costs every tidy command (issue 28).

A valid `.shoebox/tidy.json` of SIZE MB (a session of that many decisions, each by reference,
round the library's assets; marks with their before and after, as Shoebox writes them) is put in
a copy of LIBRARY, then `shoebox tidy status` runs under `/usr/bin/time -v`: wall time and
peak memory. Before issue 28 every change was kept and read whole by every command; now the
session keeps its last 1,000 (a larger file than 8 MB is refused as damaged, in one line).

    python3 bench/tidy_state.py --library LIB [--binary .build/debug/shoebox] [--mb 97 7.5 0.4]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import tempfile


def shoebox(binary, library, *args):
    return subprocess.run([binary, *args, "--library", library], capture_output=True, text=True)


def long_session(state, ids, target_bytes):
    """`state` with decide changes appended until its file is about `target_bytes`."""
    session = state["session"]
    def mark(n, decision):
        return {"at": "2026-11-26T11:%02d:%02d.000Z" % (n // 60 % 60, n % 60), "decision": decision, "session": session}
    one = {"kind": "decide", "positionBefore": 0, "positionAssetsBefore": 0,
           "marks": [{"id": ids[0], "from": mark(0, "keep"), "to": mark(1, "maybe")}]}
    per_change = len(json.dumps(one, indent=2).replace("\n", "\n    ")) + 2
    count = max(1, int((target_bytes - len(json.dumps(state, indent=2))) / per_change))
    log = []
    for n in range(count):
        decisions = ("keep", "maybe") if n // len(ids) % 2 == 0 else ("maybe", "keep")
        first = n < len(ids)
        log.append({"kind": "decide", "positionBefore": 0, "positionAssetsBefore": 0,
                    "marks": [{"id": ids[n % len(ids)], **({} if first else {"from": mark(n, decisions[1])}),
                               "to": mark(n, decisions[0])}]})
    return dict(state, log=log)


def timed(binary, library):
    r = subprocess.run(["/usr/bin/time", "-v", binary, "tidy", "status", "--library", library],
                       capture_output=True, text=True)
    wall = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)", r.stderr)
    seconds = (int(wall.group(1) or 0) * 3600 + int(wall.group(2)) * 60 + float(wall.group(3))) if wall else float("nan")
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", r.stderr).group(1)) / 1024
    said = [l for l in r.stderr.splitlines() if l.startswith("shoebox")]
    return seconds, rss, r.returncode, said[0] if said else ""


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--library", required=True, help="a scanned library (copied, never changed)")
    p.add_argument("--binary", default=".build/debug/shoebox")
    p.add_argument("--mb", type=float, nargs="+", default=[97, 7.5, 0.4])
    a = p.parse_args()
    work = tempfile.mkdtemp(prefix="shoebox-tidy-state-")
    library = os.path.join(work, "library")
    shutil.copytree(a.library, library, symlinks=True)
    try:
        shoebox(a.binary, library, "tidy", "filter", "all")
        ids = sorted(x["id"] for x in json.loads(shoebox(a.binary, library, "list", "--json").stdout))
        path = os.path.join(library, ".shoebox", "tidy.json")
        with open(path) as f:
            state = json.load(f)
        for mb in a.mb:
            with open(path, "w") as f:
                json.dump(long_session(state, ids, int(mb * 1e6)), f, indent=2)
            size = os.path.getsize(path) / 1e6
            seconds, rss, status, said = timed(a.binary, library)
            print(f"tidy.json {size:6.1f} MB: tidy status {seconds:6.2f} s, {rss:6.0f} MB peak, exit {status}"
                  + (f" — {said[:110]}" if status else ""))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
