"""The tracker's writing commands as random-scenario operations (project, mini and recipe
add/update/rm, recipe link/unlink, photo add/rm, export into a folder outside the library), and
its checks: Tracker/tracker.json reads, its references hold, each photo it names is there with its
SHA-256, and each export file under a name is whole."""
import json, os

from .common import ROOT


class TrackerOps:
    def tracker_source(self):
        """A photo to add: a JPEG, PNG or HEIC asset of the library by id, else a roll JPEG by path."""
        photos = [a for a in self.assets if a.get("format") in ("jpeg", "png", "heic") and a.get("state") == "present"]
        if photos and self.rng.random() < 0.7:
            return self.rng.choice(photos)["id"]
        return os.path.join(self.lib, self.rng.choice(photos)["path"]) if photos else os.path.join(ROOT, "test-data/photos/kite.jpg")

    def op_tracker(self, run):
        """Photo add copies an asset (by id) or a file (by path); rm cascades delete photo files."""
        t = self.run("tracker", "mini", "list", "--json", check=False)
        if t.returncode != 0:
            return None  # counted by check() as tracker_damaged
        minis = json.loads(t.stdout or "[]")
        projects = self.json("tracker", "project", "list")
        recipes = self.json("tracker", "recipe", "list")
        photos = [p for m in minis for p in m["photo_ids"]]
        linked = [(r, m["id"]) for m in minis for r in m["recipe_ids"]]
        choices = ["project add", "recipe add", "export"]
        if projects:
            choices += ["mini add"] * 2 + ["project rm", "project update"]
        if minis:
            choices += ["photo add"] * 4 + ["mini update", "mini rm"] + (["recipe link"] if recipes else [])
        choices += ["photo rm"] * 2 if photos else []
        choices += ["recipe rm", "recipe update"] if recipes else []
        choices += ["recipe unlink"] if linked else []
        what = self.rng.choice(choices)
        pick = lambda xs: self.rng.choice(xs)["id"]
        argv = {"project add": lambda: ["project", "add", "--game-system", self.rng.choice(["aos", "40k", "hh"]), "--army", f"Army {run}"],
                "project update": lambda: ["project", "update", pick(projects), "--name", f"Renamed {run}"],
                "recipe add": lambda: ["recipe", "add", "--name", f"Recipe {run}", "--step", "Prime", "--paint", "Nuln Oil"],
                "recipe update": lambda: ["recipe", "update", pick(recipes), "--step", f"Step {run}"],
                "mini add": lambda: ["mini", "add", pick(projects), "--name", f"Mini {run}", "--type", "troop"],
                "project rm": lambda: ["project", "rm", pick(projects)],
                "photo add": lambda: ["photo", "add", pick(minis), self.tracker_source()],
                "mini update": lambda: ["mini", "update", pick(minis), "--progress", self.rng.choice(["primed", "completed"])],
                "mini rm": lambda: ["mini", "rm", pick(minis)],
                "recipe link": lambda: ["recipe", "link", pick(recipes), pick(minis)],
                "recipe unlink": lambda: ["recipe", "unlink", *self.rng.choice(linked)],
                "photo rm": lambda: ["photo", "rm", self.rng.choice(photos)],
                "recipe rm": lambda: ["recipe", "rm", pick(recipes)],
                "export": lambda: ["export", "--format", self.rng.choice(["json", "csv"]),
                                   "-o", os.path.join(self.work, "exports", str(run))]}[what]()
        return f"tracker {what}", ["tracker", *argv], None, None

    def calibrate_tracker(self, round, measure):
        tp = self.json("tracker", "project", "add", "--game-system", "40k", "--army", f"Calibration {round}")["id"]
        tm = self.json("tracker", "mini", "add", tp, "--name", "Calibration", "--type", "troop")["id"]
        tr = self.json("tracker", "recipe", "add", "--name", f"Calibration {round}")["id"]
        measure("tracker", "tracker", "photo", "add", tm, self.tracker_source())
        measure("tracker", "tracker", "mini", "update", tm, "--progress", "primed")
        measure("tracker", "tracker", "recipe", "link", tr, tm)
        measure("tracker", "tracker", "recipe", "unlink", tr, tm)
        measure("tracker", "tracker", "export", "--format", "csv", "-o", os.path.join(self.work, "exports", f"calibration {round}"))
        measure("tracker", "tracker", "project", "rm", tp)
        measure("tracker", "tracker", "recipe", "rm", tr)

    def check_tracker(self, bad):
        """The tracker reads (a kill leaves the old file or the new one), its references hold, and
        each photo it names is there, whole (copied before its record is saved, deleted after)."""
        t = self.run("tracker", "project", "list", "--json", check=False)
        if t.returncode != 0:
            bad("tracker_damaged", 1, f"tracker project list exited {t.returncode}: {t.stderr.strip()[-400:]}", t.stderr.strip()[-200:])
        for text in self.tracker_findings():
            bad("tracker_integrity", 1, text, ("tracker", text))
        for text in self.export_findings():
            bad("export_partial", 1, text, ("export", text))

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

    def export_findings(self):
        """Each file `tracker export` left under a name is whole: tracker.json parses, a CSV table
        ends with its line end (CRLF)."""
        out = []
        for folder, _, names in os.walk(os.path.join(self.work, "exports")):
            for n in sorted(x for x in names if not x.startswith(".")):
                path = os.path.join(folder, n)
                with open(path, "rb") as f:
                    data = f.read()
                if n.endswith(".json"):
                    try:
                        json.loads(data)
                    except ValueError as e:
                        out.append(f"{path} is not JSON: {e}")
                elif not data.endswith(b"\r\n"):
                    out.append(f"{path} is cut short ({len(data)} bytes)")
        return out
