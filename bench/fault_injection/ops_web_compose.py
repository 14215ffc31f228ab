"""The composer's writes through the web server (issue 31) as random-scenario operations: a change
of the draft (`POST /api/composer/add|move|replace|remove|clear`), an export (`/api/composer/export`:
the story drawn into the server's memory, the draft cleared) and "Save to library"
(`/api/composer/save`, after an export on the same server) — sent as the /compose page sends them,
the server killed at a random instant of the request (ops_web.py's way). Their check, after the
run: the draft is as before the request or as the request makes it, never anything else
(compose_half_done); an export writes nothing into the library (compose_export_wrote); a story a
killed save left under a name is a whole 1080×1920 HEIC (ops_composer's check_stories, which also
takes it in as a new original)."""
import os

# The kinds ops_web draws, by weight (beside upload, trash, restore, album, people, Tidy's).
COMPOSE_KINDS = {"compose change": 2, "compose export": 1, "compose save": 1}


def collages(lib):
    """The stories and collages under Collages/ (hidden temporaries aside)."""
    folder = os.path.join(lib, "Collages")
    return sorted(n for n in os.listdir(folder) if not n.startswith(".")) if os.path.isdir(folder) else []


class WebComposeOps:
    """Mixed into the Harness (needs WebOps and ComposerOps)."""

    def web_compose_plan(self, kind):
        """(description, method, path, body) of a composer request, or None with nothing to do; what
        the draft may be afterwards is kept in self.compose_expected for check_compose_web. A save's
        body is a function of the server: the export it saves is made there first, un-killed."""
        self.compose_expected = None
        listed = self.run("compose", "list", "--json", check=False)
        if listed.returncode != 0:
            return None  # check_stories counts it (composer_damaged)
        entries = self.json("compose", "list")
        draft = [a["id"] for a in entries]
        if kind == "compose change":
            return self.web_compose_change(draft)
        if not draft or any(a.get("state") != "present" for a in entries):
            # A draft to export, made first by the CLI (un-killed: the request is what is killed).
            stills = [a["id"] for a in self.pick_present(1, 4) if a["kind"] != "video"]
            if not stills or self.run("compose", "clear", check=False).returncode != 0:
                return None
            self.run("compose", "add", *stills)
            draft = stills
        self.compose_expected = ("export", draft, collages(self.lib), kind)
        if kind == "compose export":
            return f"web compose export ({len(draft)})", "POST", "/api/composer/export", {}
        return f"web compose save ({len(draft)})", "POST", "/api/composer/save", self.exported_first

    def web_compose_change(self, draft):
        n = len(draft)
        stills = [a["id"] for a in self.pick_present(1, 4) if a["kind"] != "video"]
        fresh = [i for i in stills if i not in draft]
        choices = (["add"] if fresh and n < 4 else []) + (["move", "remove", "clear"] if n else []) + (["replace"] if n and fresh else [])
        if not choices:
            return None
        what = self.rng.choice(choices)
        if what == "add":
            ids = fresh[:4 - n]
            self.compose_expected = ("draft", draft, [draft + ids], "compose change")
            return f"web compose add ({len(ids)})", "POST", "/api/composer/add", {"ids": ids}
        if what == "clear":
            self.compose_expected = ("draft", draft, [[]], "compose change")
            return "web compose clear", "POST", "/api/composer/clear", {}
        at = self.rng.randint(1, n)
        after = list(draft)
        if what == "move":
            to = self.rng.randint(1, n)
            after.insert(to - 1, after.pop(at - 1))
            self.compose_expected = ("draft", draft, [after], "compose change")
            return "web compose move", "POST", "/api/composer/move", {"from": at, "to": to}
        if what == "remove":
            after.pop(at - 1)
            self.compose_expected = ("draft", draft, [after], "compose change")
            return "web compose remove", "POST", "/api/composer/remove", {"position": at}
        after[at - 1] = fresh[0]
        self.compose_expected = ("draft", draft, [after], "compose change")
        return "web compose replace", "POST", "/api/composer/replace", {"position": at, "id": fresh[0]}

    def exported_first(self, server):
        """The save's body: the draft exported on `server` (un-killed), its render named (none when
        the export failed: the save then answers 400, a web failure the report shows)."""
        status, answer = self.try_request(server, "POST", "/api/composer/export", {})
        return {"render": answer["render"] if status == 200 else None}

    def calibrate_web_compose(self, server):
        """Un-killed composer requests on one server (their durations, and that each succeeds),
        an export and a save each on a draft of photos made first."""
        def draft_of_photos():
            stills = [a["id"] for a in self.json("list") if a["kind"] != "video"][:3]
            self.run("compose", "clear")
            self.run("compose", "add", *stills)
        for kind in ("compose change", "compose export", "compose change", "compose save", "compose change"):
            self.assets = self.json("list")
            if kind != "compose change":
                draft_of_photos()
            plan = self.web_compose_plan(kind)
            if plan is None:
                continue
            if callable(plan[3]):
                plan = (*plan[:3], plan[3](server))
            self.calibration_request(server, kind, plan)
        self.run("compose", "clear")  # the next round's `compose add` calibration starts from an empty draft
        self.compose_expected = None

    def check_compose_web(self, bad):
        """After a web composer request: the draft is as before it or as it makes it; an export
        (killed or not) put nothing into Collages/."""
        expected, self.compose_expected = self.compose_expected, None
        if expected is None:
            return
        listed = self.run("compose", "list", "--json", check=False)
        if listed.returncode != 0:
            return  # check_stories counts it (composer_damaged)
        now = [a["id"] for a in self.json("compose", "list")]
        what, before, third, kind = expected
        if what == "draft":
            if now != before and now not in third:
                bad("compose_half_done", 1, f"the draft is {now}: neither as before {before} nor as asked {third}")
            return
        if now != before and now != []:
            bad("compose_half_done", 1, f"after an export the draft is {now}: neither as before {before} nor cleared")
        if kind == "compose export" and collages(self.lib) != third:
            bad("compose_export_wrote", 1, f"an export from the web wrote into Collages/: {sorted(set(collages(self.lib)) - set(third))}")
