"""The after-kill scenario's template library, and every writing command of every feature with
its arguments against it. The template holds what each command needs to have work to do: new
files no scan has seen (scan, watch), files scanned but not analysed (analyze, cache thumbnail),
named people (people name/merge/forget), a photo in the trash and one trashed long ago (restore,
purge), two albums, a curation list with a selection, a tidy session with a decision and a mark,
a composer draft, and a tracker with projects, miniatures, recipes and a photo. Each command gets
photos of its own, so that the command killed and the one run after it never share one."""
import os, sys

LONG_AGO = "2000-01-01T00:00:00"   # SHOEBOX_NOW when the purge's photo was trashed: expired since
OUT = "{out}"                      # in an argv: the pair's own folder outside the library


class Command:
    """One writing command: its name (as the report shows it), its family and its argv."""

    def __init__(self, name, family, argv, env=None):
        self.name, self.family, self.argv, self.env = name, family, argv, env

    def args(self, outside):
        return [x.replace(OUT, outside) for x in self.argv]


class Cast:
    """Mixed into the after-kill harness: builds the template at self.lib and lists the commands."""

    def build_template(self):
        self.copy_roll(os.path.abspath(self.a.roll))
        self.run("scan")
        self.run("analyze")
        stills = sorted((a for a in self.json("list") if a["kind"] == "photo" and a["format"] in ("jpeg", "heic")),
                        key=lambda a: a["path"])
        people = self.json("people", "list")
        if people:
            self.run("people", "name", people[0]["id"], "Tom")
        take = iter(a["id"] for a in stills)
        c = {k: [next(take) for _ in range(n)] for k, n in [
            ("trash", 1), ("restore", 1), ("purge", 1), ("album", 3), ("album new", 2), ("album add", 1),
            ("album old", 1), ("curate", 4), ("curate add", 1), ("tidy mark", 1), ("draft", 2), ("compose add", 1),
            ("compose replace", 1), ("tracker photo", 1), ("tracker add", 1), ("web trash", 1), ("web restore", 1),
            ("web album", 2), ("web album new", 1), ("web tidy mark", 1)]}
        self.run("trash", *c["restore"])
        self.run("trash", *c["purge"], env=dict(self.env, SHOEBOX_NOW=LONG_AGO))
        self.run("album", "create", "Kept", *c["album"])
        self.run("album", "create", "Old", *c["album old"])
        self.run("curate", "add", *c["curate"])
        self.run("curate", "top", "1")
        self.run("tidy", "filter", "all")
        self.run("tidy", "keep")
        self.run("tidy", "delete", *c["tidy mark"])
        self.run("compose", "add", *c["draft"])
        self.tracker_template(c)
        self.web_template(c)
        pending = [self.write_new("Pending", False) for _ in range(2)]
        self.run("scan")  # indexed, never analysed
        for _ in range(3):
            self.write_new("Incoming", False)  # never scanned
        self.commands = self.writing_commands(c, people, pending)

    def tracker_template(self, c):
        t = lambda *argv: self.json("tracker", *argv)["id"]
        p1 = t("project", "add", "--game-system", "40k", "--army", "Template")
        c["project"], c["project doomed"] = p1, t("project", "add", "--game-system", "aos", "--army", "Doomed")
        c["mini"], c["mini doomed"] = t("mini", "add", p1, "--name", "Kept", "--type", "troop"), \
            t("mini", "add", p1, "--name", "Doomed", "--type", "character")
        c["recipe"], c["recipe doomed"], c["recipe spare"] = (t("recipe", "add", "--name", n) for n in ("Kept", "Doomed", "Spare"))
        self.run("tracker", "recipe", "link", c["recipe"], c["mini"])
        c["tracker photo id"] = t("photo", "add", c["mini"], *c["tracker photo"])

    def writing_commands(self, c, people, pending):
        """Every writing command of every feature, with arguments that give it work on the template."""
        k = Command
        cmds = [k("scan", "core", ["scan"]),
                k("trash", "core", ["trash", *c["trash"]]),
                k("restore", "core", ["restore", *c["restore"]]),
                k("trash purge", "core", ["trash", "purge"]),
                k("album create", "core", ["album", "create", "New", *c["album new"]]),
                k("album add", "core", ["album", "add", "Kept", *c["album add"]]),
                k("album remove", "core", ["album", "remove", "Kept", c["album"][0]]),
                k("album order", "core", ["album", "order", "Kept", c["album"][2], c["album"][1]]),
                k("album delete", "core", ["album", "delete", "Old"]),
                k("rebuild", "core", ["rebuild"]),
                k("analyze", "analysis", ["analyze"]),
                k("cache clear", "analysis", ["cache", "clear"]),
                k("cache thumbnail", "analysis", ["cache", "thumbnail", pending[0]])]
        if people:
            cmds.append(k("people name", "people", ["people", "name", people[0]["id"], "Alice"]))
            cmds.append(k("people forget", "people", ["people", "forget", people[-1]["face"]["id"]]))
        if len(people) >= 2:
            cmds.append(k("people merge", "people", ["people", "merge", *[p["id"] for p in people[-2:]]]))
        cmds += [k(f"tidy {d}", "tidy", ["tidy", d]) for d in ("keep", "delete", "maybe", "undo", "empty")]
        cmds += [k("tidy unmark", "tidy", ["tidy", "unmark", *c["tidy mark"]]),
                 k("tidy filter", "tidy", ["tidy", "filter", "all"]),
                 k("curate add", "curation", ["curate", "add", *c["curate add"]]),
                 k("curate select", "curation", ["curate", "select", "3"]),
                 k("curate deselect", "curation", ["curate", "deselect", "1"]),
                 k("curate top", "curation", ["curate", "top", "5"]),
                 k("curate remove", "curation", ["curate", "remove"]),
                 k("curate share", "curation", ["curate", "share", "--to", OUT + "/share"]),
                 k("curate album", "curation", ["curate", "album"]),
                 k("curate clear", "curation", ["curate", "clear"]),
                 k("compose add", "composer", ["compose", "add", *c["compose add"]]),
                 k("compose move", "composer", ["compose", "move", "1", "2"]),
                 k("compose replace", "composer", ["compose", "replace", "1", *c["compose replace"]]),
                 k("compose remove", "composer", ["compose", "remove", "2"]),
                 k("compose clear", "composer", ["compose", "clear"]),
                 k("compose export", "composer", ["compose", "export", "-o", OUT + "/story.heic"]),
                 k("compose export --save", "composer", ["compose", "export", "--save"])]
        cmds += self.memories_commands()
        cmds += self.tracker_commands(c)
        cmds += self.web_commands(c, people)
        cmds.append(k("watch", "watch", ["watch", "--no-analyze"]))
        return cmds

    def memories_commands(self):
        years = [y for y in (self.json("memories", "sources") or {}).get("years", []) if y["count"] >= 6]
        if not years:
            print("faults: after-kill: no year has 6 photos: memories collage is left out", file=sys.stderr)
            return []
        year = str(max(years, key=lambda y: y["count"])["year"])
        collage = ["memories", "collage", "--year", year, "--seed", "1"]
        return [Command("memories collage --save", "memories", collage + ["--save"]),
                Command("memories collage -o", "memories", collage + ["-o", OUT + "/collage.jpg"])]

    def tracker_commands(self, c):
        k = lambda name, *argv: Command("tracker " + name, "tracker", ["tracker", *argv])
        return [k("project add", "project", "add", "--game-system", "hh", "--army", "New"),
                k("project update", "project", "update", c["project"], "--name", "Renamed"),
                k("project rm", "project", "rm", c["project doomed"]),
                k("mini add", "mini", "add", c["project"], "--name", "New", "--type", "troop"),
                k("mini update", "mini", "update", c["mini"], "--progress", "primed"),
                k("mini rm", "mini", "rm", c["mini doomed"]),
                k("recipe add", "recipe", "add", "--name", "New", "--step", "Prime"),
                k("recipe update", "recipe", "update", c["recipe"], "--step", "Wash"),
                k("recipe rm", "recipe", "rm", c["recipe doomed"]),
                k("recipe link", "recipe", "link", c["recipe spare"], c["mini"]),
                k("recipe unlink", "recipe", "unlink", c["recipe"], c["mini"]),
                k("photo add", "photo", "add", c["mini"], *c["tracker add"]),
                k("photo rm", "photo", "rm", c["tracker photo id"]),
                k("export", "export", "--format", "json", "-o", OUT + "/export")]
