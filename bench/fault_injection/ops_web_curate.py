"""Curation's writes through the web server (issue 31) as random-scenario operations: add
(`POST /api/curation/add`, which also starts the server's analysis of what it adds), select,
top, remove and album — sent as the /curate page sends them, the server killed at a random
instant of the request (ops_web.py's way). Their check, after the next start: the list reads
(check_curation's curation_damaged) and the request is done whole or not at all
(curation_half_done: some of the photos added and not others, a selection neither as before nor
as asked, an album "TO NAME …" that does not hold the list in score order)."""
import json

# The kinds ops_web draws, by weight (beside upload, trash, restore, album, people, Tidy's).
CURATE_KINDS = {"curate add": 2, "curate select": 1, "curate top": 1, "curate remove": 1, "curate album": 1}


class WebCurateOps:
    """Mixed into the Harness (needs WebOps)."""

    def curation_now(self):
        """`curate list --json`, or None when it does not read (check_curation counts that)."""
        listed = self.run("curate", "list", "--json", check=False)
        return json.loads(listed.stdout or "[]") if listed.returncode == 0 else None

    def web_curate_plan(self, kind):
        """(description, method, path, body) of a Curation request, or None with nothing to do; the
        outcomes it may have are kept in self.curate_expected for check_curate_web."""
        self.curate_expected = None
        items = self.curation_now()
        if items is None:
            return None
        listed = [i["id"] for i in items]
        chosen = {i["id"] for i in items if i["selected"]}
        if kind == "curate add":
            ids = [a["id"] for a in self.pick_present(1, 6)]
            if not ids:
                return None
            self.curate_expected = ("add", set(listed), set(listed) | set(ids))
            return f"web curate add ({len(ids)})", "POST", "/api/curation/add", {"ids": ids}
        if not items:
            return None
        if kind == "curate select":
            some = self.rng.sample(listed, self.rng.randint(1, min(3, len(listed))))
            self.curate_expected = ("selection", chosen, chosen | set(some))
            return f"web curate select ({len(some)})", "POST", "/api/curation/select", {"ids": some}
        if kind == "curate top":
            n = self.rng.choice([1, 5, 10, 20])
            self.curate_expected = ("selection", chosen, set(listed[:n]))
            return f"web curate top {n}", "POST", "/api/curation/top", {"count": n}
        if kind == "curate remove":
            if not chosen:
                return None  # (answered 400 "must select photos": nothing to kill)
            self.curate_expected = ("list", set(listed), set(listed) - chosen)
            return f"web curate remove ({len(chosen)})", "POST", "/api/curation/remove", {}
        self.curate_expected = ("album", listed, {a["name"] for a in self.json("album", "list")})
        return f"web curate album ({len(listed)})", "POST", "/api/curation/album", {}

    def calibrate_web_curate(self, server):
        """Un-killed Curation requests on one server: their durations, and that each succeeds."""
        for kind in ("curate add", "curate top", "curate select", "curate album", "curate remove"):
            plan = self.web_curate_plan(kind)
            if plan is not None:
                self.calibration_request(server, kind, plan)
        self.curate_expected = None

    def check_curate_web(self, bad):
        """After a web Curation request: done whole, or not at all."""
        expected, self.curate_expected = getattr(self, "curate_expected", None), None
        items = self.curation_now() if expected is not None else None
        if items is None:
            return  # no request to check, or the list does not read (curation_damaged)
        listed = {i["id"] for i in items}
        what = expected[0]
        if what in ("add", "list"):
            _, before, after = expected
            # (A photo trashed since: a list drops what the index no longer has present… only when purged.)
            if listed != before and listed != after:
                bad("curation_half_done", 1, f"{what}: the list holds {len(listed)} photos, neither the {len(before)} "
                                             f"before nor the {len(after)} asked")
        elif what == "selection":
            _, before, after = expected
            now = {i["id"] for i in items if i["selected"]}
            if now != before and now != after:
                bad("curation_half_done", 1, f"selection of {len(now)}: neither the {len(before)} before nor the {len(after)} asked")
        else:
            _, order, names = expected
            for album in self.json("album", "list"):
                if album["name"] in names or not album["name"].startswith("TO NAME "):
                    continue
                shown = [e["id"] for e in self.json("album", "show", album["name"])["entries"]]
                if shown != order:
                    bad("curation_half_done", 1, f"album {album['name']!r} holds {len(shown)} links, not the list's "
                                                 f"{len(order)} in score order", album["name"])
