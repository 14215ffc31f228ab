"""Curation's writing commands as random-scenario operations (add, select, deselect, top,
remove, share into a folder outside the library, album, clear), and its checks: the list reads,
and what share left under a name is an original, whole."""
import json, os


class CurationOps:
    def op_curate(self, run):
        """add runs the analysis of what it adds; select/deselect/top/remove/clear change the list
        file; share copies or links into a folder outside; album makes a "TO NAME …" user album."""
        listed = self.run("curate", "list", "--json", check=False)
        if listed.returncode != 0:
            return None  # counted by check() as curation_damaged
        items = json.loads(listed.stdout or "[]")
        ids = [a["id"] for a in self.pick_present(1, 6)]
        choices = ["add"] if ids else []
        if items:
            choices += ["select", "deselect", "top", "share", "share", "album", "remove", "clear"]
        if not choices:
            return None
        what = self.rng.choice(choices)
        if what == "add":
            return f"curate add ({len(ids)})", ["curate", "add", *ids], None, None
        if what in ("select", "deselect"):
            ranks = [str(self.rng.randint(1, len(items))) for _ in range(self.rng.randint(1, 3))]
            return f"curate {what} ({len(ranks)})", ["curate", what, *ranks], None, None
        if what == "top":
            return "curate top", ["curate", "top", self.rng.choice(["1", "5", "10", "20"])], None, None
        if what == "album":
            return "curate album", ["curate", "album"], None, None
        if what == "clear":
            return "curate clear", ["curate", "clear"], None, None
        if not any(x["selected"] for x in items) and self.run("curate", "top", "5", check=False).returncode != 0:
            return None
        if what == "remove":
            return "curate remove", ["curate", "remove"], None, None
        to = os.path.join(self.work, "shared", str(run))
        copy = ["--copy"] if self.rng.random() < 0.5 else []
        return f"curate share{' --copy' if copy else ''}", ["curate", "share", "--to", to, *copy], None, None

    def calibrate_curation(self, round, measure, ids):
        measure("curate", "curate", "add", *ids)
        measure("curate", "curate", "top", "5")
        measure("curate", "curate", "deselect", "1")
        measure("curate", "curate", "select", "1")
        measure("curate", "curate", "share", "--to", os.path.join(self.work, "shared", f"calibration {round}"))
        measure("curate", "curate", "album")
        measure("curate", "curate", "remove")
        if round == 0:
            measure("curate", "curate", "clear")

    def check_curation(self, bad):
        """The list reads (a kill leaves the old file or the new one), and each file `curate share`
        left in its folders under a name (not a hidden temporary) holds an original's bytes, whole."""
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
