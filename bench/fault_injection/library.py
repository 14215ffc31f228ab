"""The harness's view of the library: running shoebox on it, the files on disk, and the assets
as the public commands list them."""
import hashlib, json, os, shutil, stat, subprocess, sys

from .common import NOT_ORIGINALS, SKIP_FOLDERS


class LibraryAccess:
    """Mixed into the Harness: needs self.sb, self.lib, self.env, self.rng, self.a, self.hash_cache,
    self.expected, self.ids, self.jpegs, self.made, self.assets."""

    # ---- running shoebox

    def cmd(self, *args):
        return [self.sb, "--library", self.lib, *args]

    def run(self, *args, env=None, check=True):
        p = subprocess.run(self.cmd(*args), capture_output=True, text=True, env=env or self.env)
        if check and p.returncode != 0:
            raise RuntimeError(f"shoebox {' '.join(args)} failed ({p.returncode}): {p.stderr.strip()[-1500:]}")
        return p

    def json(self, *args, env=None):
        return json.loads(self.run(*args, "--json", env=env).stdout or "null")

    # ---- the disk

    def copy_roll(self, roll):
        """The roll (without its own .shoebox/, Albums/ and Recently Deleted/) as a new library, init'ed."""
        shutil.copytree(roll, self.lib, symlinks=True,
                        ignore=lambda d, names: [n for n in names if os.path.abspath(d) == roll
                                                 and n in (".shoebox", "Albums", "Recently Deleted")])
        self.keep_sources_aside(roll)
        subprocess.run([self.sb, "init", self.lib], check=True, capture_output=True, env=self.env)

    def keep_sources_aside(self, roll):
        """The roll's first JPEGs, copied out of the library: the sources of new files (the
        library's own may be trashed and purged)."""
        for d, _, names in os.walk(self.lib):
            self.jpegs += [os.path.join(d, n) for n in names if n.lower().endswith((".jpg", ".jpeg"))]
        self.jpegs.sort()
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
        """(present, trash items, everything): every asset with its sha, Live Photo videos included."""
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

    def pick_present(self, lo, hi):
        k = min(len(self.assets), self.rng.randint(lo, hi))
        return self.rng.sample(self.assets, k)
