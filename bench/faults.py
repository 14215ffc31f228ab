#!/usr/bin/env python3
"""Fault injection: `kill -9` of shoebox at random instants while it writes; no photo may be lost.

    bench/faults.py [--runs N] [--seed S] [--shoebox PATH] [--roll DIR] [--work DIR] [--quick] [--json OUT]

Copies a roll (default: sample-library/, without its .shoebox/, Albums/ and Recently Deleted/)
into a work folder, `init`s and scans it, and records the ground truth: the SHA-256 of every
original (present, trashed, and the video halves of Live Photos), how many byte-identical copies
of each there are, and the ids each content has. Then, N times:
  - one operation, picked at random (weighted): trash 1–5 assets; restore 1–3; purge with
    SHOEBOX_NOW far ahead (everything in the trash has expired: its originals may legitimately go);
    album create/add/order/remove/delete; curate add (its analysis), select/top/remove (the list
    file), share --to a folder outside the library (links or copies) and album; tidy decisions,
    undo, unmark, a new session, empty (marked files into Recently Deleted); tracker project,
    mini, recipe and photo add/update/link/rm (Tracker/tracker.json and Tracker/photos/); scan after the
    file), share --to a folder outside the library (links or copies) and album; memories collage
    --save (a new JPEG in Collages/, indexed); scan after the
    file), share --to a folder outside the library (links or copies) and album; compose add/move/
    remove/clear (the draft file) and export -o a file outside the library or --save into Collages/;
    scan after the
    harness moved files between folders;
    watch while the harness drags files into and out of Recently Deleted/files/ by hand, creates
    and renames files;
  - shoebox is started and SIGKILLed, in one of two ways (half and half by default):
      timed: after a delay drawn uniformly in [0, 1.2 × the operation's un-killed duration]
        (calibrated at set-up, refined by every run that finished first); most draws start at the
        operation's first write, since its first ~30 ms are process start-up where a kill can break
        nothing; one run in ten is killed at once; `watch` is always killed this way;
      at a write call (when strace can trace here): on entry to the n-th call of one write syscall
        (rename, unlink, pwrite64, symlink, fsync…), the call and n drawn in proportion to what the
        operation makes (counted under strace at set-up) — every step of its write sequence is hit,
        however short the window;
  - `shoebox scan` (the next start), then the invariants:
      every original exists as many times as it had copies, byte-identical, in the library or in
      Recently Deleted/files/ (less what a purge took: only what was in the trash may go);
      every .trashinfo has its file and every file in files/ its .trashinfo;
      no symbolic link dangles anywhere under the library (`find -xtype l`);
      `shoebox doctor` exits 0;
      every asset's id is one its content had at set-up (no new id minted for old content);
      no hidden `.shoebox-build-*` folder is left under Albums/;
      `curate list` reads the curation list (old or new, never damaged: curation_damaged), and
      every file `curate share` left in its folder under a name (not a hidden temporary) holds
      the bytes of an original whole (share_partial);
      `tidy status` reads the session (tidy_damaged: never half a session after a kill);
      `tracker project list` reads the tracker (tracker_damaged), and Tracker/tracker.json keeps its
      references and every photo it names is there with its SHA-256 (tracker_integrity);
      `compose list` reads the draft (composer_damaged), and every story `compose export` left
      under a name (outside, or in Collages/) is a whole 1080×1920 HEIC (story_partial; a saved
      one is then an original of the library like any other);
      and each original on disk is one asset (present or trashed).
      and each original on disk is one asset (present or trashed);
      every collage `memories --save` left in Collages/ under a name is a whole JPEG (collage_partial;
      it is then an original like the others, and must be indexed).
      and no temporary of a whole-file write (`.NAME.PID.RANDOM.tmp`) is left: a kill leaves them,
      the next start deletes those whose writer is dead (stray_temporaries).
    A problem that persists is counted once (shown again as "still").
Every 25 runs (and at the end) everything is restored and the library must equal the ground
truth again, less what was purged. A violation is reported with its details and the runs go on
(after a doctor failure the library is repaired with `rebuild`, so that one finding is counted
once). Trash and purge drain the library: when a third of it has gone, new photos (roll JPEGs with
a unique trailer) are added. The two last lines: one count per operation and the other checks, then
the summary:
    faults: runs=N kills=K files_lost=0 duplicated=0 dangling_links=0 orphan_trashinfo=0 doctor_failures=0 id_changes=0 seconds=S
Exit status 1 if anything was violated (the work folder is then kept for inspection).
"""
import argparse, hashlib, json, os, random, shutil, signal, stat, statistics, subprocess, sys, tempfile, time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
NOT_ORIGINALS = ("Albums", ".shoebox", "Tracker")  # top-level folders that never hold originals (Tracker/: copies)
SKIP_FOLDERS = {"Albums", ".shoebox", "Recently Deleted", "Tracker"}  # not user folders
FUTURE = "2099-01-01T00:00:00"                  # SHOEBOX_NOW for purges: everything trashed has expired
WEIGHTS = {"trash": 24, "restore": 18, "purge": 6, "album": 22, "scan": 14, "watch": 16, "analyze": 10, "people": 6,
           "curate": 12, "tidy": 12, "tracker": 12, "memories": 6, "compose": 8}
# Calls that change the disk: a kill "at a write" is a SIGKILL on entry to one of them (strace).
WRITES = ("write", "pwrite64", "rename", "renameat", "renameat2", "unlink", "unlinkat", "symlink", "symlinkat",
          "mkdir", "mkdirat", "rmdir", "fsync", "fdatasync", "syncfs", "ftruncate", "link", "linkat")
COUNTERS = ("files_lost", "duplicated", "dangling_links", "orphan_trashinfo", "doctor_failures", "id_changes")
OTHER = ("build_leftovers", "stray_temporaries", "unindexed", "scan_failures", "reset_mismatches", "early_exits", "harness_errors",
         "curation_damaged", "share_partial", "tidy_damaged", "tracker_damaged", "tracker_integrity", "collage_partial",
         "composer_damaged", "story_partial")
# Reported, but not violations (exit status 0): none at present.
NOTES = ()


def is_temporary(name):
    """A temporary of shoebox's whole-file writes (AtomicFile): `.NAME.PID.RANDOM.tmp`."""
    parts = name.split(".")
    return name.startswith(".") and name.endswith(".tmp") and len(parts) >= 5 and parts[-3].isdigit() and parts[-2].isdigit()


def usable_strace():
    """strace, if it is installed and may trace here (containers often forbid ptrace)."""
    path = shutil.which("strace")
    if not path:
        return None
    # It must be able to kill on entry to a call (`--seccomp-bpf`, for one, silently cannot).
    p = subprocess.run([path, "-f", "-qq", "-o", "/dev/null", "-e", "trace=write",
                        "-e", "inject=write:signal=SIGKILL:when=1", "/bin/echo", "x"], capture_output=True)
    return path if p.returncode in (-signal.SIGKILL, 128 + signal.SIGKILL) and not p.stdout else None


def default_shoebox():
    for kind in ("release", "debug"):
        p = os.path.join(ROOT, ".build", kind, "shoebox")
        if os.path.exists(p):
            return p
    return os.path.join(ROOT, ".build", "release", "shoebox")


class Harness:
    def __init__(self, a):
        self.a = a
        self.sb = os.path.abspath(a.shoebox)
        self.rng = random.Random(a.seed)
        self.work = a.work
        self.lib = os.path.join(self.work, "library")
        self.logs = os.path.join(self.work, "logs")
        # `curate share --to` makes its folder only inside one that exists (as `mkdir` does).
        os.makedirs(os.path.join(self.work, "shared"), exist_ok=True)
        os.makedirs(os.path.join(self.work, "stories"), exist_ok=True)
        self.env = {k: v for k, v in os.environ.items() if k not in ("SHOEBOX_LIBRARY", "SHOEBOX_NOW")}
        self.hash_cache = {}
        self.expected = {}          # sha → copies on disk (library + Recently Deleted/files/)
        self.ids = {}               # sha → ids that content may have
        self.counts = dict.fromkeys(COUNTERS + OTHER + NOTES, 0)
        self.ops = {}               # op → {runs, kills, at_write, timed_after_write}
        self.strace = usable_strace() if a.syscall_share > 0 else None
        self.writes = {}            # op → [{syscall: count}] of un-killed runs under strace
        self.durations = {}         # op → un-killed durations seen
        self.firsts = {}            # op → when it first wrote, at calibration
        self.kills = 0
        self.mid_write = 0          # timed kills that landed after the process had written something
        self.at_write = 0           # kills on entry to a chosen write call
        self.failed_runs = 0
        self.reported = set()       # (counter, key) of problems the last check found
        self.made = 0               # files the harness created (unique content)
        self.inodes = set()         # inodes of the library's files at the last check (new ones in Collages/ are collages)
        self.collage_shas = set()   # collages' contents: one saved twice (same seed) is a copy with its own id
        self.stories = set()        # contents of stories `compose export --save` put into Collages/
        self.assets = []            # present assets (list --json), as of the last check
        self.trash_items = []       # trash list --json, as of the last check
        self.jpegs = []             # JPEG originals of the roll: sources of new files

    # ---- running shoebox

    def cmd(self, *args):
        return [self.sb, "--library", self.lib, *args]

    def run(self, *args, env=None, check=True):
        p = subprocess.run(self.cmd(*args), capture_output=True, text=True, env=env or self.env)
        if check and p.returncode != 0:
            raise RuntimeError(f"shoebox {' '.join(args)} failed ({p.returncode}): {p.stderr.strip()[-1500:]}")
        return p

    def json(self, *args):
        return json.loads(self.run(*args, "--json").stdout or "null")

    # ---- the disk

    def sha(self, path):
        st = os.lstat(path)
        key = (path, st.st_size, st.st_mtime_ns, st.st_ino)
        h = self.hash_cache.get(key)
        if h is None:
            d = hashlib.sha256()
            with open(path, "rb") as f:
                for block in iter(lambda: f.read(1 << 20), b""):
                    d.update(block)
            h = self.hash_cache[key] = d.hexdigest()
        return h

    def census(self):
        """sha → [paths] of every regular file outside Albums/ and .shoebox/ (Recently Deleted/files/ included)."""
        out = {}
        for d, dirs, names in os.walk(self.lib):
            if d == self.lib:
                dirs[:] = [x for x in dirs if x not in NOT_ORIGINALS]
            for n in names:
                p = os.path.join(d, n)
                try:
                    if not stat.S_ISREG(os.lstat(p).st_mode):
                        continue
                    out.setdefault(self.sha(p), []).append(os.path.relpath(p, self.lib))
                except FileNotFoundError:
                    continue
        return out

    def snapshot(self):
        """Names, inodes, sizes and mtimes of everything under the library but the index itself:
        whether a killed process had written anything yet."""
        out = set()
        for d, dirs, names in os.walk(self.lib):
            for n in dirs + names:
                if n.startswith(("index.sqlite", "lock")) and os.path.basename(d) == ".shoebox":
                    continue
                p = os.path.join(d, n)
                try:
                    st = os.lstat(p)
                except FileNotFoundError:
                    continue
                out.add((p, st.st_ino, st.st_size, 0 if stat.S_ISDIR(st.st_mode) else st.st_mtime_ns))
        return frozenset(out)

    def trash_folder(self, sub):
        return os.path.join(self.lib, "Recently Deleted", sub)

    def trash_names(self):
        files = set(os.listdir(self.trash_folder("files"))) if os.path.isdir(self.trash_folder("files")) else set()
        infos = set(os.listdir(self.trash_folder("info"))) if os.path.isdir(self.trash_folder("info")) else set()
        return files, infos

    def user_folders(self):
        """Folders of the library a user keeps photos in (relative), the root included."""
        out = [""]
        for d, dirs, _ in os.walk(self.lib):
            rel = os.path.relpath(d, self.lib)
            if d == self.lib:
                dirs[:] = [x for x in dirs if x not in SKIP_FOLDERS and not x.startswith(".")]
            else:
                dirs[:] = [x for x in dirs if not x.startswith(".")]
                out.append(rel)
        return out

    def free_name(self, folder_abs, name, taken=()):
        stem, ext = os.path.splitext(name)
        for n in range(1, 10000):
            cand = name if n == 1 else f"{stem} f{n}{ext}"
            if cand not in taken and not os.path.lexists(os.path.join(folder_abs, cand)):
                return cand
        raise RuntimeError(f"no free name for {name} in {folder_abs}")

    def new_content(self):
        """Bytes no other file has: a roll JPEG with a trailer after its end marker."""
        self.made += 1
        src = self.rng.choice(self.jpegs)
        with open(src, "rb") as f:
            data = f.read()
        return data + f"\nshoebox-faults seed={self.a.seed} file={self.made}\n".encode(), os.path.basename(src)

    def write_new(self, folder_rel, via_part):
        data, name = self.new_content()
        folder = os.path.join(self.lib, folder_rel)
        os.makedirs(folder, exist_ok=True)
        name = self.free_name(folder, f"new-{self.made}-{name}")
        dst = os.path.join(folder, name)
        tmp = dst + ".part" if via_part else dst
        with open(tmp, "wb") as f:
            f.write(data)
        if via_part:
            os.rename(tmp, dst)
        sha = hashlib.sha256(data).hexdigest()
        self.expected[sha] = self.expected.get(sha, 0) + 1
        self.ids.setdefault(sha, set())
        return os.path.join(folder_rel, name) if folder_rel else name

    # ---- the index, as the public commands show it

    def all_assets(self):
        """(present, trashed, missing, trash items): every asset with its sha, Live Photo videos included."""
        present = self.json("list")
        trashed = self.json("list", "--trashed")
        missing = self.json("list", "--missing")
        items = self.json("trash", "list")
        everything = [(a["id"], a["sha256"], a["state"], a["path"]) for a in present + trashed + missing]
        known = {a[0] for a in everything}
        # The video half of a Live Photo is not listed on its own: `show` it by path.
        for a in present:
            if a.get("live_video"):
                v = self.json("show", a["live_video"])
                if v["id"] not in known:
                    everything.append((v["id"], v["sha256"], v["state"], v["path"]))
                    known.add(v["id"])
        for it in items:
            if it["id"] and it["id"] not in known:
                p = os.path.join(self.trash_folder("files"), it["name"])
                everything.append((it["id"], self.sha(p), "trashed", it["original_path"]))
                known.add(it["id"])
        return present, items, everything

    # ---- set-up

    def setup(self):
        roll = os.path.abspath(self.a.roll)
        if os.path.exists(self.lib):
            shutil.rmtree(self.lib)
        shutil.rmtree(self.logs, ignore_errors=True)
        os.makedirs(self.logs)
        shutil.copytree(roll, self.lib, symlinks=True,
                        ignore=lambda d, names: [n for n in names if os.path.abspath(d) == roll
                                                 and n in (".shoebox", "Albums", "Recently Deleted")])
        for d, _, names in os.walk(self.lib):
            self.jpegs += [os.path.join(d, n) for n in names if n.lower().endswith((".jpg", ".jpeg"))]
        self.jpegs.sort()
        # Sources of new files are kept aside: the library's own may be trashed and purged.
        aside = os.path.join(self.work, "sources")
        shutil.rmtree(aside, ignore_errors=True)
        os.makedirs(aside)
        kept = []
        for i, p in enumerate(self.jpegs[:12]):
            q = os.path.join(aside, f"{i}-{os.path.basename(p)}")
            shutil.copyfile(p, q)
            kept.append(q)
        if not kept:
            sys.exit(f"faults: {roll} has no JPEG (new files are made from them)")
        self.jpegs = kept
        subprocess.run([self.sb, "init", self.lib], check=True, capture_output=True, env=self.env)
        self.run("scan")
        present, items, everything = self.all_assets()
        for id_, sha, state, path in everything:
            self.expected[sha] = self.expected.get(sha, 0) + 1
            self.ids.setdefault(sha, set()).add(id_)
        self.initial_present = len(present)
        disk = self.census()
        for sha, n in self.expected.items():
            if len(disk.get(sha, [])) != n:
                sys.exit(f"faults: set-up: {sha[:12]} has {n} assets but {len(disk.get(sha, []))} files")
        dups = sum(n - 1 for n in self.expected.values() if n > 1)
        print(f"faults: {len(self.expected)} contents, {sum(self.expected.values())} originals "
              f"({dups} byte-identical copies) in {self.lib}", file=sys.stderr)
        problems = self.check("set-up")
        if problems:
            sys.exit("faults: the library is not healthy before any kill:\n  " + "\n  ".join(problems))
        self.calibrate()

    def measure(self, op, *args, env=None):
        """One un-killed run, watched: (seconds until its first write, seconds until it exited)."""
        before = self.snapshot()
        t0 = time.perf_counter()
        p = subprocess.Popen(self.cmd(*args), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                             env=env or self.env)
        first = None
        while p.poll() is None:
            if first is None and self.snapshot() != before:
                first = time.perf_counter() - t0
        end = time.perf_counter() - t0
        err = p.stderr.read()
        if p.returncode != 0:
            sys.exit(f"faults: calibration: shoebox {' '.join(args)} failed: {err[-1500:]}")
        self.firsts.setdefault(op, []).append(first if first is not None else end)
        self.durations.setdefault(op, []).append(end)

    def strace_cmd(self, argv, inject=None, out="/dev/null"):
        cmd = [self.strace, "-f", "-qq", "-o", out, "-e", "trace=" + ",".join(WRITES)]
        if inject:
            cmd += ["-e", f"inject={inject[0]}:signal=SIGKILL:when={inject[1]}"]
        return cmd + self.cmd(*argv)

    def count_writes(self, op, *args, env=None):
        """One un-killed run under strace: how many of each write call it makes (per thread, as
        strace counts for `when=`: the largest count of any one thread)."""
        trace = os.path.join(self.logs, "calibrate.strace")
        p = subprocess.run(self.strace_cmd(args, out=trace), capture_output=True, text=True, env=env or self.env)
        if p.returncode != 0:
            sys.exit(f"faults: calibration: shoebox {' '.join(args)} under strace failed: {p.stderr[-1500:]}")
        self.record_writes(op, trace)

    def record_writes(self, op, trace):
        per = {}
        with open(trace) as f:
            for line in f:
                if "resumed>" in line:
                    continue
                pid, _, rest = line.partition(" ")
                name = rest.lstrip().split("(", 1)[0]
                if name in WRITES:
                    key = (pid, name)
                    per[key] = per.get(key, 0) + 1
        counts = {}
        for (_, name), n in per.items():
            counts[name] = max(counts.get(name, 0), n)
        self.writes.setdefault(op, []).append(counts)

    def calibrate(self):
        """Un-killed timings of each operation (when it first writes, when it is done), so that
        kills land throughout its writes."""
        rounds = [self.measure] * 2 + ([self.count_writes] if self.strace else [])
        for round, measure in enumerate(rounds):
            self.assets = self.json("list")
            ids = [a["id"] for a in self.rng.sample(self.assets, min(3, len(self.assets)))]
            measure("trash", "trash", *ids)
            measure("restore", "restore", *ids)
            name = f"faults calibration {round}"
            measure("album", "album", "create", name, *ids)
            measure("album", "album", "order", name, *reversed(ids))
            measure("album", "album", "add", name, *[a["id"] for a in self.assets[:2]])
            measure("album", "album", "remove", name, ids[0])
            measure("album", "album", "delete", name)
            measure("curate", "curate", "add", *ids)
            measure("curate", "curate", "top", "5")
            measure("curate", "curate", "share", "--to", os.path.join(self.work, "shared", f"calibration {round}"))
            measure("curate", "curate", "album")
            measure("curate", "curate", "remove")
            measure("tidy", "tidy", "filter", "all")
            measure("tidy", "tidy", "delete")
            measure("tidy", "tidy", "keep")
            measure("tidy", "tidy", "undo")
            measure("tidy", "tidy", "delete", ids[0])
            measure("tidy", "tidy", "empty")
            self.run("restore", *[a["id"] for a in self.json("trash", "list")], check=False)
            tp = self.json("tracker", "project", "add", "--game-system", "40k", "--army", f"Calibration {round}")["id"]
            tm = self.json("tracker", "mini", "add", tp, "--name", "Calibration", "--type", "troop")["id"]
            measure("tracker", "tracker", "photo", "add", tm, self.tracker_source())
            measure("tracker", "tracker", "mini", "update", tm, "--progress", "primed")
            measure("tracker", "tracker", "project", "rm", tp)
            years = [y for y in self.json("memories", "sources").get("years", []) if y["count"] >= 6]
            if years:
                measure("memories", "memories", "collage", "--year", str(years[0]["year"]), "--save")
            stills = [a["id"] for a in self.assets if a["kind"] != "video"][round:round + 3]
            measure("compose", "compose", "add", *stills[:2])
            measure("compose", "compose", "export", "-o", os.path.join(self.work, "stories", f"calibration {round}.heic"))
            measure("compose", "compose", "add", stills[-1])
            measure("compose", "compose", "export", "--save")
            a = self.rng.choice(self.assets)
            stem, ext = os.path.splitext(a["path"])
            os.rename(os.path.join(self.lib, a["path"]), os.path.join(self.lib, f"{stem} calibration {round}{ext}"))
            measure("scan", "scan")
            # analyze: of files made for it; people: a name given to the first person found.
            for _ in range(3):
                self.write_new("Calibration", False)
            self.run("scan")
            measure("analyze", "analyze")
            people = self.json("people", "list")
            if people:
                measure("people", "people", "name", people[0]["id"], f"Calibration {round}")
        # purge: on files made for it (the originals of the roll are not for calibration).
        in_trash = {}
        for measure in rounds[1:]:
            made = [self.write_new("Calibration", False) for _ in range(3)]
            self.run("scan")
            self.run("trash", *made)
            for n in self.trash_names()[0]:
                s = self.sha(os.path.join(self.trash_folder("files"), n))
                in_trash[s] = in_trash.get(s, 0) + 1
            measure("purge", "trash", "purge", env=dict(self.env, SHOEBOX_NOW=FUTURE))
        # watch: until its start-up scan is done; the op then runs that plus the harness's actions
        # plus the ~1 s a removal is held for a possible cookie pair.
        log = os.path.join(self.logs, "calibrate-watch.log")
        t0 = time.perf_counter()
        with open(log, "w") as f:
            p = subprocess.Popen(self.cmd("watch"), stdout=subprocess.DEVNULL, stderr=f, env=self.env)
        while "reconciled by a scan (start-up)" not in open(log).read():
            if p.poll() is not None or time.perf_counter() - t0 > 60:
                sys.exit(f"faults: watch did not start: {open(log).read()[-1500:]}")
            time.sleep(0.005)
        self.watch_startup = time.perf_counter() - t0
        p.terminate()
        p.wait(timeout=60)
        problems = self.check("calibration", purged_from=in_trash)
        if problems:
            sys.exit("faults: the calibration runs left problems (no kill was involved):\n  " + "\n  ".join(problems))
        print("faults: un-killed timings (first write–exit): "
              + " ".join(f"{k}={1000 * statistics.median(self.firsts[k]):.0f}–{1000 * statistics.median(v):.0f}ms"
                         for k, v in sorted(self.durations.items()))
              + f" watch-start-up={self.watch_startup * 1000:.0f}ms", file=sys.stderr)
        if self.strace:
            print("faults: write calls (strace): " + " ".join(
                f"{k}={sum(self.writes[k][-1].values())}" for k in sorted(self.writes)), file=sys.stderr)
        else:
            print("faults: strace is not usable here: every kill is timed", file=sys.stderr)

    # ---- checks

    def check(self, label, purged_from=None):
        """Runs `scan` (the next start) and every invariant. Returns the problems (counted)."""
        problems = []
        persisting, self.reported = self.reported, set()

        def bad(counter, n, text, key=None):
            # A problem the previous check found and no run has put right is shown, not counted again.
            if key is not None:
                self.reported.add((counter, key))
                if (counter, key) in persisting:
                    problems.append(f"{counter}: (still, counted before) {text}")
                    return
            self.counts[counter] += n
            problems.append(f"{counter}: {text}")

        p = self.run("scan", check=False)
        if p.returncode != 0:
            bad("scan_failures", 1, f"scan exited {p.returncode}: {p.stderr.strip()[-800:]}")
        try:
            present, items, everything = self.all_assets()
        except Exception as e:  # noqa: BLE001 — a listing that fails is a finding, not a crash of the harness
            bad("scan_failures", 1, f"listing failed: {e}")
            return problems
        self.assets = present
        self.trash_items = items
        disk = self.census()
        self.check_stories(disk, bad)

        # 0. Collages `memories --save` made are new originals, once whole.
        self.adopt_collages(bad)

        # 1. Every original, as many times as it had copies, byte-identical.
        for sha in sorted(set(self.expected) | (set(disk) & set(self.ids))):
            want, have = self.expected.get(sha, 0), len(disk.get(sha, []))
            if purged_from and sha in purged_from and want - purged_from[sha] <= have <= want:
                want = have  # the purge took (some of) the copies that were in the trash: allowed
            if have < want:
                ids = ",".join(sorted(i[:8] for i in self.ids.get(sha, ())))
                bad("files_lost", want - have, f"{sha[:12]} (ids {ids}): {want} copies expected, {have} on disk {disk.get(sha, [])}")
            elif have > want:
                bad("duplicated", have - want, f"{sha[:12]}: {want} copies expected, {have} on disk {disk.get(sha)}")
            if have:
                self.expected[sha] = have  # counted once, not in every later run
            else:
                self.expected.pop(sha, None)

        # 2. Recently Deleted: each .trashinfo with its file, each file with its .trashinfo.
        files, infos = self.trash_names()
        info_names = {n[:-len(".trashinfo")] for n in infos if n.endswith(".trashinfo")}
        for n in sorted(info_names - files):
            bad("orphan_trashinfo", 1, f"Recently Deleted/info/{n}.trashinfo without its file", ("info", n))
        for n in sorted(files - info_names):
            bad("orphan_trashinfo", 1, f"Recently Deleted/files/{n} without its .trashinfo", ("file", n))

        # 3. No link that leads nowhere.
        f = subprocess.run(["find", self.lib, "-xtype", "l"], capture_output=True, text=True)
        dangling = [os.path.relpath(x, self.lib) for x in f.stdout.splitlines() if x]
        for x in dangling:
            bad("dangling_links", 1, f"{x} → {os.readlink(os.path.join(self.lib, x))}", x)

        # 4. doctor.
        d = self.run("doctor", check=False)
        if d.returncode != 0:
            bad("doctor_failures", 1, "doctor: " + "; ".join(l for l in d.stdout.splitlines() if not l.startswith("ok")))
            # Repaired as doctor says (`rebuild`), so that one finding is counted once, not in every later run.
            self.run("rebuild", check=False)
            self.run("scan", check=False)
            if self.run("doctor", check=False).returncode != 0:
                problems.append("doctor: still unhealthy after `rebuild` and `scan`")

        # 5. Ids: old content keeps the ids it had; new content (made by the harness) gets one.
        per_sha = {}
        for id_, sha, state, path in everything:
            per_sha.setdefault(sha, []).append((id_, state, path))
            known = self.ids.get(sha)
            if known is None:
                # Content the harness never wrote and the roll never had: a corrupted original?
                bad("id_changes", 1, f"{path} ({state}) has content {sha[:12]} that no original had (id {id_})")
                self.ids[sha] = {id_}
            elif not known:
                known.add(id_)  # first sight of a file the harness made
            elif id_ not in known and sha in self.collage_shas:
                known.add(id_)  # a collage saved again with the same seed: a copy, with its own id
            elif not known or (sha in self.stories and len(known) < self.expected.get(sha, 0)):
                known.add(id_)  # first sight of a file the harness (or a saved story) made
            elif id_ not in known:
                bad("id_changes", 1, f"{path} ({state}) has a new id {id_} for content {sha[:12]} (had {sorted(known)})")
                known.add(id_)

        # 6. No build folder left behind.
        leftovers = []
        for dd, dirs, _ in os.walk(os.path.join(self.lib, "Albums")):
            leftovers += [os.path.relpath(os.path.join(dd, x), self.lib) for x in dirs if x.startswith(".shoebox-build-")]
        for x in leftovers:
            bad("build_leftovers", 1, x, x)

        # 7. No temporary of a whole-file write left behind: the next start removes those of dead writers.
        thumbs = os.path.join(self.lib, ".shoebox/thumbs")
        shards = [".shoebox/thumbs/" + x for x in sorted(os.listdir(thumbs))] if os.path.isdir(thumbs) else []
        for d in (".shoebox", ".shoebox/sidecars", ".shoebox/albums", "Recently Deleted/info", "Collages", *shards):
            folder = os.path.join(self.lib, d)
            for n in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
                if is_temporary(n):
                    bad("stray_temporaries", 1, os.path.join(d, n), ("stray_temporaries", os.path.join(d, n)))

        # 9. The curation list is readable (a kill leaves the old file or the new one), and what
        # `curate share` put under a name in its folders is an original, whole.
        c = self.run("curate", "list", "--json", check=False)
        if c.returncode != 0:
            bad("curation_damaged", 1, f"curate list exited {c.returncode}: {c.stderr.strip()[-400:]}", c.stderr.strip()[-200:])
        shared = os.path.join(self.work, "shared")
        for folder, _, names in os.walk(shared):
            for n in sorted(names):
                if n.startswith("."):
                    continue  # a copy's temporary (where O_TMPFILE is missing): never under a photo's name
                path = os.path.join(folder, n)
                if self.sha(path) not in self.ids:
                    bad("share_partial", 1, f"{os.path.relpath(path, self.work)} is not the bytes of an original", path)

        # 10. The tidy session is readable (a kill leaves the old state or the new one, and the next
        # start finishes the change it recorded).
        t = self.run("tidy", "status", "--json", check=False)
        if t.returncode != 0:
            bad("tidy_damaged", 1, f"tidy status exited {t.returncode}: {t.stderr.strip()[-400:]}", t.stderr.strip()[-200:])

        # 11. The tracker reads (a kill leaves the old file or the new one), its references hold,
        # and each photo it names is there, whole (copied before its record is saved, deleted after).
        t = self.run("tracker", "project", "list", "--json", check=False)
        if t.returncode != 0:
            bad("tracker_damaged", 1, f"tracker project list exited {t.returncode}: {t.stderr.strip()[-400:]}", t.stderr.strip()[-200:])
        for text in self.tracker_findings():
            bad("tracker_integrity", 1, text, ("tracker", text))

        # 8. Each original on disk is one asset, present or trashed.
        for sha, paths in disk.items():
            if sha not in self.ids:
                continue
            assets = [x for x in per_sha.get(sha, []) if x[1] in ("present", "trashed")]
            if len(assets) != len(paths):
                bad("unindexed", abs(len(paths) - len(assets)), f"{sha[:12]}: files {paths}, assets {assets}",
                    (sha, len(paths), len(assets)))
        return problems

    def check_stories(self, disk, bad):
        """The composer's draft reads (old or new, never damaged), and every story under a name is
        whole: outside the library, and in Collages/, where a new one becomes an original the
        later checks count like any other."""
        c = self.run("compose", "list", "--json", check=False)
        if c.returncode != 0:
            bad("composer_damaged", 1, f"compose list exited {c.returncode}: {c.stderr.strip()[-400:]}", c.stderr.strip()[-200:])
        outside = [os.path.join(self.work, "stories", n) for n in sorted(os.listdir(os.path.join(self.work, "stories")))]
        # New stories: content no original had, or a story's content saved once more (the same
        # photos make the same bytes: a byte-identical copy, which gets an id of its own).
        saved = [(sha, p) for sha, paths in disk.items()
                 if sha not in self.ids or (sha in self.stories and len(paths) > self.expected.get(sha, 0))
                 for p in paths if p.startswith("Collages/") and not os.path.basename(p).startswith(".")
                 and p.lower().endswith(".heic")]  # stories; the JPEGs there are memories' collages
        for path in outside + [os.path.join(self.lib, p) for _, p in saved]:
            if os.path.basename(path).startswith("."):
                continue
            info = subprocess.run(["heif-info", path], capture_output=True, text=True)
            if info.returncode != 0 or "1080x1920" not in info.stdout:
                bad("story_partial", 1, f"{path} is not a whole 1080×1920 HEIC: {info.stderr.strip()[-200:]}", path)
        for sha, _ in saved:
            self.expected[sha] = len(disk[sha])
            self.ids.setdefault(sha, set())  # the new copy's id is learnt by the id check
            self.stories.add(sha)

    # ---- operations: each returns (description, argv, env, extra) to be run and killed

    def pick_present(self, lo, hi):
        k = min(len(self.assets), self.rng.randint(lo, hi))
        return self.rng.sample(self.assets, k)

    def op_trash(self):
        chosen = self.pick_present(1, 5)
        if not chosen:
            return None
        refs = [a["path"] if self.rng.random() < 0.3 else a["id"] for a in chosen]
        return f"trash {len(refs)}", ["trash", *refs], None, None

    def op_restore(self):
        items = [it for it in self.trash_items if it["id"]]
        if not items:
            return None
        chosen = self.rng.sample(items, min(len(items), self.rng.randint(1, 3)))
        refs = [it["name"] if self.rng.random() < 0.3 else it["id"] for it in chosen]
        return f"restore {len(refs)}", ["restore", *refs], None, None

    def op_purge(self):
        files, _ = self.trash_names()
        if not files:
            return None
        in_trash = {}
        for n in files:
            p = os.path.join(self.trash_folder("files"), n)
            if stat.S_ISREG(os.lstat(p).st_mode):
                s = self.sha(p)
                in_trash[s] = in_trash.get(s, 0) + 1
        return f"purge {len(files)}", ["trash", "purge"], dict(self.env, SHOEBOX_NOW=FUTURE), in_trash

    def album_name(self, run):
        return self.rng.choice([f"Faults {run}", f"Trip / {run}", f"Été {run}", f"faults {run} best of"])

    def op_album(self, run):
        albums = [x for x in self.json("album", "list") if x["kind"] == "user"]
        ids = [a["id"] for a in self.pick_present(1, 8)]
        if not ids:
            return None
        choices = ["create"] if len(albums) < 6 else []
        if albums:
            choices += ["add", "order", "order", "remove", "delete"]
        what = self.rng.choice(choices)
        if what == "create":
            name = self.album_name(run)
            return f"album create ({len(ids)})", ["album", "create", name, *ids], None, None
        album = self.rng.choice(albums)
        name = album["name"]
        if what == "add":
            return f"album add ({len(ids)})", ["album", "add", name, *ids], None, None
        if what == "delete":
            return "album delete", ["album", "delete", name], None, None
        members = [e["id"] for e in self.json("album", "show", name)["entries"]]
        if not members:
            return f"album add ({len(ids)})", ["album", "add", name, *ids], None, None
        some = self.rng.sample(members, self.rng.randint(1, len(members)))
        if what == "remove":
            return f"album remove ({len(some)})", ["album", "remove", name, *some], None, None
        return f"album order ({len(some)})", ["album", "order", name, *some], None, None

    def op_curate(self, run):
        """A curation command: add (runs the analysis of what it adds), select/top/remove (the
        list file), share into a folder outside the library, album (a "TO NAME …" user album)."""
        listed = self.run("curate", "list", "--json", check=False)
        if listed.returncode != 0:
            return None  # counted by check() as curation_damaged
        items = json.loads(listed.stdout or "[]")
        ids = [a["id"] for a in self.pick_present(1, 6)]
        choices = ["add"] if ids else []
        if items:
            choices += ["select", "top", "share", "share", "album", "remove"]
        if not choices:
            return None
        what = self.rng.choice(choices)
        if what == "add":
            return f"curate add ({len(ids)})", ["curate", "add", *ids], None, None
        if what == "select":
            ranks = [str(self.rng.randint(1, len(items))) for _ in range(self.rng.randint(1, 3))]
            return f"curate select ({len(ranks)})", ["curate", "select", *ranks], None, None
        if what == "top":
            return "curate top", ["curate", "top", self.rng.choice(["1", "5", "10", "20"])], None, None
        if what == "album":
            return "curate album", ["curate", "album"], None, None
        if not any(x["selected"] for x in items) and self.run("curate", "top", "5", check=False).returncode != 0:
            return None
        if what == "remove":
            return "curate remove", ["curate", "remove"], None, None
        to = os.path.join(self.work, "shared", str(run))
        copy = ["--copy"] if self.rng.random() < 0.5 else []
        return f"curate share{' --copy' if copy else ''}", ["curate", "share", "--to", to, *copy], None, None

    def op_tidy(self, run):
        """A tidy command: decisions on the item under review or on one of its group (with
        --others), undo, unmark, a new session over a filter, empty (marked files into Recently
        Deleted). Picked from what `tidy next` shows, so that most of them have work to do."""
        shown = self.run("tidy", "next", "--json", check=False)
        if shown.returncode != 0:
            return None  # counted by check() as tidy_damaged
        item = json.loads(shown.stdout or "{}").get("item")
        what = self.rng.choice(["decide", "decide", "decide", "group", "undo", "unmark", "filter", "empty"])
        if item is None and what in ("decide", "group"):
            what = "filter"
        if what == "group":
            members = item.get("items") or [item]
            if len(members) > 1:
                others = self.rng.choice(["delete", "maybe"])
                return "tidy keep ID --others", ["tidy", "keep", members[0]["id"], "--others", others], None, None
            return "tidy delete ID", ["tidy", "delete", members[0]["id"]], None, None
        if what == "decide":
            d = self.rng.choice(["keep", "delete", "delete", "maybe"])
            return f"tidy {d}", ["tidy", d], None, None
        if what == "undo":
            return "tidy undo", ["tidy", "undo"], None, None
        if what == "unmark":
            marked = json.loads(self.run("tidy", "trash", "--json", check=False).stdout or "[]")
            if not marked:
                return "tidy delete", ["tidy", "delete"], None, None
            return "tidy unmark", ["tidy", "unmark", self.rng.choice(marked)["id"]], None, None
        if what == "filter":
            f = self.rng.choice(["all", "all", "screenshots", "largest", "maybe", "last-30-days"])
            return f"tidy filter {f}", ["tidy", "filter", f], None, None
        return "tidy empty", ["tidy", "empty"], None, None
    def tracker_source(self):
        """A photo to add: a JPEG, PNG or HEIC asset of the library by id, else a roll JPEG by path."""
        photos = [a for a in self.assets if a.get("format") in ("jpeg", "png", "heic") and a.get("state") == "present"]
        if photos and self.rng.random() < 0.7:
            return self.rng.choice(photos)["id"]
        return os.path.join(self.lib, self.rng.choice(photos)["path"]) if photos else os.path.join(ROOT, "test-data/photos/kite.jpg")

    def tracker_findings(self):
        """What is wrong in Tracker/tracker.json as read from disk: references, photo files, their bytes."""
        path = os.path.join(self.lib, "Tracker", "tracker.json")
        if not os.path.exists(path):
            return []
        try:
            with open(path, "rb") as f:
                d = json.loads(f.read())
        except ValueError as e:
            return [f"Tracker/tracker.json is not JSON: {e}"]
        out = []
        projects = {p["id"] for p in d["projects"]}
        recipes = {r["id"] for r in d["recipes"]}
        for m in d["miniatures"]:
            if m["project_id"] not in projects:
                out.append(f"miniature {m['id']} without its project")
            if any(r not in recipes for r in m["recipe_ids"]):
                out.append(f"miniature {m['id']} links a missing recipe")
            if m["photo_ids"] != [p["id"] for p in d["photos"] if p["mini_id"] == m["id"]]:
                out.append(f"miniature {m['id']}'s photo_ids differ from its photos")
        minis = {m["id"] for m in d["miniatures"]}
        for p in d["photos"]:
            file = os.path.join(self.lib, p["file"])
            if p["mini_id"] not in minis:
                out.append(f"photo {p['id']} without its miniature")
            if not os.path.isfile(file):
                out.append(f"photo {p['id']}: {p['file']} is missing")
            elif self.sha(file) != p["sha256"]:
                out.append(f"photo {p['id']}: {p['file']} is not the bytes recorded")
        return out

    def op_tracker(self, run):
        """A tracker command: project/mini/recipe add, progress update, recipe link, photo add (an
        asset by id or a file by path), photo/mini/project/recipe rm (cascades delete photo files)."""
        t = self.run("tracker", "mini", "list", "--json", check=False)
        if t.returncode != 0:
            return None  # counted by check() as tracker_damaged
        minis = json.loads(t.stdout or "[]")
        projects = self.json("tracker", "project", "list")
        recipes = self.json("tracker", "recipe", "list")
        photos = [p for m in minis for p in m["photo_ids"]]
        choices = ["project add", "recipe add"] + (["mini add"] * 2 if projects else []) + (["project rm"] if projects else [])
        if minis:
            choices += ["photo add"] * 4 + ["mini update", "mini rm"] + (["recipe link"] if recipes else [])
        if photos:
            choices += ["photo rm"] * 2
        if recipes:
            choices += ["recipe rm"]
        what = self.rng.choice(choices)
        pick = lambda xs: self.rng.choice(xs)["id"]
        argv = {"project add": lambda: ["project", "add", "--game-system", self.rng.choice(["aos", "40k", "hh"]), "--army", f"Army {run}"],
                "recipe add": lambda: ["recipe", "add", "--name", f"Recipe {run}", "--step", "Prime", "--paint", "Nuln Oil"],
                "mini add": lambda: ["mini", "add", pick(projects), "--name", f"Mini {run}", "--type", "troop"],
                "project rm": lambda: ["project", "rm", pick(projects)],
                "photo add": lambda: ["photo", "add", pick(minis), self.tracker_source()],
                "mini update": lambda: ["mini", "update", pick(minis), "--progress", self.rng.choice(["primed", "completed"])],
                "mini rm": lambda: ["mini", "rm", pick(minis)],
                "recipe link": lambda: ["recipe", "link", pick(recipes), pick(minis)],
                "photo rm": lambda: ["photo", "rm", self.rng.choice(photos)],
                "recipe rm": lambda: ["recipe", "rm", pick(recipes)]}[what]()
        return f"tracker {what}", ["tracker", *argv], None, None
    def op_memories(self):
        """A collage saved into Collages/ (written under a hidden temporary, renamed without
        replacing, then indexed) of the year with the most photos."""
        sources = self.json("memories", "sources")
        years = [y for y in (sources or {}).get("years", []) if y["count"] >= 6]
        if not years or "memories" not in self.durations:
            return None
        year = str(max(years, key=lambda y: y["count"])["year"])
        seed = str(self.rng.randint(1, 1000))
        return f"memories collage --year {year} --save", ["memories", "collage", "--year", year, "--seed", seed, "--save"], None, None

    def adopt_collages(self, bad):
        """Files in Collages/ that `memories --save` made since the last check (an inode never seen
        in the library: a file renamed or moved there keeps its own): each must be a whole JPEG (a
        kill leaves a hidden temporary or nothing, never half a file under a name); then it is an
        original like any other (a collage saved twice with one seed: a copy with its own id)."""
        folder = os.path.join(self.lib, "Collages")
        for n in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
            path = os.path.join(folder, n)
            if n.startswith(".") or not os.path.isfile(path) or os.path.islink(path) or os.lstat(path).st_ino in self.inodes:
                continue
            if not n.lower().endswith(".jpg"):
                continue  # a story `compose export --save` made (HEIC): check_stories' concern
            sha = self.sha(path)
            if sha in self.ids and sha not in self.collage_shas:
                continue  # an original's bytes (a hard link would be another tool's doing)
            with open(path, "rb") as f:
                data = f.read()
            if not (data[:2] == b"\xff\xd8" and data.rstrip(b"\0")[-2:] == b"\xff\xd9"):
                bad("collage_partial", 1, f"Collages/{n} is not a whole JPEG ({len(data)} bytes)", ("collage", n))
            self.ids.setdefault(sha, set())
            self.collage_shas.add(sha)
            self.expected[sha] = self.expected.get(sha, 0) + 1
        self.inodes = set()
        for d, dirs, names in os.walk(self.lib):
            if d == self.lib:
                dirs[:] = [x for x in dirs if x not in NOT_ORIGINALS]
            for n in names:
                try:
                    self.inodes.add(os.lstat(os.path.join(d, n)).st_ino)
                except FileNotFoundError:
                    continue
    def op_compose(self, run):
        """A composer command: add, move, remove, clear (the draft file), export -o a file outside
        the library, or export --save (a new photo in Collages/, indexed)."""
        listed = self.run("compose", "list", "--json", check=False)
        if listed.returncode != 0:
            return None  # counted by check() as composer_damaged
        n = len(json.loads(listed.stdout or "[]"))
        ids = [a["id"] for a in self.pick_present(1, 4 - n) if a["kind"] != "video"] if n < 4 else []
        choices = (["add"] if ids else []) + (["move", "remove", "clear", "export", "export", "save"] if n else [])
        if not choices:
            return None
        what = self.rng.choice(choices)
        if what == "add":
            return f"compose add ({len(ids)})", ["compose", "add", *ids], None, None
        if what == "move":
            return "compose move", ["compose", "move", str(self.rng.randint(1, n)), str(self.rng.randint(1, n))], None, None
        if what == "remove":
            return "compose remove", ["compose", "remove", str(self.rng.randint(1, n))], None, None
        if what == "clear":
            return "compose clear", ["compose", "clear"], None, None
        if what == "save":
            return f"compose export --save ({n})", ["compose", "export", "--save"], None, None
        return f"compose export ({n})", ["compose", "export", "-o", os.path.join(self.work, "stories", f"{run}.heic")], None, None

    def op_scan(self, run):
        """Moves made while nothing ran, then the scan that finds them."""
        folders = self.user_folders()
        moved = []
        for a in self.pick_present(1, 4):
            src = os.path.join(self.lib, a["path"])
            if not os.path.lexists(src):
                continue
            r = self.rng.random()
            if r < 0.3:
                folder = os.path.dirname(a["path"])
            elif r < 0.45:
                folder = f"Moved/{run}"
            else:
                folder = self.rng.choice(folders)
            os.makedirs(os.path.join(self.lib, folder), exist_ok=True)
            name = os.path.basename(a["path"])
            if folder == os.path.dirname(a["path"]):
                stem, ext = os.path.splitext(name)
                name = f"{stem} renamed{ext}"
            name = self.free_name(os.path.join(self.lib, folder), name)
            os.rename(src, os.path.join(self.lib, folder, name))
            moved.append(a["path"])
        if self.rng.random() < 0.15:
            leafs = [f for f in folders if f and not any(g.startswith(f + "/") for g in folders)]
            if leafs:
                f = self.rng.choice(leafs)
                to = self.free_name(os.path.join(self.lib, os.path.dirname(f)), os.path.basename(f) + f" r{run}")
                os.rename(os.path.join(self.lib, f), os.path.join(self.lib, os.path.dirname(f), to))
                moved.append(f + "/")
        return f"scan after {len(moved)} moves", ["scan"], None, None

    def op_analyze(self):
        """The analysis of what the runs before added (thumbnails, faces, people: sidecar and index writes)."""
        return "analyze", ["analyze"], None, None

    def op_people(self):
        """Names a person, or merges two: every photo of theirs is written again."""
        people = self.json("people", "list")
        if not people or "people" not in self.durations:
            return None
        if len(people) >= 2 and self.rng.random() < 0.3:
            a, b = self.rng.sample(people, 2)
            return "people merge", ["people", "merge", a["id"], b["id"]], None, None
        who = self.rng.choice(people)
        return "people name", ["people", "name", who["id"], self.rng.choice(["Ana", "Tom", "Zoë", "Bob Faults"])], None, None

    # ---- running and killing

    def estimate(self, op):
        return statistics.median(self.durations[op][-9:])

    def kill_delay(self, duration, first=0.0):
        """One kill in ten at once; else uniform in [0, 1.2 × duration], mostly from the first write
        on (the process's first ~30 ms are its start-up, where a kill can break nothing)."""
        r = self.rng.random()
        if r < 0.1:
            return 0.0
        if r < 0.3 or first >= duration:
            return self.rng.uniform(0, 1.2 * duration)
        return self.rng.uniform(0.9 * first, 1.2 * duration)

    def run_at_write(self, op, argv, env, log):
        """Killed on entry to the n-th call of one write syscall, n uniform over what the operation
        makes (and a little beyond: then it finishes)."""
        counts = {}
        for c in self.writes[op][-9:]:
            for k, v in c.items():
                counts[k] = max(counts.get(k, 0), v)
        names = sorted(counts)
        call = self.rng.choices(names, [counts[n] for n in names])[0]
        n = self.rng.randint(1, max(1, round(1.1 * counts[call])))
        trace = os.path.join(self.logs, "run.strace")
        with open(log, "w") as f:
            p = subprocess.run(self.strace_cmd(argv, (call, n), out=trace), stdout=subprocess.DEVNULL, stderr=f,
                               env=env or self.env)
        killed = p.returncode in (-signal.SIGKILL, 128 + signal.SIGKILL)
        if not killed:
            self.record_writes(op, trace)
        return killed, f"{call} #{n}", p.returncode

    def run_killed(self, op, argv, env, log):
        if self.strace and op in self.writes and self.rng.random() < self.a.syscall_share:
            killed, where, status = self.run_at_write(op, argv, env, log)
            return killed, where, status, True
        delay = self.kill_delay(self.estimate(op), statistics.median(self.firsts[op]))
        with open(log, "w") as f:
            t0 = time.perf_counter()
            p = subprocess.Popen(self.cmd(*argv), stdout=subprocess.DEVNULL, stderr=f, env=env or self.env)
            killed = False
            while True:
                left = delay - (time.perf_counter() - t0)
                if p.poll() is not None:
                    break
                if left <= 0:
                    p.send_signal(signal.SIGKILL)
                    killed = True
                    break
                time.sleep(min(left, 0.002))
            p.wait()
            elapsed = time.perf_counter() - t0
        if not killed:
            self.durations[op].append(elapsed)
        return killed, f"{delay * 1000:.0f} ms of ~{self.estimate(op) * 1000:.0f} ms", p.returncode, False

    def op_watch(self, run, log):
        """`watch` while files are dragged into and out of the trash, made and renamed; killed."""
        present = list(self.assets)
        items = [it for it in self.trash_items if it["id"]]
        self.rng.shuffle(present)
        self.rng.shuffle(items)
        span = self.watch_startup + 0.6
        duration = span + 1.3
        kinds = self.rng.choices(["to_trash", "from_trash", "create", "rename", "folder"], [4, 4, 3, 3, 0.4],
                                 k=self.rng.randint(3, 7))
        schedule = sorted((self.rng.uniform(0, span), i, k) for i, k in enumerate(kinds))
        delay = self.kill_delay(duration)
        done = []
        touched = set()

        def act(kind):
            if kind == "to_trash":
                while present:
                    a = present.pop()
                    src = os.path.join(self.lib, a["path"])
                    if a["path"] in touched or not os.path.lexists(src):
                        continue
                    os.makedirs(self.trash_folder("files"), exist_ok=True)
                    os.makedirs(self.trash_folder("info"), exist_ok=True)
                    files, infos = self.trash_names()
                    taken = files | {n[:-len(".trashinfo")] for n in infos}
                    name = self.free_name(self.trash_folder("files"), os.path.basename(a["path"]), taken)
                    os.rename(src, os.path.join(self.trash_folder("files"), name))
                    touched.add(a["path"])
                    return f"dragged {a['path']} into the trash as {name}"
            elif kind == "from_trash":
                while items:
                    it = items.pop()
                    src = os.path.join(self.trash_folder("files"), it["name"])
                    if not os.path.lexists(src):
                        continue
                    folder = os.path.dirname(it["original_path"])
                    if not os.path.isdir(os.path.join(self.lib, folder)) or self.rng.random() < 0.3:
                        folder = self.rng.choice(self.user_folders())
                    name = self.free_name(os.path.join(self.lib, folder), os.path.basename(it["original_path"]))
                    dst = os.path.join(folder, name) if folder else name
                    os.rename(src, os.path.join(self.lib, dst))
                    touched.add(dst)
                    if self.rng.random() < 0.5:  # a file manager's "restore" deletes the info file after the move
                        try:
                            os.unlink(os.path.join(self.trash_folder("info"), it["name"] + ".trashinfo"))
                        except FileNotFoundError:
                            pass
                    return f"dragged {it['name']} out of the trash to {dst}"
            elif kind == "create":
                path = self.write_new(self.rng.choice(self.user_folders() + ["Imported"]), self.rng.random() < 0.4)
                touched.add(path)
                return f"created {path}"
            elif kind == "rename":
                while present:
                    a = present.pop()
                    src = os.path.join(self.lib, a["path"])
                    if a["path"] in touched or not os.path.lexists(src):
                        continue
                    folder = self.rng.choice([os.path.dirname(a["path"])] + self.user_folders())
                    stem, ext = os.path.splitext(os.path.basename(a["path"]))
                    name = self.free_name(os.path.join(self.lib, folder), f"{stem} w{run}{ext}")
                    dst = os.path.join(folder, name) if folder else name
                    os.rename(src, os.path.join(self.lib, dst))
                    touched.update([a["path"], dst])
                    return f"renamed {a['path']} → {dst}"
            elif kind == "folder":
                folders = [f for f in self.user_folders() if f and "/" in f]
                if folders:
                    f = self.rng.choice(folders)
                    parent = os.path.dirname(f)
                    to = self.free_name(os.path.join(self.lib, parent), os.path.basename(f) + f" w{run}")
                    os.rename(os.path.join(self.lib, f), os.path.join(self.lib, parent, to))
                    touched.update(os.path.join(f, x) for x in os.listdir(os.path.join(self.lib, parent, to)))
                    return f"renamed folder {f} → {parent}/{to}"
            return None

        with open(log, "w") as lf:
            t0 = time.perf_counter()
            p = subprocess.Popen(self.cmd("watch"), stdout=subprocess.DEVNULL, stderr=lf, env=self.env)
            killed = False
            early = None
            events = [(t, i, k) for t, i, k in schedule] + [(delay, -1, "KILL")]
            events.sort(key=lambda e: (e[0], e[1]))
            for t, _, kind in events:
                while True:
                    left = t - (time.perf_counter() - t0)
                    if left <= 0:
                        break
                    time.sleep(min(left, 0.002))
                if kind == "KILL":
                    if p.poll() is None:
                        p.send_signal(signal.SIGKILL)
                        killed = True
                    else:
                        early = p.returncode
                    continue
                what = act(kind)
                if what:
                    done.append(f"{'after' if killed or early is not None else 'during'}: {what}")
            p.wait()
        return killed, delay, early, done, duration

    # ---- the runs

    def replenish(self, run):
        """Trash and purge drain the library; new photos keep it at a useful size."""
        if len(self.assets) >= 0.6 * self.initial_present:
            return
        for _ in range(self.initial_present // 3):
            self.write_new(f"Imported/{run}", False)
        problems = self.check(f"run {run}: replenish")
        if problems:
            self.failed_runs += 1
            print(f"faults: run {run} (replenish, no kill): " + "\n    ".join(problems), file=sys.stderr)

    def full_reset_check(self, label):
        """Everything restored: the library must be the ground truth again, less what was purged."""
        problems = []
        names = [it["name"] for it in self.trash_items]
        if names:
            p = self.run("restore", *names, check=False)
            if p.returncode != 0:
                problems.append(f"reset_mismatches: restore of everything failed: {p.stderr.strip()[-800:]}")
                self.counts["reset_mismatches"] += 1
        problems += self.check(label)
        files, infos = self.trash_names()
        infos = {n for n in infos if not is_temporary(n)}  # counted by check() as stray_temporaries
        if files or infos or self.trash_items:
            problems.append(f"reset_mismatches: Recently Deleted not empty after restoring all: {sorted(files)[:5]} {sorted(infos)[:5]}")
            self.counts["reset_mismatches"] += 1
        listed = {}
        for a in self.assets:
            listed[a["sha256"]] = listed.get(a["sha256"], 0) + 1
            if a.get("live_video"):
                listed[self.sha(os.path.join(self.lib, a["live_video"]))] = listed.get(self.sha(os.path.join(self.lib, a["live_video"])), 0) + 1
        wrong = {s: (n, listed.get(s, 0)) for s, n in self.expected.items() if listed.get(s, 0) != n}
        if wrong:
            problems.append(f"reset_mismatches: present assets differ from the ground truth: "
                            + ", ".join(f"{s[:12]} expected {n} got {m}" for s, (n, m) in list(wrong.items())[:5]))
            self.counts["reset_mismatches"] += len(wrong)
        if problems:
            self.failed_runs += 1
            print(f"faults: {label}: FAILED\n    " + "\n    ".join(problems), file=sys.stderr)
        elif not self.a.quiet:
            print(f"faults: {label}: the library equals the ground truth ({sum(self.expected.values())} originals)",
                  file=sys.stderr)

    def one_run(self, run):
        self.replenish(run)
        weights = {k: v for k, v in WEIGHTS.items() if not self.a.only or k in self.a.only.split(",")}
        op = self.rng.choices(list(weights), list(weights.values()))[0]
        log = os.path.join(self.logs, "run.log")
        purged_from = None
        details = []
        stats = None
        if op == "watch":
            killed, delay, early, details, duration = self.op_watch(run, log)
            desc = f"watch ({len(details)} actions)"
            where = f"{delay * 1000:.0f} ms of ~{duration * 1000:.0f} ms"
            status = None
            if early is not None:
                self.counts["early_exits"] += 1
            stats = self.ops.setdefault(op, dict.fromkeys(("runs", "kills", "at_write", "timed_after_write"), 0))
        else:
            plan = None
            for candidate in [op, "trash"]:
                op = candidate
                plan = {"trash": self.op_trash, "restore": self.op_restore, "purge": self.op_purge,
                        "album": lambda: self.op_album(run), "scan": lambda: self.op_scan(run),
                        "analyze": self.op_analyze, "people": self.op_people,
                        "curate": lambda: self.op_curate(run), "tidy": lambda: self.op_tidy(run),
                        "memories": self.op_memories,
                        "tracker": lambda: self.op_tracker(run), "compose": lambda: self.op_compose(run)}[op]()
                if plan:
                    break
            if plan is None:
                return
            desc, argv, env, extra = plan
            if op == "purge":
                purged_from = extra
            before = self.snapshot()
            killed, where, status, at_write = self.run_killed(op, argv, env, log)
            early = None
            stats = self.ops.setdefault(op, dict.fromkeys(("runs", "kills", "at_write", "timed_after_write"), 0))
            if killed and at_write:
                stats["at_write"] += 1
                self.at_write += 1
            elif killed and self.snapshot() != before:
                stats["timed_after_write"] += 1
                self.mid_write += 1
        stats["runs"] += 1
        if killed:
            stats["kills"] += 1
            self.kills += 1
        how = "killed" if killed else "not killed" + (f", exit {status}" if status else "")
        label = f"run {run} ({desc}, {how} at {where})"
        problems = self.check(label, purged_from)
        if early is not None:
            problems.append(f"early_exits: watch exited by itself ({early}) before the kill: {open(log).read()[-800:]}")
        if problems:
            self.failed_runs += 1
            keep = os.path.join(self.logs, f"run-{run}.log")
            shutil.copyfile(log, keep)
            print(f"faults: {label}: FAILED\n    " + "\n    ".join(problems)
                  + ("\n    actions: " + "; ".join(details) if details else "") + f"\n    shoebox's stderr: {keep}",
                  file=sys.stderr)
        elif not self.a.quiet:
            print(f"faults: {label}: ok", file=sys.stderr)


real_stdout = sys.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--shoebox", default=os.environ.get("SHOEBOX_BIN") or default_shoebox())
    ap.add_argument("--roll", default=os.path.join(ROOT, "sample-library"))
    ap.add_argument("--work", help="work folder (default: a new one under $TMPDIR, deleted when all went well)")
    ap.add_argument("--quick", action="store_true", help="12 runs (CI)")
    ap.add_argument("--only", help="comma-separated operations to draw from (e.g. tidy,trash), to hammer one feature")
    ap.add_argument("--reset-every", type=int, default=None, help="runs between full restore checks (default 25; 6 with --quick)")
    ap.add_argument("--syscall-share", type=float, default=0.5,
                    help="share of the kills made on entry to a chosen write call via strace, when strace can "
                         "trace here (default 0.5; 0: every kill is timed)")
    ap.add_argument("--quiet", action="store_true", help="print only failures and the summary")
    ap.add_argument("--json", help="write the summary as JSON to this file")
    ap.add_argument("--row", action="store_true",
                    help="for bench/run: everything on stderr, and one row of the benchmark table on stdout")
    a = ap.parse_args()
    global real_stdout
    real_stdout = sys.stdout
    if a.row:
        sys.stdout = sys.stderr
    if a.quick:
        a.runs = 12
    if a.seed is None:
        a.seed = random.randrange(1 << 30)
    reset_every = a.reset_every or (6 if a.quick else 25)
    if not os.path.exists(a.shoebox):
        sys.exit(f"faults: {a.shoebox} is missing; run `swift build -c release` first (or pass --shoebox)")
    own_work = a.work is None
    a.work = os.path.abspath(a.work or tempfile.mkdtemp(prefix="shoebox-faults-"))
    os.makedirs(a.work, exist_ok=True)
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
         "originals": sum(h.expected.values()), "files_made": h.made, "shoebox": a.shoebox}
    if a.json:
        with open(a.json, "w") as f:
            json.dump(r, f, indent=1)
    if a.row:
        sys.stdout = real_stdout
        lost = sum(h.counts[k] for k in COUNTERS)
        print(f"| fault injection: kill -9 during trash, restore, purge, albums, scan, watch, analyze, people, curate, tidy, tracker, memories --save, compose ({a.runs:,} runs) "
              f"| {h.kills:,} kills ({h.at_write:,} on entry to a write call), "
              + ", ".join(f"{k.replace('_', ' ')} {h.counts[k]}" for k in COUNTERS)
              + f", other violations {violations}; {seconds:.0f} s | no comparison tool kills a photo manager mid-write "
              f"| goal 0 lost, 0 violations: {'met' if lost == 0 and violations == 0 else 'NOT MET'} |")
        sys.stdout = sys.stderr
    print("faults: per operation: runs/kills (at a write call, timed after the first write): "
          + " ".join(f"{k}={v['runs']}/{v['kills']}" + (f"({v['at_write']},{v['timed_after_write']})" if k != "watch" else "")
                     for k, v in sorted(h.ops.items()))
          + " | " + " ".join(f"{k}={h.counts[k]}" for k in OTHER)
          + " | notes (not violations): " + " ".join(f"{k}={h.counts[k]}" for k in NOTES) + f" | seed={a.seed}")
    print(f"faults: runs={a.runs} kills={h.kills} " + " ".join(f"{k}={h.counts[k]}" for k in COUNTERS)
          + f" seconds={seconds:.0f}")
    if violations:
        print(f"faults: {h.failed_runs} runs failed; the library is kept in {h.lib}", file=sys.stderr)
        sys.exit(1)
    if own_work:
        shutil.rmtree(a.work, ignore_errors=True)


if __name__ == "__main__":
    main()
