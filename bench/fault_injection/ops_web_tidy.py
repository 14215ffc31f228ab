"""Tidy's writes through the web server (issue 30) as random-scenario operations: a decision on
the item under review (`POST /api/tidy/decide`, the whole item, or one member of a group with
"others" for the rest), undo, unmark and Empty Trash — sent as a page sends them, the server
killed at a random instant of the request (ops_web.py's way). Their check, after the next start:
what the request was doing is done whole or not at all (tidy_half_done: a group decided in part,
an emptied photo neither marked in the library nor in Recently Deleted), and a server started
afresh reports what `tidy status --json` reports (tidy_mismatch); after any run, `tidy status`'s
counts agree with `tidy trash`, `tidy maybes` and the files (tidy_mismatch)."""
import json

# The kinds ops_web draws, by weight (beside upload, trash, restore, album, people).
TIDY_KINDS = {"tidy decide": 3, "tidy undo": 1, "tidy unmark": 1, "tidy empty": 1}


class WebTidyOps:
    """Mixed into the Harness (needs WebOps)."""

    def web_tidy_plan(self, kind):
        """(description, method, path, body) of a Tidy request, or None with nothing to do; the
        outcome it may have is kept in self.tidy_expected for check_tidy_web."""
        self.tidy_expected = None
        if kind == "tidy decide":
            item = self.json("tidy", "next").get("item")
            if item is None:
                return "web tidy filter all", "POST", "/api/tidy/filter", {"filter": "all"}
            members = item["items"] if "group" in item else [item]
            open_ids = item.get("open") or [m["id"] for m in members]
            before = {m["id"]: m.get("decision") for m in members if m["id"] in open_ids}
            if len(open_ids) > 1 and self.rng.random() < 0.5:
                chosen, others = self.rng.choice(open_ids), self.rng.choice(["delete", "maybe"])
                after = {i: "keep" if i == chosen else others for i in open_ids}
                self.tidy_expected = ("decide", before, after)
                return (f"web tidy keep 1 of {len(open_ids)} --others {others}", "POST", "/api/tidy/decide",
                        {"decision": "keep", "id": chosen, "others": others})
            decision = self.rng.choice(["keep", "delete", "delete", "maybe"])
            self.tidy_expected = ("decide", before, dict.fromkeys(open_ids, decision))
            return f"web tidy {decision} ({len(open_ids)})", "POST", "/api/tidy/decide", {"decision": decision}
        if kind == "tidy undo":
            return "web tidy undo", "POST", "/api/tidy/undo", {}
        marked = [a["id"] for a in self.json("tidy", "trash")]
        if not marked:
            return None
        if kind == "tidy unmark":
            chosen = self.rng.choice(marked)
            self.tidy_expected = ("unmark", chosen)
            return "web tidy unmark", "POST", "/api/tidy/unmark", {"id": chosen}
        self.tidy_expected = ("empty", marked)
        return f"web tidy empty ({len(marked)})", "POST", "/api/tidy/empty", {}

    @staticmethod
    def tidy_refusal(kind, answer):
        """An undo with nothing to undo (none made yet, or Empty Trash since) is refused with 400
        and one line saying so: the right answer, not a failure."""
        return (kind == "tidy undo" and answer is not None and answer[0] == 400
                and "nothing to undo" in str(answer[1]))

    def calibrate_web_tidy(self, server):
        """Un-killed Tidy requests on one server (their durations, and that each succeeds); what
        Empty Trash moved is restored afterwards."""
        for kind in ("tidy decide", "tidy decide", "tidy decide", "tidy undo", "tidy unmark", "tidy empty"):
            if kind in ("tidy unmark", "tidy empty") and not self.json("tidy", "trash"):
                server.request("POST", "/api/tidy/decide", {"decision": "delete"})
            plan = self.web_tidy_plan(kind)
            if plan is not None:
                self.calibration_request(server, kind, plan)
        self.tidy_expected = None
        trashed = [a["id"] for a in self.json("trash", "list") if a["id"]]
        if trashed:
            self.run("restore", *trashed)

    def check_tidy_web(self, bad):
        """After any run: the session's counts agree with the piles and the files. After a web
        Tidy request: it is done whole or not at all, and a new server says what the CLI says."""
        status = self.run("tidy", "status", "--json", check=False)
        if status.returncode != 0:
            return  # check_tidy counts it (tidy_damaged)
        st = json.loads(status.stdout)
        marked, maybes = self.json("tidy", "trash"), self.json("tidy", "maybes")
        in_trash = {it["id"] for it in self.trash_items if it["id"]}
        if st["marked"] != len(marked) or st["maybe"] != len(maybes):
            bad("tidy_mismatch", 1, f"tidy status counts {st['marked']} marked, {st['maybe']} maybe; "
                                    f"tidy trash lists {len(marked)}, tidy maybes {len(maybes)}")
        for a in marked:
            if a["id"] in in_trash or a.get("state") != "present":
                bad("tidy_mismatch", 1, f"{a['path']} is marked for deletion but {a.get('state')} "
                                        f"{'(in Recently Deleted)' if a['id'] in in_trash else ''}", ("marked", a["id"]))
        expected, self.tidy_expected = self.tidy_expected, None
        if expected is not None:
            self.check_tidy_request(expected, {a["id"] for a in marked}, in_trash, bad)
            self.check_tidy_after_restart(st, bad)

    def check_tidy_request(self, expected, marked, in_trash, bad):
        """What the (killed) request was doing: done whole, or not at all."""
        if expected[0] == "unmark":  # (a photo marked in an earlier session: `tidy trash` is what knows it)
            if expected[1] in in_trash or expected[1] not in {a["id"] for a in self.assets}:
                bad("tidy_half_done", 1, f"unmark left {expected[1]} out of the library")
        elif expected[0] == "decide":
            items = self.json("tidy", "list", "--all")  # the session's items, decided ones included
            now = {m["id"]: m.get("decision") for it in items for m in (it["items"] if "group" in it else [it])}
            _, before, after = expected
            seen = {i: now.get(i, "(not in the session)") for i in before}
            if seen != before and seen != after:
                bad("tidy_half_done", 1, f"decisions {seen}: neither as before {before} nor as asked {after}")
        else:
            lost = [i for i in expected[1] if i not in marked and i not in in_trash]
            if lost:
                bad("tidy_half_done", len(lost), f"Empty Trash left {lost} neither marked in the library nor in Recently Deleted")

    def check_tidy_after_restart(self, st, bad):
        """A server started afresh answers GET /api/tidy with the status the CLI gives."""
        from .ops_web import WebServerProcess  # (ops_web draws this file's kinds: imported here, not above)
        server = WebServerProcess(self, f"{self.logs}/restart-web.log")
        try:
            code, answer = server.request("GET", "/api/tidy")
        finally:
            server.stop()
        if code != 200:
            bad("tidy_mismatch", 1, f"GET /api/tidy after the restart answered {code}: {str(answer)[:300]}")
            return
        keys = ("session", "position", "reviewed", "marked", "maybe", "removed", "total")
        web = {k: answer["status"].get(k) for k in keys}
        cli = {k: st.get(k) for k in keys}
        if web != cli:
            bad("tidy_mismatch", 1, f"after the restart GET /api/tidy says {web}, tidy status {cli}")
