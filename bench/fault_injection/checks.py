"""The invariants after each kill of the random scenario: the next start (`scan`), then every
original where it was, byte-identical and once an asset with its old id; Recently Deleted/ in
pairs; no dangling link; `doctor` clean; no leftover of a dead writer; and each feature's own
files readable and whole (the families' check_* methods)."""
import os, subprocess, sys

from .common import is_temporary


class Checks:
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
        self.adopt_collages(bad)  # collages `memories --save` made are new originals, once whole
        self.check_originals(disk, purged_from, bad)
        self.check_trash_pairs(bad)
        self.check_links(bad)
        self.check_doctor(bad, problems)
        per_sha = self.check_ids(everything, bad)
        self.check_leftovers(bad)
        self.check_curation(bad)
        self.check_tidy(bad)
        self.check_tidy_web(bad)
        self.check_curate_web(bad)
        self.check_compose_web(bad)
        self.check_tracker(bad)
        self.check_outside_collages(bad)
        self.check_web(bad)
        self.check_one_asset_each(disk, per_sha, bad)
        return problems

    def check_originals(self, disk, purged_from, bad):
        """Every original, as many times as it had copies, byte-identical (less what a purge took
        from the trash)."""
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

    def check_trash_pairs(self, bad):
        """Recently Deleted: each .trashinfo with its file, each file with its .trashinfo."""
        files, infos = self.trash_names()
        info_names = {n[:-len(".trashinfo")] for n in infos if n.endswith(".trashinfo")}
        for n in sorted(info_names - files):
            bad("orphan_trashinfo", 1, f"Recently Deleted/info/{n}.trashinfo without its file", ("info", n))
        for n in sorted(files - info_names):
            bad("orphan_trashinfo", 1, f"Recently Deleted/files/{n} without its .trashinfo", ("file", n))

    def check_links(self, bad):
        """No link that leads nowhere, anywhere under the library."""
        f = subprocess.run(["find", self.lib, "-xtype", "l"], capture_output=True, text=True)
        for x in [os.path.relpath(x, self.lib) for x in f.stdout.splitlines() if x]:
            bad("dangling_links", 1, f"{x} → {os.readlink(os.path.join(self.lib, x))}", x)

    def check_doctor(self, bad, problems):
        d = self.run("doctor", check=False)
        if d.returncode != 0:
            bad("doctor_failures", 1, "doctor: " + "; ".join(l for l in d.stdout.splitlines() if not l.startswith("ok")))
            # Repaired as doctor says (`rebuild`), so that one finding is counted once, not in every later run.
            self.run("rebuild", check=False)
            self.run("scan", check=False)
            if self.run("doctor", check=False).returncode != 0:
                problems.append("doctor: still unhealthy after `rebuild` and `scan`")

    def check_ids(self, everything, bad):
        """Old content keeps the ids it had; new content (made by the harness, a collage, a saved
        story) gets one. Returns sha → [(id, state, path)]."""
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
            elif sha in self.stories and len(known) < self.expected.get(sha, 0):
                known.add(id_)  # a saved story's bytes saved once more: a copy, with its own id
            elif id_ not in known:
                bad("id_changes", 1, f"{path} ({state}) has a new id {id_} for content {sha[:12]} (had {sorted(known)})")
                known.add(id_)
        return per_sha

    def check_leftovers(self, bad):
        """No album build folder, and no temporary of a whole-file write (`.NAME.PID.RANDOM.tmp`):
        the next start deletes those whose writer is dead."""
        for dd, dirs, _ in os.walk(os.path.join(self.lib, "Albums")):
            for x in dirs:
                if x.startswith(".shoebox-build-"):
                    rel = os.path.relpath(os.path.join(dd, x), self.lib)
                    bad("build_leftovers", 1, rel, rel)
        thumbs = os.path.join(self.lib, ".shoebox/thumbs")
        shards = [".shoebox/thumbs/" + x for x in sorted(os.listdir(thumbs))] if os.path.isdir(thumbs) else []
        for d in (".shoebox", ".shoebox/sidecars", ".shoebox/albums", "Recently Deleted/info", "Collages", *shards):
            folder = os.path.join(self.lib, d)
            for n in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
                if is_temporary(n):
                    bad("stray_temporaries", 1, os.path.join(d, n), ("stray_temporaries", os.path.join(d, n)))

    def check_one_asset_each(self, disk, per_sha, bad):
        """Each original on disk is one asset, present or trashed."""
        for sha, paths in disk.items():
            if sha not in self.ids:
                continue
            assets = [x for x in per_sha.get(sha, []) if x[1] in ("present", "trashed")]
            if len(assets) != len(paths):
                bad("unindexed", abs(len(paths) - len(assets)), f"{sha[:12]}: files {paths}, assets {assets}",
                    (sha, len(paths), len(assets)))

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
            for sha in [a["sha256"]] + ([self.sha(os.path.join(self.lib, a["live_video"]))] if a.get("live_video") else []):
                listed[sha] = listed.get(sha, 0) + 1
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
