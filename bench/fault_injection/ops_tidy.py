"""Tidy's writing commands as random-scenario operations (keep, delete, maybe — on the item under
review or one of its group with --others —, undo, unmark, filter, empty), and its check: the
session reads after any kill."""
import json


class TidyOps:
    def op_tidy(self, run):
        """Picked from what `tidy next` shows, so that most of them have work to do."""
        shown = self.run("tidy", "next", "--json", check=False)
        if shown.returncode != 0:
            return None  # counted by check() as tidy_damaged
        item = json.loads(shown.stdout or "{}").get("item")
        what = self.rng.choice(["decide", "decide", "decide", "group", "undo", "unmark", "filter", "empty"])
        if item is None and what in ("decide", "group"):
            what = "filter"
        if what == "group":
            members = item.get("items") or [item]
            if len(members) > 1:
                others = self.rng.choice(["delete", "maybe"])
                return "tidy keep ID --others", ["tidy", "keep", members[0]["id"], "--others", others], None, None
            return "tidy delete ID", ["tidy", "delete", members[0]["id"]], None, None
        if what == "decide":
            d = self.rng.choice(["keep", "delete", "delete", "maybe"])
            return f"tidy {d}", ["tidy", d], None, None
        if what == "undo":
            return "tidy undo", ["tidy", "undo"], None, None
        if what == "unmark":
            marked = json.loads(self.run("tidy", "trash", "--json", check=False).stdout or "[]")
            if not marked:
                return "tidy delete", ["tidy", "delete"], None, None
            return "tidy unmark", ["tidy", "unmark", self.rng.choice(marked)["id"]], None, None
        if what == "filter":
            f = self.rng.choice(["all", "all", "screenshots", "largest", "maybe", "last-30-days"])
            return f"tidy filter {f}", ["tidy", "filter", f], None, None
        return "tidy empty", ["tidy", "empty"], None, None

    def calibrate_tidy(self, round, measure, ids):
        """A session, decisions, undo, a mark and empty; what empty moved is restored."""
        measure("tidy", "tidy", "filter", "all")
        measure("tidy", "tidy", "delete")
        measure("tidy", "tidy", "keep")
        measure("tidy", "tidy", "maybe")
        measure("tidy", "tidy", "undo")
        measure("tidy", "tidy", "delete", ids[0])
        measure("tidy", "tidy", "unmark", ids[0])
        measure("tidy", "tidy", "delete", ids[0])
        measure("tidy", "tidy", "empty")
        self.run("restore", *[a["id"] for a in self.json("trash", "list")], check=False)

    def check_tidy(self, bad):
        """The session reads (a kill leaves the old state or the new one, and the next start
        finishes the change it recorded)."""
        t = self.run("tidy", "status", "--json", check=False)
        if t.returncode != 0:
            bad("tidy_damaged", 1, f"tidy status exited {t.returncode}: {t.stderr.strip()[-400:]}", t.stderr.strip()[-200:])
