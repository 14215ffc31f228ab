"""Memories' writing command as a random-scenario operation: a collage saved into Collages/
(written under a hidden temporary, renamed without replacing, then indexed) or written to a file
outside the library (-o); and its check: every collage under a name is a whole JPEG."""
import os

from .common import NOT_ORIGINALS, is_whole_jpeg


class MemoriesOps:
    def op_memories(self, run):
        """A collage of the year with the most photos."""
        sources = self.json("memories", "sources")
        years = [y for y in (sources or {}).get("years", []) if y["count"] >= 6]
        if not years or "memories" not in self.durations:
            return None
        year = str(max(years, key=lambda y: y["count"])["year"])
        seed = str(self.rng.randint(1, 1000))
        argv = ["memories", "collage", "--year", year, "--seed", seed]
        if self.rng.random() < 0.25:
            out = os.path.join(self.work, "collages", f"{run}.jpg")
            return f"memories collage --year {year} -o", argv + ["-o", out], None, None
        return f"memories collage --year {year} --save", argv + ["--save"], None, None

    def calibrate_memories(self, round, measure):
        years = [y for y in self.json("memories", "sources").get("years", []) if y["count"] >= 6]
        if years:
            year = str(years[0]["year"])
            measure("memories", "memories", "collage", "--year", year, "--save")
            measure("memories", "memories", "collage", "--year", year,
                    "-o", os.path.join(self.work, "collages", f"calibration {round}.jpg"))

    def check_outside_collages(self, bad):
        """What `memories collage -o` left under a name outside the library is a whole JPEG."""
        folder = os.path.join(self.work, "collages")
        for n in sorted(os.listdir(folder)):
            path = os.path.join(folder, n)
            if n.startswith(".") or not os.path.isfile(path):
                continue
            with open(path, "rb") as f:
                data = f.read()
            if not is_whole_jpeg(data):
                bad("collage_partial", 1, f"{path} is not a whole JPEG ({len(data)} bytes)", ("outside", n))

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
            if not is_whole_jpeg(data):
                bad("collage_partial", 1, f"Collages/{n} is not a whole JPEG ({len(data)} bytes)", ("collage", n))
            self.ids.setdefault(sha, set())
            self.collage_shas.add(sha)
            self.expected[sha] = self.expected.get(sha, 0) + 1
        self.remember_inodes()

    def remember_inodes(self):
        self.inodes = set()
        for d, dirs, names in os.walk(self.lib):
            if d == self.lib:
                dirs[:] = [x for x in dirs if x not in NOT_ORIGINALS]
            for n in names:
                try:
                    self.inodes.add(os.lstat(os.path.join(d, n)).st_ino)
                except FileNotFoundError:
                    continue
