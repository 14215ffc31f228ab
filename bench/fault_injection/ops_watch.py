"""`watch` as a random-scenario operation: it runs while the harness drags files into and out of
Recently Deleted/files/ by hand, creates and renames files and folders, and is killed (always
timed: it has no end of its own)."""
import os, signal, subprocess, sys, time


class WatchOp:
    def calibrate_watch(self):
        """How long watch takes to start (its start-up scan): the op runs that, plus the harness's
        actions, plus the ~1 s a removal is held for a possible cookie pair."""
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

    def op_watch(self, run, log):
        """`watch` while files are dragged into and out of the trash, made and renamed; killed.
        Returns (killed, delay, exit status if it ended before the kill, actions done, duration)."""
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
        actions = {"to_trash": lambda: self.drag_to_trash(present, touched),
                   "from_trash": lambda: self.drag_from_trash(items, touched),
                   "create": lambda: self.create_file(touched),
                   "rename": lambda: self.rename_file(present, touched, run),
                   "folder": lambda: self.rename_folder(touched, run)}
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
                what = actions[kind]()
                if what:
                    done.append(f"{'after' if killed or early is not None else 'during'}: {what}")
            p.wait()
        return killed, delay, early, done, duration

    # ---- what a user does meanwhile (each returns what it did, or None)

    def drag_to_trash(self, present, touched):
        """A file manager's "move to trash": the file into files/, no .trashinfo written by shoebox."""
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
        return None

    def drag_from_trash(self, items, touched):
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
        return None

    def create_file(self, touched):
        path = self.write_new(self.rng.choice(self.user_folders() + ["Imported"]), self.rng.random() < 0.4)
        touched.add(path)
        return f"created {path}"

    def rename_file(self, present, touched, run):
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
        return None

    def rename_folder(self, touched, run):
        folders = [f for f in self.user_folders() if f and "/" in f]
        if not folders:
            return None
        f = self.rng.choice(folders)
        parent = os.path.dirname(f)
        to = self.free_name(os.path.join(self.lib, parent), os.path.basename(f) + f" w{run}")
        os.rename(os.path.join(self.lib, f), os.path.join(self.lib, parent, to))
        touched.update(os.path.join(f, x) for x in os.listdir(os.path.join(self.lib, parent, to)))
        return f"renamed folder {f} → {parent}/{to}"
