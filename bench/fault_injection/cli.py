"""bench/faults.py's command line: the flags, the runs of the chosen scenario, the summary lines
and the benchmark table's row."""
import argparse, json, os, random, shutil, sys, tempfile, time, traceback

from .common import COUNTERS, NOTES, OTHER, ROOT, default_shoebox
from .harness import Harness

OPERATIONS = "trash, restore, purge, albums, scan, rebuild, watch, analyze, cache, people, curate, tidy, tracker, memories, compose, web"


def arguments(doc):
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--shoebox", default=os.environ.get("SHOEBOX_BIN") or default_shoebox())
    ap.add_argument("--roll", default=os.path.join(ROOT, "sample-library"))
    ap.add_argument("--work", help="work folder (default: a new one under $TMPDIR, deleted when all went well)")
    ap.add_argument("--quick", action="store_true",
                    help="12 runs (CI); with --after-kill, scan and people name killed (the quick set)")
    ap.add_argument("--only", help="comma-separated operations to draw from (e.g. tidy,trash), to hammer one feature; "
                                         "web-tidy, web-curate, web-compose: the web server's Tidy, Curation or composer requests alone")
    ap.add_argument("--reset-every", type=int, default=None, help="runs between full restore checks (default 25; 6 with --quick)")
    ap.add_argument("--syscall-share", type=float, default=0.5,
                    help="share of the kills made on entry to a chosen write call via strace, when strace can "
                         "trace here (default 0.5; 0: every kill is timed)")
    ap.add_argument("--after-kill", action="store_true",
                    help="the other scenario: each writing command killed at a write, then each other writing "
                         "command run first (before any scan); needs strace")
    ap.add_argument("--killed", help="with --after-kill: comma-separated names of the commands to kill (default: "
                                     "all; --quick: the quick set)")
    ap.add_argument("--first", help="with --after-kill: comma-separated names of the commands run first (default: all)")
    ap.add_argument("--quiet", action="store_true", help="print only failures and the summary")
    ap.add_argument("--json", help="write the summary as JSON to this file")
    ap.add_argument("--row", action="store_true",
                    help="for bench/run: everything on stderr, and one row of the benchmark table on stdout")
    return ap.parse_args()


def main(doc):
    a = arguments(doc)
    real_stdout = sys.stdout
    if a.row:
        sys.stdout = sys.stderr
    if a.seed is None:
        a.seed = random.randrange(1 << 30)
    if not os.path.exists(a.shoebox):
        sys.exit(f"faults: {a.shoebox} is missing; run `swift build -c release` first (or pass --shoebox)")
    own_work = a.work is None
    a.work = os.path.abspath(a.work or tempfile.mkdtemp(prefix="shoebox-faults-"))
    os.makedirs(a.work, exist_ok=True)
    if a.after_kill:
        from .after_kill import run_after_kill
        failed, lib = run_after_kill(a, real_stdout)
    else:
        failed, lib = run_random(a, real_stdout)
    if failed:
        print(f"faults: the library is kept in {lib}", file=sys.stderr)
        sys.exit(1)
    if own_work:
        shutil.rmtree(a.work, ignore_errors=True)


def run_random(a, real_stdout):
    """The random scenario: N kills of operations drawn by weight. Returns (violated, library)."""
    if a.quick:
        a.runs = 12
    reset_every = a.reset_every or (6 if a.quick else 25)
    print(f"faults: seed {a.seed}, {a.runs} runs, {a.shoebox}", file=sys.stderr)
    t0 = time.perf_counter()
    h = Harness(a)
    h.setup()
    for run in range(1, a.runs + 1):
        try:
            h.one_run(run)
            if run % reset_every == 0 or run == a.runs:
                h.full_reset_check(f"full reset after run {run}")
        except Exception:  # noqa: BLE001 — a command that fails under the harness is reported, and the runs go on
            h.counts["harness_errors"] += 1
            h.failed_runs += 1
            print(f"faults: run {run}: FAILED (harness error)\n" + traceback.format_exc(), file=sys.stderr)
    seconds = time.perf_counter() - t0
    violations = sum(h.counts[k] for k in COUNTERS + OTHER)
    r = {"runs": a.runs, "kills": h.kills, **{k: h.counts[k] for k in COUNTERS}, "seconds": round(seconds, 1),
         "seed": a.seed, "ops": dict(sorted(h.ops.items())), "kills_at_a_write_call": h.at_write,
         "timed_kills_after_first_write": h.mid_write, "strace": h.strace,
         "other": {k: h.counts[k] for k in OTHER}, "notes": {k: h.counts[k] for k in NOTES}, "failed_runs": h.failed_runs,
         "originals": sum(h.expected.values()), "files_made": h.made, "shoebox": a.shoebox,
         "web_upload_phases": h.web_phases, "web_failures": h.web_failures,
         "upload_temporaries_left": len(h.web_temporaries_now)}
    if a.json:
        with open(a.json, "w") as f:
            json.dump(r, f, indent=1)
    if a.row:
        lost = sum(h.counts[k] for k in COUNTERS)
        print(f"| fault injection: kill -9 during {a.only.replace(',', ', ') if a.only else OPERATIONS} ({a.runs:,} runs) "
              f"| {h.kills:,} kills ({h.at_write:,} on entry to a write call), "
              + ", ".join(f"{k.replace('_', ' ')} {h.counts[k]}" for k in COUNTERS)
              + f", other violations {violations}; {seconds:.0f} s | no comparison tool kills a photo manager mid-write "
              f"| goal 0 lost, 0 violations: {'met' if lost == 0 and violations == 0 else 'NOT MET'} |", file=real_stdout)
    print("faults: per operation: runs/kills (at a write call, timed after the first write): "
          + " ".join(f"{k}={v['runs']}/{v['kills']}" + (f"({v['at_write']},{v['timed_after_write']})" if k != "watch" else "")
                     for k, v in sorted(h.ops.items()))
          + " | " + " ".join(f"{k}={h.counts[k]}" for k in OTHER)
          + " | notes (not violations): " + " ".join(f"{k}={h.counts[k]}" for k in NOTES)
          + (" | web uploads: " + ", ".join(f"{k} {v}" for k, v in sorted(h.web_phases.items()))
             + f"; temporaries left {len(h.web_temporaries_now)}" if h.web_phases else "")
          + f" | seed={a.seed}")
    print(f"faults: runs={a.runs} kills={h.kills} " + " ".join(f"{k}={h.counts[k]}" for k in COUNTERS)
          + f" seconds={seconds:.0f}")
    if violations:
        print(f"faults: {h.failed_runs} runs failed", file=sys.stderr)
    return violations > 0, h.lib
