"""The core's writing commands as random-scenario operations: trash, restore, trash purge, the
album commands, scan (after moves the harness made), rebuild, and people name/merge/forget. Each
op_* returns (description, argv, env, extra) to be run and killed, or None when it has nothing to do."""
import os, stat

from .common import FUTURE


class CoreOps:
    def op_trash(self, run):
        chosen = self.pick_present(1, 5)
        if not chosen:
            return None
        refs = [a["path"] if self.rng.random() < 0.3 else a["id"] for a in chosen]
        return f"trash {len(refs)}", ["trash", *refs], None, None

    def op_restore(self, run):
        items = [it for it in self.trash_items if it["id"]]
        if not items:
            return None
        chosen = self.rng.sample(items, min(len(items), self.rng.randint(1, 3)))
        refs = [it["name"] if self.rng.random() < 0.3 else it["id"] for it in chosen]
        return f"restore {len(refs)}", ["restore", *refs], None, None

    def op_purge(self, run):
        """Everything in the trash has expired (SHOEBOX_NOW far ahead): extra = sha → copies it may take."""
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

    def op_rebuild(self, run):
        """The index made again from the sidecars and the files (same ids)."""
        return "rebuild", ["rebuild"], None, None

    def op_people(self, run):
        """Names a person, merges two, or forgets a face: every photo of theirs is written again."""
        people = self.json("people", "list")
        if not people or "people" not in self.durations:
            return None
        r = self.rng.random()
        if len(people) >= 2 and r < 0.3:
            a, b = self.rng.sample(people, 2)
            return "people merge", ["people", "merge", a["id"], b["id"]], None, None
        if r > 0.9:
            return "people forget", ["people", "forget", self.rng.choice(people)["face"]["id"]], None, None
        who = self.rng.choice(people)
        return "people name", ["people", "name", who["id"], self.rng.choice(["Ana", "Tom", "Zoë", "Bob Faults"])], None, None

    # ---- calibration (un-killed runs: durations and write calls)

    def calibrate_core(self, round, measure, ids):
        """trash, restore and the album commands on `ids` (present assets)."""
        measure("trash", "trash", *ids)
        measure("restore", "restore", *ids)
        name = f"faults calibration {round}"
        measure("album", "album", "create", name, *ids)
        measure("album", "album", "order", name, *reversed(ids))
        measure("album", "album", "add", name, *[a["id"] for a in self.assets[:2]])
        measure("album", "album", "remove", name, ids[0])
        measure("album", "album", "delete", name)

    def calibrate_scan(self, round, measure):
        """A scan after a rename, and rebuild."""
        a = self.rng.choice(self.assets)
        stem, ext = os.path.splitext(a["path"])
        os.rename(os.path.join(self.lib, a["path"]), os.path.join(self.lib, f"{stem} calibration {round}{ext}"))
        measure("scan", "scan")
        measure("rebuild", "rebuild")

    def calibrate_people(self, round, measure):
        """A name given to the first person found (merge and forget are left to the runs: they
        take people away for good)."""
        people = self.json("people", "list")
        if people:
            measure("people", "people", "name", people[0]["id"], f"Calibration {round}")

    def calibrate_purge(self, measure, in_trash):
        """purge: on files made for it (the originals of the roll are not for calibration);
        in_trash counts sha → copies it may take."""
        made = [self.write_new("Calibration", False) for _ in range(3)]
        self.run("scan")
        self.run("trash", *made)
        for n in self.trash_names()[0]:
            s = self.sha(os.path.join(self.trash_folder("files"), n))
            in_trash[s] = in_trash.get(s, 0) + 1
        measure("purge", "trash", "purge", env=dict(self.env, SHOEBOX_NOW=FUTURE))
