"""The composer's writing commands as random-scenario operations (add, move, replace, remove,
clear: the draft file; export -o a file outside the library; export --save into Collages/), and
its checks: the draft reads, and every story under a name is a whole 1080×1920 HEIC."""
import json, os, subprocess


class ComposerOps:
    def op_compose(self, run):
        listed = self.run("compose", "list", "--json", check=False)
        if listed.returncode != 0:
            return None  # counted by check() as composer_damaged
        draft = json.loads(listed.stdout or "[]")
        n = len(draft)
        stills = [a["id"] for a in self.pick_present(1, 4) if a["kind"] != "video"]
        ids = stills[:4 - n]
        choices = (["add"] if ids else []) + (["move", "remove", "clear", "export", "export", "save"] if n else [])
        in_draft = {x.get("id") for x in draft}
        others = [i for i in stills if i not in in_draft]
        if n and others:
            choices.append("replace")
        if not choices:
            return None
        what = self.rng.choice(choices)
        if what == "add":
            return f"compose add ({len(ids)})", ["compose", "add", *ids], None, None
        if what == "move":
            return "compose move", ["compose", "move", str(self.rng.randint(1, n)), str(self.rng.randint(1, n))], None, None
        if what == "replace":
            return "compose replace", ["compose", "replace", str(self.rng.randint(1, n)), others[0]], None, None
        if what == "remove":
            return "compose remove", ["compose", "remove", str(self.rng.randint(1, n))], None, None
        if what == "clear":
            return "compose clear", ["compose", "clear"], None, None
        if what == "save":
            return f"compose export --save ({n})", ["compose", "export", "--save"], None, None
        return f"compose export ({n})", ["compose", "export", "-o", os.path.join(self.work, "stories", f"{run}.heic")], None, None

    def calibrate_composer(self, round, measure):
        stills = [a["id"] for a in self.assets if a["kind"] != "video"][round:round + 4]
        measure("compose", "compose", "add", *stills[:2])
        measure("compose", "compose", "move", "1", "2")
        measure("compose", "compose", "replace", "2", stills[3])
        measure("compose", "compose", "export", "-o", os.path.join(self.work, "stories", f"calibration {round}.heic"))
        measure("compose", "compose", "add", stills[2])
        measure("compose", "compose", "export", "--save")

    def check_stories(self, disk, bad):
        """The draft reads (old or new, never damaged), and every story under a name is whole:
        outside the library, and in Collages/, where a new one becomes an original the later
        checks count like any other."""
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
