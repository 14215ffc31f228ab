"""The web server's writes (`shoebox serve`) as random-scenario operations: an upload through
`POST /api/upload`, trash and restore through `/api/trash` and `/api/restore`, the album calls
(create, add, order, remove, delete), a person's name, a memory's collage saved into Collages/
(`/api/memories/save`, the collage made first by an un-killed request), Tidy's (ops_web_tidy.py),
Curation's (ops_web_curate.py) and the composer's (ops_web_compose.py) requests, the tracker's.
Each starts `serve --port 0 --no-watch`,
sends one request as a page does (with `Origin`), and kills the server with SIGKILL: an upload
while its body streams (after a random number of its bytes) or after it, while the server renames
and indexes the file; the others after a delay drawn from their un-killed duration. Then the same
checks as every other operation, and the web's own (check_web): no file under Imports/ under a
name that is not an original whole (upload_partial), and a request that was not killed succeeded
(web_errors). A hidden `.NAME.PID.RANDOM.tmp` a kill leaves is not a violation (a scan never
indexes it): counted as the note upload_temporaries while its writer is dead."""
import http.client, json, os, select, signal, subprocess, threading, time, urllib.parse

from .common import is_temporary
from .ops_web_compose import COMPOSE_KINDS
from .ops_web_curate import CURATE_KINDS
from .ops_web_tidy import TIDY_KINDS

KINDS = {"upload": 8, "trash": 3, "restore": 3, "album": 4, "people": 1, "memories": 2, "tracker": 3,
         **TIDY_KINDS, **CURATE_KINDS, **COMPOSE_KINDS}


class WebServerProcess:
    """One `shoebox serve` on a free port of 127.0.0.1, its stderr into `log`."""

    def __init__(self, h, log):
        self.log = open(log, "a")
        self.p = subprocess.Popen(h.cmd("serve", "--port", "0", "--no-watch"), stdout=subprocess.PIPE,
                                  stderr=self.log, env=h.env)
        ready, _, _ = select.select([self.p.stdout], [], [], 60)
        line = self.p.stdout.readline().decode() if ready else ""
        if not line.startswith("http://127.0.0.1:"):
            self.kill()
            raise RuntimeError(f"serve did not print its URL (got {line!r}); see {log}")
        self.port = int(line.strip().rstrip("/").rsplit(":", 1)[1])
        self.origin = f"http://127.0.0.1:{self.port}"

    def connection(self):
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=300)

    def request(self, method, path, body=None):
        """(status, parsed JSON or text) of one request as a page sends it."""
        c = self.connection()
        try:
            headers = {"Origin": self.origin}
            if body is not None:
                headers["Content-Type"] = "application/json"
                body = json.dumps(body).encode()
            c.request(method, path, body=body, headers=headers)
            r = c.getresponse()
            data = r.read()
            try:
                return r.status, json.loads(data)
            except ValueError:
                return r.status, data.decode(errors="replace")
        finally:
            c.close()

    def kill(self):
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGKILL)
        self.p.wait()
        self.close()

    def stop(self):
        """SIGTERM, as a user's Ctrl-C; SIGKILL if it has not stopped in 30 s."""
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGTERM)
            try:
                self.p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.p.kill()
                self.p.wait()
        self.close()

    def close(self):
        self.p.stdout.close()
        self.log.close()


def segment_padded(data, rng, size):
    """A JPEG `size` bytes longer, the padding in APP15 segments after SOI: still a whole JPEG
    (a padding after EOI would read as a file still being written), long enough to stream in pieces."""
    pad = bytearray()
    while len(pad) < size:
        n = min(65533, size - len(pad))
        pad += b"\xff\xef" + (n + 2).to_bytes(2, "big") + rng.randbytes(n)
    return data[:2] + bytes(pad) + data[2:]


def quote_key(key):
    """An album key in a URL, each folder name encoded as a page's encodeURIComponent does."""
    return "/".join(urllib.parse.quote(part, safe="") for part in key.split("/"))


class WebOps:
    """Mixed into the Harness."""

    # ---- the requests, planned from the library as it is

    def web_plan(self, kind, run):
        """(description, method, path, body) of one request of `kind`, or None when it has nothing to do."""
        if kind == "trash":
            ids = [a["id"] for a in self.pick_present(1, 5)]
            return (f"web trash {len(ids)}", "POST", "/api/trash", {"ids": ids}) if ids else None
        if kind == "restore":
            items = [it for it in self.trash_items if it["id"]]
            if not items:
                return None
            chosen = self.rng.sample(items, min(len(items), self.rng.randint(1, 3)))
            if self.rng.random() < 0.3:
                return f"web restore {len(chosen)} by name", "POST", "/api/restore", {"names": [it["name"] for it in chosen]}
            return f"web restore {len(chosen)}", "POST", "/api/restore", {"ids": [it["id"] for it in chosen]}
        if kind == "album":
            return self.web_album_plan(run)
        if kind == "tracker":
            return self.web_tracker_plan(run)
        if kind.startswith("tidy "):
            return self.web_tidy_plan(kind)
        if kind.startswith("curate "):
            return self.web_curate_plan(kind)
        if kind.startswith("compose "):
            return self.web_compose_plan(kind)
        if kind == "people":
            people = self.json("people", "list")
            if not people:
                return None
            who = self.rng.choice(people)
            return "web people name", "POST", f"/api/people/{who['id']}/name", {"name": self.rng.choice(["Ana", "Tom", "Zoë W", "Bob Web"])}
        if kind == "memories":
            years = [y for y in (self.json("memories", "sources") or {}).get("years", []) if y["count"] >= 6]
            if not years:
                return None
            year, seed = max(years, key=lambda y: y["count"])["year"], self.rng.randint(1, 1000)
            # The collage is made by an un-killed request first (web_prepare); its save is the write.
            return f"web memories save (year {year}, seed {seed})", "POST", "/api/memories/save", {"collage": {"year": year, "seed": seed}}
        return None

    def web_prepare(self, server, plan):
        """A plan whose body asks for a collage first: made now (not killed), the body then the
        save of its render. Other plans as they are; None when the collage could not be made."""
        desc, method, path, body = plan
        if not isinstance(body, dict) or "collage" not in body:
            return plan
        status, answer = server.request("POST", "/api/memories/collage", body["collage"])
        if status != 200:
            self.web_failures.append(f"{desc}: the collage answered {status}: {str(answer)[:200]}")
            return None
        return desc, method, path, {"render": answer["render"]}

    def web_album_plan(self, run):
        albums = [x for x in self.json("album", "list") if x["kind"] == "user"]
        ids = [a["id"] for a in self.pick_present(1, 8)]
        if not ids:
            return None
        choices = (["create"] if len(albums) < 6 else []) + (["add", "order", "order", "remove", "delete"] if albums else [])
        what = self.rng.choice(choices)
        if what == "create":
            name = self.rng.choice([f"Web {run}", f"Web / été {run}", f"web {run}, best of"])
            return f"web album create ({len(ids)})", "POST", "/api/albums", {"name": name, "ids": ids}
        album = self.rng.choice(albums)
        key = quote_key(album["path"].removeprefix("Albums/"))
        if what == "delete":
            return "web album delete", "POST", f"/api/albums/{key}/delete", None
        members = [e["id"] for e in self.json("album", "show", album["name"])["entries"]]
        if what == "add" or not members:
            return f"web album add ({len(ids)})", "POST", f"/api/albums/{key}/add", {"ids": ids}
        some = self.rng.sample(members, self.rng.randint(1, len(members)))
        return f"web album {what} ({len(some)})", "POST", f"/api/albums/{key}/{what}", {"ids": some}

    def web_tracker_plan(self, run):
        """One of the /tracker page's writes: a project or miniature made, a stage recorded, a
        recipe written and linked, a library photo copied to a miniature, a photo or project deleted
        (its photos' files with it). check_tracker (ops_tracker.py) checks what they leave."""
        t = self.run("tracker", "mini", "list", "--json", check=False)
        if t.returncode != 0:
            return None
        minis = json.loads(t.stdout or "[]")
        projects = self.json("tracker", "project", "list")
        recipes = self.json("tracker", "recipe", "list")
        photos = [p for m in minis for p in m["photo_ids"]]
        choices = ["project add", "recipe add"] + (["mini add", "project delete"] if projects else [])
        choices += (["photo library"] * 3 + ["mini update"] + (["recipe link"] if recipes else [])) if minis else []
        choices += ["photo delete"] if photos else []
        what = self.rng.choice(choices)
        pick = lambda xs: self.rng.choice(xs)["id"]
        if what == "photo library":
            assets = [a for a in self.assets if a.get("format") in ("jpeg", "png", "heic") and a.get("state") == "present"]
            if not assets:
                return None
            return "web tracker photo from the library", "POST", f"/api/tracker/minis/{pick(minis)}/photos/library", {"id": pick(assets)}
        return {
            "project add": lambda: ("web tracker project add", "POST", "/api/tracker/projects", {"game_system": self.rng.choice(["aos", "40k", "Horus Heresy"]), "army": f"Web army {run}"}),
            "recipe add": lambda: ("web tracker recipe add", "POST", "/api/tracker/recipes", {"name": f"Web recipe {run}", "steps": ["Prime", "Wash"], "paints": ["Nuln Oil"]}),
            "mini add": lambda: ("web tracker mini add", "POST", "/api/tracker/minis", {"project": pick(projects), "name": f"Web mini {run}", "type": "troop"}),
            "project delete": lambda: ("web tracker project delete", "POST", f"/api/tracker/projects/{pick(projects)}/delete", None),
            "mini update": lambda: ("web tracker stage", "POST", f"/api/tracker/minis/{pick(minis)}/update", {"progress": self.rng.choice(["primed", "detailed"])}),
            "recipe link": lambda: ("web tracker recipe link", "POST", f"/api/tracker/recipes/{pick(recipes)}/link", {"mini": pick(minis)}),
            "photo delete": lambda: ("web tracker photo delete", "POST", f"/api/tracker/photos/{self.rng.choice(photos)}/delete", None),
        }[what]()

    def web_upload_plan(self, run):
        """A new photo (unique bytes) and the name a browser sends; sometimes padded to a few MiB,
        so that the server writes it in several pieces."""
        data, source = self.new_content()
        data = segment_padded(data, self.rng, self.rng.choice([0, 0, 1 << 20, 3 << 20]))
        stem, ext = os.path.splitext(source)
        name = self.rng.choice([f"web-{self.made}{ext}", f"Été {self.made}{ext.lower()}", source])
        return data, name

    # ---- one run

    def op_web(self, run, log):
        """One request of a kind drawn by weight, the server killed during it (or not, when it was
        done first). Returns (killed, description, where, exit status, op key, whether the server had
        written anything when it was killed, and what went wrong with a request that was not killed)."""
        kinds = [k for k in KINDS if k == "upload" or "web:" + k in self.durations]
        if self.web_tidy_only or self.web_curate_only or self.web_compose_only:
            kinds = [k for k in kinds if (k in TIDY_KINDS and self.web_tidy_only) or (k in CURATE_KINDS and self.web_curate_only)
                     or (k in COMPOSE_KINDS and self.web_compose_only)]
        kind = self.rng.choices(kinds, [KINDS[k] for k in kinds])[0]
        plan = None if kind == "upload" else self.web_plan(kind, run)
        if plan is None and self.web_tidy_only:
            kind, plan = "tidy decide", self.web_plan("tidy decide", run)  # (always has something to do)
        if plan is None and self.web_curate_only:
            kind, plan = "curate add", self.web_plan("curate add", run)
        if plan is None and self.web_compose_only:
            kind, plan = "compose change", self.web_plan("compose change", run)
        if plan is None:
            kind = "upload"
        server = WebServerProcess(self, log)
        before = self.snapshot()
        try:
            if kind == "upload":
                data, name = self.web_upload_plan(run)
                desc = f"web upload {len(data) >> 10} KiB as {name!r}"
                killed, where, answer = self.web_upload(server, data, name)
                self.settle_upload(data, killed)
            else:
                plan = self.web_prepare(server, plan)
                if plan is None:
                    server.stop()
                    return False, f"web {kind}: nothing to save", "before", server.p.returncode, "web:" + kind, False, None
                desc, method, path, body = plan
                if callable(body):
                    body = body(server)  # a request that needs one before it on the same server (the composer's save: its export)
                killed, where, answer = self.web_request_killed(server, "web:" + kind, method, path, body)
        except BaseException:
            server.kill()
            raise
        failure = None
        if not killed:
            server.stop()
            if (answer is None or answer[0] is None or not 200 <= answer[0] < 300) and not self.tidy_refusal(kind, answer):
                failure = f"{desc}: answered {answer}"
                self.web_failures.append(f"run {run}: {failure}")
        wrote = killed and self.snapshot() != before
        return killed, desc, where, server.p.returncode, "web:" + kind, wrote, failure

    def web_request_killed(self, server, op, method, path, body):
        """The request in a thread; SIGKILL after a delay drawn from its un-killed duration.
        Returns (killed, where, (status, answer) or None)."""
        answer = []
        t = threading.Thread(target=lambda: answer.append(self.try_request(server, method, path, body)), daemon=True)
        delay = self.kill_delay(self.estimate(op))
        t0 = time.perf_counter()
        t.start()
        t.join(delay)
        killed = t.is_alive()
        if killed:
            server.kill()
            t.join(30)
        else:
            self.durations[op].append(time.perf_counter() - t0)
        return killed, f"{delay * 1000:.0f} ms of ~{self.estimate(op) * 1000:.0f} ms", (answer or [None])[0]

    @staticmethod
    def try_request(server, method, path, body):
        try:
            return server.request(method, path, body)
        except (OSError, http.client.HTTPException) as e:
            return (None, f"{type(e).__name__}: {e}")

    def web_upload(self, server, data, name, kill=True):
        """The body sent in 64 KiB pieces. Killed after a random number of its bytes (while the
        server writes the temporary), or after a delay from its last byte (while it flushes,
        renames and indexes), or not at all when it answered first (or `kill` is False).
        Returns (killed, where, (status, answer) or None)."""
        c = server.connection()
        c.putrequest("POST", "/api/upload?name=" + urllib.parse.quote(name, safe=""))
        c.putheader("Origin", server.origin)
        c.putheader("Content-Type", "application/octet-stream")
        c.putheader("Content-Length", str(len(data)))
        c.endheaders()
        mid_body = kill and self.rng.random() < 0.4
        cut = self.rng.randrange(len(data)) if mid_body else len(data)
        try:
            for i in range(0, cut, 65536):
                c.send(data[i:min(cut, i + 65536)])
            if mid_body:
                time.sleep(self.rng.uniform(0, 0.05))  # some of what was sent reaches the disk
                server.kill()
                return True, f"after {cut:,} of {len(data):,} body bytes", None
            sent = time.perf_counter()
            delay = self.kill_delay(self.estimate("web:upload")) if kill else None
            answer = []
            t = threading.Thread(target=lambda: answer.append(self.read_answer(c)), daemon=True)
            t.start()
            t.join(delay)
            if t.is_alive():
                server.kill()
                t.join(30)
                return True, f"{delay * 1000:.0f} ms after the body, of ~{self.estimate('web:upload') * 1000:.0f} ms", None
            self.durations.setdefault("web:upload", []).append(time.perf_counter() - sent)
            return False, "after its answer", answer[0]
        except OSError as e:
            return False, f"the body could not be sent ({e})", None
        finally:
            c.close()

    @staticmethod
    def read_answer(c):
        try:
            r = c.getresponse()
            return r.status, r.read().decode(errors="replace")
        except (OSError, http.client.HTTPException) as e:
            return None, f"{type(e).__name__}: {e}"

    def settle_upload(self, data, killed, counted=True):
        """What the upload left: its bytes under a name in Imports/ become an original of the
        ground truth (then checked like any other); the phase it reached is counted."""
        import hashlib
        sha = hashlib.sha256(data).hexdigest()
        whole, temporaries = [], []
        for d, _, names in os.walk(os.path.join(self.lib, "Imports")):
            for n in names:
                p = os.path.join(d, n)
                if is_temporary(n):
                    temporaries.append(p)
                elif self.sha(p) == sha:
                    whole.append(os.path.relpath(p, self.lib))
        if whole:
            self.expected[sha] = self.expected.get(sha, 0) + len(whole)
            self.ids.setdefault(sha, set())
        if not counted:
            return
        if not killed:
            phase = "answered"
        elif whole:
            indexed = any(a["sha256"] == sha for a in self.json("list"))
            phase = "indexed" if indexed else "renamed, not indexed"
        elif temporaries:
            sizes = [os.path.getsize(p) for p in temporaries if os.path.exists(p)]
            phase = "temporary whole" if len(data) in sizes else "temporary partial"
        else:
            phase = "nothing written"
        self.web_phases[phase] = self.web_phases.get(phase, 0) + 1

    # ---- calibration and checks

    def calibrate_web(self, round):
        """Un-killed requests of every kind on one server: their durations, and that each succeeds."""
        server = WebServerProcess(self, os.path.join(self.logs, "calibrate-web.log"))
        try:
            for i, kind in enumerate(("trash", "restore", "album", "album", "album", "people", "memories",
                                      "tracker", "tracker", "tracker")):
                self.assets = self.json("list")
                self.trash_items = self.json("trash", "list")
                plan = self.web_plan(kind, f"calibration {round}.{i}")
                plan = plan and self.web_prepare(server, plan)
                if plan is not None:
                    self.calibration_request(server, kind, plan)
            self.calibrate_web_tidy(server)
            self.calibrate_web_curate(server)
            self.calibrate_web_compose(server)
            data, name = self.web_upload_plan(f"calibration {round}")
            _, _, answer = self.web_upload(server, data, name, kill=False)
            if answer is None or answer[0] != 201:
                raise SystemExit(f"faults: calibration: upload of {name!r} answered {answer}")
            self.settle_upload(data, killed=False, counted=False)
        finally:
            server.stop()

    def calibration_request(self, server, kind, plan):
        """One un-killed request of KIND (PLAN: web_plan's): it must succeed; its duration is kept."""
        t0 = time.perf_counter()
        status, answer = server.request(*plan[1:])
        if not 200 <= status < 300:
            raise SystemExit(f"faults: calibration: {plan[0]} ({plan[1]} {plan[2]}) answered {status}: {answer}")
        self.durations.setdefault("web:" + kind, []).append(time.perf_counter() - t0)

    def check_web(self, bad):
        """Under Imports/, every file under a name holds an original whole; the hidden temporaries
        of dead writers (a killed upload's) are counted as a note, once each (and how many are
        there now: the next upload into their folder removes them)."""
        self.web_temporaries_now = set()
        for d, _, names in os.walk(os.path.join(self.lib, "Imports")):
            for n in sorted(names):
                p = os.path.join(d, n)
                rel = os.path.relpath(p, self.lib)
                if is_temporary(n):
                    self.web_temporaries_now.add(rel)
                    if rel not in self.web_temporaries:
                        self.web_temporaries.add(rel)
                        self.counts["upload_temporaries"] += 1
                elif self.sha(p) not in self.ids:
                    bad("upload_partial", 1, f"{rel} ({os.path.getsize(p):,} bytes) is not an upload's bytes whole", rel)
