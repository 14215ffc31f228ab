"""The after-kill scenario (issue 28's "Done when"): each writing command is killed at a write
(after_kill_trace says where), and on what the kill left each OTHER writing command is run first,
before any scan; then `scan` and the checks of after_kill_checks. Every pair starts from the same
template, at the same path (a .trashinfo names its library's folder): the originals are hard
links (the index's inodes hold), the files Shoebox owns are copies."""
import json, os, random, shutil, signal, subprocess, sys, time

from .after_kill_cast import Cast
from .after_kill_checks import AfterKillChecks
from .after_kill_trace import kill_point, write_calls
from .after_kill_web import AfterKillWeb
from .common import WRITES, usable_strace, was_killed
from .library import LibraryAccess

# --quick: the two kills issue 28 names. `scan` (after three new photos' sidecars) against every
# other command; `people name` (after its sidecars) against those that write asset records, and
# one command of each other family; and `web upload` (the server, after its sidecar) against a
# scan, a CLI change, watch and another web change.
QUICK = {"scan": None,
         "people name": ("trash", "restore", "trash purge", "rebuild", "analyze", "cache clear", "album create",
                         "tidy empty", "curate add", "compose export --save", "memories collage --save",
                         "tracker photo add", "watch"),
         "web upload": ("scan", "trash", "watch", "web trash")}
VIOLATIONS = ("replay_lost", "second_ids", "doctor_failures", "rebuild_drift", "upload_partial", "scan_failures", "crashes",
              "harness_errors")
OWNED = (".shoebox", "Tracker", "Recently Deleted/info")  # copied for each pair, not linked
STARTED = "reconciled by a scan (start-up)"                # watch's line once its start-up scan is done


class AfterKill(LibraryAccess, Cast, AfterKillChecks, AfterKillWeb):
    def __init__(self, a):
        self.a = a
        self.sb = os.path.abspath(a.shoebox)
        self.rng = random.Random(a.seed)
        self.work = os.path.join(a.work, "after-kill")
        self.lib = os.path.join(self.work, "library")
        self.template = os.path.join(self.work, "template")
        self.killed = os.path.join(self.work, "killed")
        self.outside = os.path.join(self.work, "outside")
        self.logs = os.path.join(self.work, "logs")
        self.env = {k: v for k, v in os.environ.items() if k not in ("SHOEBOX_LIBRARY", "SHOEBOX_NOW")}
        self.strace = usable_strace()
        self.hash_cache, self.expected, self.ids, self.jpegs, self.made, self.assets = {}, {}, {}, [], 0, []
        self.counts = dict.fromkeys(VIOLATIONS, 0)   # pairs (or un-killed runs) with each kind of violation
        self.pairs = self.kills = self.failed = 0
        self.refusals = []                            # (killed, first, exit status, its last line): not violations
        self.findings = []                            # every failed pair, for --json

    # ---- libraries

    def prepare(self):
        shutil.rmtree(self.work, ignore_errors=True)
        os.makedirs(self.logs)
        self.build_template()
        os.rename(self.lib, self.template)
        self.template_files = self.manifest(self.template)

    def manifest(self, root):
        """path → (size, mtime, inode) of every file under `root`."""
        out = {}
        for d, _, names in os.walk(root):
            for n in names:
                st = os.lstat(os.path.join(d, n))
                out[os.path.relpath(os.path.join(d, n), root)] = (st.st_size, st.st_mtime_ns, st.st_ino)
        return out

    def check_template(self):
        """A command that wrote into a file in place would have changed the template through its
        hard link (every later pair would start from that): the template must be as it was made."""
        now = self.manifest(self.template)
        changed = sorted(p for p in set(now) | set(self.template_files) if now.get(p) != self.template_files.get(p))
        if changed:
            self.harness_error(f"the template changed through a hard link: {', '.join(changed[:5])}")

    def copy_from(self, source):
        """A fresh library at self.lib: `source`'s originals hard-linked, the files Shoebox owns copied."""
        shutil.rmtree(self.lib, ignore_errors=True)
        subprocess.run(["cp", "-a", "--link", source, self.lib], check=True)
        for d in OWNED:
            if os.path.lexists(os.path.join(source, d)):
                shutil.rmtree(os.path.join(self.lib, d))
                subprocess.run(["cp", "-a", os.path.join(source, d), os.path.join(self.lib, d)], check=True)
        shutil.rmtree(self.outside, ignore_errors=True)
        os.makedirs(self.outside)

    # ---- running one command (watch: until its start-up scan is done, then SIGTERM)

    def launch(self, cmd, trace=None, inject=None):
        """Runs `cmd` (under strace when `trace`); returns (exit status, its stderr)."""
        argv = self.cmd(*cmd.args(self.outside))
        if trace:
            argv = [self.strace, "-f", "-qq", "-y", "-s", "200", "-o", trace, "-e", "trace=" + ",".join(WRITES)] \
                + (["-e", f"inject={inject[0]}:signal=SIGKILL:when={inject[1]}"] if inject else []) + argv
        log = os.path.join(self.logs, "command.log")
        env = dict(self.env, **(cmd.env or {}))
        if cmd.family == "web":
            return self.launch_web(cmd, argv, env, log)
        with open(log, "w") as f:
            p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=f, env=env)
            if cmd.family == "watch":
                self.stop_watch(p, log, traced=bool(trace))
            p.wait()
        with open(log, errors="replace") as f:
            return p.returncode, f.read()

    def stop_watch(self, p, log, traced):
        t0 = time.perf_counter()
        while p.poll() is None and STARTED not in open(log, errors="replace").read():
            if time.perf_counter() - t0 > 60:
                break
            time.sleep(0.01)
        if p.poll() is None:
            pid = p.pid
            if traced:  # the watcher is strace's child
                with open(f"/proc/{p.pid}/task/{p.pid}/children") as f:
                    children = f.read().split()
                pid = int(children[0]) if children else None
            if pid:
                os.kill(pid, signal.SIGTERM)
        try:
            p.wait(timeout=60)
        except subprocess.TimeoutExpired:
            p.kill()

    # ---- the scenario

    def calibrate(self, cmd):
        """An un-killed run of `cmd` under strace on a fresh template: where to kill it (or None),
        and the checks, which must pass without any kill."""
        self.copy_from(self.template)
        trace = os.path.join(self.logs, "calibrate.strace")
        status, err = self.launch(cmd, trace=trace)
        if status != 0:
            self.harness_error(f"`{cmd.name}` fails on the template, not killed ({status}): {err.strip()[-400:]}")
            return None
        calls = write_calls(trace, self.lib)
        self.run("scan", check=False)
        problems = self.after_kill_checks({}, cmd)
        if problems:
            self.report(cmd, None, "without a kill", problems)
        point = kill_point(calls)
        if point is None:
            print(f"faults: after-kill: `{cmd.name}` wrote nothing on the template: not killed", file=sys.stderr)
        return point

    def kill(self, cmd, point):
        """`cmd` killed on a fresh template; what the kill left moved to self.killed. Returns the
        killed batch (id → its sidecar's asset, for the ids its journal names) or None."""
        self.copy_from(self.template)
        status, err = self.launch(cmd, trace="/dev/null", inject=point[:2])
        if not was_killed(status):
            print(f"faults: after-kill: `{cmd.name}` was not killed {point[2]} (exit {status}): its pairs are skipped",
                  file=sys.stderr)
            return None
        self.kills += 1
        batch = self.read_sidecars(self.journal_ids())
        changed = sum(1 for i in self.read_sidecars() if not os.path.exists(os.path.join(self.template, ".shoebox/sidecars", i + ".json"))
                      or self.sidecar_bytes(self.lib, i) != self.sidecar_bytes(self.template, i))
        if not self.a.quiet:
            print(f"faults: after-kill: `{cmd.name}` killed {point[2]}; journal of {len(batch)} ids, "
                  f"{changed} sidecars new or changed", file=sys.stderr)
        shutil.rmtree(self.killed, ignore_errors=True)
        os.rename(self.lib, self.killed)
        return batch

    def sidecar_bytes(self, library, id_):
        with open(os.path.join(library, ".shoebox/sidecars", id_ + ".json"), "rb") as f:
            return f.read()

    def pair(self, killed, where, batch, first):
        """On a copy of what the kill left: `first`, then scan, then the checks."""
        self.copy_from(self.killed)
        self.pairs += 1
        status, err = self.launch(first)
        problems = []
        if status < 0 or status >= 128:
            problems.append(("crashes", f"`{first.name}` ended by signal ({status}): {err.strip()[-300:]}"))
        elif status != 0:
            self.refusals.append((killed.name, first.name, status, err.strip().splitlines()[-1:]))
        s = self.run("scan", check=False)
        if s.returncode != 0:
            problems.append(("scan_failures", f"scan exited {s.returncode}: {s.stderr.strip()[-300:]}"))
        problems += self.after_kill_checks(batch, first)
        if problems:
            self.report(killed, first, where, problems)
        elif not self.a.quiet:
            print(f"faults: after-kill: `{killed.name}` killed, then `{first.name}`: ok", file=sys.stderr)

    def report(self, killed, first, where, problems):
        self.failed += 1
        for counter in sorted({c for c, _ in problems}):
            self.counts[counter] += 1
        then = f", then `{first.name}` first" if first else ""
        print(f"faults: after-kill: `{killed.name}` {where}{then}: FAILED\n    "
              + "\n    ".join(f"{c}: {t}" for c, t in problems), file=sys.stderr)
        self.findings.append({"killed": killed.name, "where": where, "first": first.name if first else None,
                              "problems": [f"{c}: {t}" for c, t in problems]})

    def harness_error(self, text):
        self.counts["harness_errors"] += 1
        self.failed += 1
        print(f"faults: after-kill: FAILED (harness): {text}", file=sys.stderr)

    def selected(self, wanted):
        """The commands named (all of them for None), in the template's order."""
        unknown = set(wanted or ()) - {c.name for c in self.commands}
        if unknown:
            sys.exit(f"faults: after-kill: unknown command(s) {', '.join(sorted(unknown))}; known: "
                     + ", ".join(c.name for c in self.commands))
        return [c for c in self.commands if wanted is None or c.name in wanted]

    def plan(self):
        """[(command killed, [commands run first])]: --killed and --first, else the quick set
        (--quick) or every command against every other."""
        if self.a.killed or self.a.first or not self.a.quick:
            firsts = self.selected(self.a.first.split(",") if self.a.first else None)
            killed = self.selected(self.a.killed.split(",") if self.a.killed else None)
            return [(k, firsts) for k in killed]
        return [(k, self.selected(QUICK[k.name])) for k in self.selected(list(QUICK))]

    def run_all(self):
        plan = self.plan()
        for k, firsts in plan:
            point = self.calibrate(k)
            batch = self.kill(k, point) if point else None
            if batch is None:
                continue
            for f in firsts:
                if f.name != k.name:
                    self.pair(k, "killed " + point[2], batch, f)
        shutil.rmtree(self.lib, ignore_errors=True)
        self.check_template()
        return plan


def run_after_kill(a, real_stdout):
    """The after-kill scenario, from bench/faults.py --after-kill. Returns (violated, work folder)."""
    t0 = time.perf_counter()
    h = AfterKill(a)
    if not h.strace:
        sys.exit("faults: after-kill: strace is missing or may not trace here (it kills at a chosen write call)")
    print(f"faults: after-kill: seed {a.seed}, {a.shoebox}", file=sys.stderr)
    h.prepare()
    plan = h.run_all()
    seconds = time.perf_counter() - t0
    violations = sum(h.counts.values())
    summary(h, a, plan, seconds, violations, real_stdout)
    return violations > 0, h.work


def summary(h, a, plan, seconds, violations, real_stdout):
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"pairs": h.pairs, "kills": h.kills, **h.counts, "failed": h.failed, "seconds": round(seconds, 1),
                       "seed": a.seed, "plan": {k.name: [x.name for x in firsts if x.name != k.name] for k, firsts in plan},
                       "findings": h.findings, "refusals": h.refusals, "shoebox": a.shoebox}, f, indent=1)
    if a.row:
        what = (", ".join(f"{k.name} (then {len(f) - (k in f)} others)" for k, f in plan) if len(plan) <= 3
                else f"each of {len(plan)} writing commands (then every other)")
        print(f"| fault injection, another command first: {what} killed at a write; each other command run "
              f"first, then scan ({h.pairs:,} pairs) "
              f"| {h.kills} kills; pairs with " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in h.counts.items())
              + f"; {seconds:.0f} s | no comparison tool kills a photo manager mid-write "
              f"| goal 0 violations: {'met' if violations == 0 else 'NOT MET'} |", file=real_stdout)
    if h.refusals:
        print(f"faults: after-kill: {len(h.refusals)} first commands exited non-zero (not violations): "
              + "; ".join(f"{k} → {f} ({s}: {' '.join(e)[:120]})" for k, f, s, e in h.refusals[:12]), file=sys.stderr)
    print(f"faults: after-kill: pairs={h.pairs} kills={h.kills} " + " ".join(f"{k}={v}" for k, v in h.counts.items())
          + f" failed={h.failed} seconds={seconds:.0f}")
