"""The random scenario's set-up: the roll copied into a new library, scanned, its ground truth
recorded (each content's copies and ids), then every operation calibrated by un-killed runs."""
import os, shutil, statistics, sys


class Setup:
    def setup(self):
        roll = os.path.abspath(self.a.roll)
        if os.path.exists(self.lib):
            shutil.rmtree(self.lib)
        shutil.rmtree(self.logs, ignore_errors=True)
        os.makedirs(self.logs)
        self.copy_roll(roll)
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

    def calibrate(self):
        """Un-killed timings of each operation (when it first writes, when it is done) and, under
        strace, the write calls it makes, so that kills land throughout its writes. With --only,
        only the operations drawn."""
        only = set(self.a.only.split(",")) if self.a.only else None
        wants = lambda *ops: only is None or bool(only & set(ops))
        rounds = [self.measure] * 2 + ([self.count_writes] if self.strace else [])
        for round, measure in enumerate(rounds):
            self.assets = self.json("list")
            ids = [a["id"] for a in self.rng.sample(self.assets, min(3, len(self.assets)))]
            if wants("trash", "restore", "album"):
                self.calibrate_core(round, measure, ids)
            if wants("curate"):
                self.calibrate_curation(round, measure, ids)
            if wants("tidy"):
                self.calibrate_tidy(round, measure, ids)
            if wants("tracker"):
                self.calibrate_tracker(round, measure)
            if wants("memories"):
                self.calibrate_memories(round, measure)
            if wants("compose"):
                self.calibrate_composer(round, measure)
            if wants("scan", "rebuild"):
                self.calibrate_scan(round, measure)
            if wants("analyze", "cache", "people", "web"):
                self.calibrate_analysis(round, measure)  # faces for people's names
            if wants("people"):
                self.calibrate_people(round, measure)
            if wants("web") and measure == self.measure:
                self.calibrate_web(round)
        in_trash = {}
        for measure in rounds[1:]:
            if wants("purge"):
                self.calibrate_purge(measure, in_trash)
        if wants("watch"):
            self.calibrate_watch()
        problems = self.check("calibration", purged_from=in_trash)
        if problems:
            sys.exit("faults: the calibration runs left problems (no kill was involved):\n  " + "\n  ".join(problems))
        print("faults: un-killed timings (first write–exit): "
              + " ".join((f"{k}={1000 * statistics.median(self.firsts[k]):.0f}–" if k in self.firsts else f"{k}=")
                         + f"{1000 * statistics.median(v):.0f}ms" for k, v in sorted(self.durations.items()))
              + (f" watch-start-up={self.watch_startup * 1000:.0f}ms" if hasattr(self, "watch_startup") else ""), file=sys.stderr)
        if self.strace:
            print("faults: write calls (strace): " + " ".join(
                f"{k}={sum(self.writes[k][-1].values())}" for k in sorted(self.writes)), file=sys.stderr)
        else:
            print("faults: strace is not usable here: every kill is timed", file=sys.stderr)
