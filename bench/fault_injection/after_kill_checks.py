"""What the after-kill scenario checks once the command run first and the next `scan` are done:
  replay_lost — every id of the killed batch (`.shoebox/journal.json` as the kill left it, whose
                sidecar was written) is in the index; if its sidecar was analysed, so is the
                index's, with the names the sidecar gave its faces (unless the command run first
                was a people one, which may rename them);
  second_ids  — as many sidecars as the index has assets, and no file with two ids (two sidecars
                or two assets for one present path or one name in Recently Deleted/files/);
  doctor_failures — `doctor` exits 0;
  rebuild_drift — `rebuild` gives the same ids, with the same paths, states, contents and names."""
import json, os


def sidecar_view(asset):
    """The fields compared, from a sidecar's asset."""
    analysis = asset.get("analysis") or {}
    names = sorted(f["name"] for f in analysis.get("faces") or [] if f.get("name") and not f.get("forgotten"))
    return {"path": asset["path"], "state": asset["state"], "sha256": asset["sha256"], "names": names,
            "analyzed": analysis.get("sha256") == asset["sha256"],
            "trash_name": (asset.get("trash") or {}).get("name")}


def index_view(a):
    """The same fields, from the index's asset shape (`list --json`)."""
    names = sorted(f["name"] for f in a.get("faces") or [] if f.get("name") and f.get("source") == "detected")
    return {"path": a["path"], "state": a["state"], "sha256": a["sha256"], "names": names,
            "analyzed": a.get("analyzed", False), "trash_name": a.get("trash_name")}


class AfterKillChecks:
    def read_sidecars(self, ids=None):
        """id → the sidecar's asset, of every sidecar (or of these ids) on disk."""
        folder = os.path.join(self.lib, ".shoebox", "sidecars")
        names = [i + ".json" for i in ids] if ids is not None else os.listdir(folder)
        out = {}
        for n in names:
            if n.startswith(".") or not n.endswith(".json"):
                continue
            try:
                with open(os.path.join(folder, n), "rb") as f:
                    asset = json.loads(f.read())["asset"]
            except (FileNotFoundError, ValueError, KeyError):
                continue
            out[asset["id"]] = asset
        return out

    def journal_ids(self):
        """The replay record a killed batch left: the ids in .shoebox/journal.json."""
        try:
            with open(os.path.join(self.lib, ".shoebox", "journal.json"), "rb") as f:
                return json.loads(f.read())
        except (FileNotFoundError, ValueError):
            return []

    def index_assets(self):
        """id → the index's asset, every state, the video halves of Live Photos included."""
        out = {}
        for flags in ([], ["--trashed"], ["--missing"]):
            for a in self.json("list", *flags):
                out[a["id"]] = a
        for a in list(out.values()):
            if a.get("live_video") and a["state"] == "present":
                v = self.json("show", a["live_video"])
                out.setdefault(v["id"], v)
        return out

    def after_kill_checks(self, batch, first):
        """The four checks (the library has had the first command and a scan). `batch`: id → the
        killed batch's sidecar asset; `first`: the Command run first. Returns [(counter, text)]."""
        problems = []
        index = self.index_assets()
        problems += self.replay_problems(batch, index, first)
        problems += self.second_id_problems(index)
        problems += self.upload_problems()
        d = self.run("doctor", check=False)
        if d.returncode != 0:
            problems.append(("doctor_failures", "doctor: " + "; ".join(l for l in d.stdout.splitlines() if not l.startswith("ok"))))
        r = self.run("rebuild", check=False)
        if r.returncode != 0:
            problems.append(("rebuild_drift", f"rebuild exited {r.returncode}: {r.stderr.strip()[-300:]}"))
        else:
            problems += self.drift_problems(index, self.index_assets())
        return problems

    def replay_problems(self, batch, index, first):
        out = []
        for id_, asset in sorted(batch.items()):
            want = sidecar_view(asset)
            have = index.get(id_)
            if have is None:
                other = [i for i, a in index.items() if a["path"] == want["path"] and a["state"] == want["state"]]
                out.append(("replay_lost", f"{id_} ({want['path']}) of the killed batch is not in the index"
                                           + (f" (the file has id {', '.join(other)})" if other else "")))
                continue
            have = index_view(have)
            if want["analyzed"] and not have["analyzed"]:
                out.append(("replay_lost", f"{id_} ({want['path']}): its sidecar is analysed, the index's is not"))
            # Names only where the sidecar had an analysis: a file the batch had not analysed
            # may be analysed since (its faces found and named), as it should.
            if want["analyzed"] and first.family != "people" and want["names"] != have["names"]:
                out.append(("replay_lost", f"{id_} ({want['path']}): the killed batch's sidecar names {want['names']}, "
                                           f"the index {have['names']}"))
        return out

    def second_id_problems(self, index):
        out = []
        sidecars = self.read_sidecars()
        if len(sidecars) != len(index):
            only = sorted(set(sidecars) - set(index))
            out.append(("second_ids", f"{len(sidecars)} sidecars for {len(index)} assets in the index"
                                      + (f"; sidecars without an asset: " + ", ".join(f"{i} ({sidecars[i]['path']})" for i in only[:5])
                                         if only else "")))
        for what, views in (("sidecars", [(i, sidecar_view(a)) for i, a in sidecars.items()]),
                            ("assets", [(i, index_view(a)) for i, a in index.items()])):
            seen = {}
            for id_, v in views:
                key = (v["path"],) if v["state"] == "present" else ("trash", v["trash_name"]) if v["state"] == "trashed" else None
                if key is not None:
                    seen.setdefault(key, []).append(id_)
            for key, ids in sorted(seen.items()):
                if len(ids) > 1:
                    out.append(("second_ids", f"{'/'.join(str(x) for x in key)} has {len(ids)} ids in the {what}: {', '.join(sorted(ids))}"))
        return out

    def drift_problems(self, before, after):
        out = []
        gone, new = sorted(set(before) - set(after)), sorted(set(after) - set(before))
        if gone or new:
            listed = lambda ids, view: ", ".join(f"{i} {view[i]['path']}" for i in ids[:3])
            out.append(("rebuild_drift", f"rebuild changed the ids: {len(gone)} gone ({listed(gone, before)}), "
                                         f"{len(new)} new ({listed(new, after)})"))
        changed = [(i, index_view(before[i]), index_view(after[i])) for i in sorted(set(before) & set(after))]
        changed = [(i, b, a) for i, b, a in changed if b != a]
        for i, b, a in changed[:5]:
            diff = {k: (b[k], a[k]) for k in b if b[k] != a[k]}
            out.append(("rebuild_drift", f"{i} ({b['path']}) before → after rebuild: {diff}"))
        if len(changed) > 5:
            out.append(("rebuild_drift", f"… and {len(changed) - 5} more assets changed by rebuild"))
        return out
