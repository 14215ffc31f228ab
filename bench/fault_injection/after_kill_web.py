"""The web server's writes in the after-kill scenario: each "web …" command is `serve --port 0
--no-watch` answering one request as a page sends it (an upload, trash, restore, an album's
creation and order, a person's name, Tidy's decide, undo, unmark and empty, the composer's add,
move and export), then stopped with SIGTERM; killed at a write call like any
other command (the server's, under strace -f). Its own check: every file under a name in
Imports/ is the upload's bytes whole (upload_partial)."""
import hashlib, http.client, json, os, select, signal, subprocess, time, urllib.parse

from .after_kill_cast import Command


class WebCommand(Command):
    """A request to the server: method, path, and a JSON body or the bytes of a file."""

    def __init__(self, name, method, path, body=None, upload=None):
        super().__init__(name, "web", ["serve", "--port", "0", "--no-watch"])
        self.method, self.path, self.body, self.upload = method, path, body, upload


class AfterKillWeb:
    """Mixed into the after-kill harness (needs LibraryAccess and Cast)."""

    def web_template(self, c):
        """What the web commands act on: a photo in the trash, an album whose name needs
        encoding in a URL, and the bytes of a photo to upload (kept outside the library)."""
        self.run("trash", *c["web restore"])
        self.run("album", "create", "Web kept, été", *c["web album"])
        self.run("tidy", "delete", *c["web tidy mark"])  # after the CLI's own session is set up (after_kill_cast)
        data, _ = self.new_content()
        self.web_upload_body = os.path.join(self.work, "upload.jpg")
        with open(self.web_upload_body, "wb") as f:
            f.write(data)
        self.web_upload_sha = hashlib.sha256(data).hexdigest()

    def web_commands(self, c, people):
        key = urllib.parse.quote("Web kept, été", safe="")
        k = WebCommand
        cmds = [k("web upload", "POST", "/api/upload?name=" + urllib.parse.quote("Été web.jpg"), upload=self.web_upload_body),
                k("web trash", "POST", "/api/trash", {"ids": c["web trash"]}),
                k("web restore", "POST", "/api/restore", {"ids": c["web restore"]}),
                k("web album create", "POST", "/api/albums", {"name": "Web new", "ids": c["web album new"]}),
                k("web album order", "POST", f"/api/albums/{key}/order", {"ids": list(reversed(c["web album"]))})]
        if people:
            cmds.append(k("web people name", "POST", f"/api/people/{people[0]['id']}/name", {"name": "Webster"}))
        # Tidy's writes (issue 30): a swipe on the item under review, its undo, a photo restored
        # from the trash review, and Empty Trash (the marks of the CLI's template and the web's).
        cmds += [k("web tidy delete", "POST", "/api/tidy/decide", {"decision": "delete"}),
                 k("web tidy keep", "POST", "/api/tidy/decide", {"decision": "keep"}),
                 k("web tidy undo", "POST", "/api/tidy/undo", {}),
                 k("web tidy unmark", "POST", "/api/tidy/unmark", {"id": c["web tidy mark"][0]}),
                 k("web tidy empty", "POST", "/api/tidy/empty", {})]
        # The composer's (issue 31), on the template's draft of two: a photo added, the two
        # swapped, the story exported into the server's memory (the draft cleared). A save needs
        # its export on the same server first: the random scenario kills those (ops_web_compose).
        cmds += [k("web compose add", "POST", "/api/composer/add", {"ids": c["compose add"]}),
                 k("web compose move", "POST", "/api/composer/move", {"from": 1, "to": 2}),
                 k("web compose export", "POST", "/api/composer/export", {})]
        return cmds

    def launch_web(self, cmd, argv, env, log):
        """The server started (under strace when argv says so), the request sent, then SIGTERM to
        the server (strace's child when traced). Returns (exit status, stderr)."""
        with open(log, "w") as f:
            p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=f, env=env)
            ready, _, _ = select.select([p.stdout], [], [], 120)
            line = p.stdout.readline().decode() if ready else ""
            answered = False
            if line.startswith("http://127.0.0.1:"):
                port = int(line.strip().rstrip("/").rsplit(":", 1)[1])
                answered = self.web_request(port, cmd, f)
            server = p.pid
            if argv[0] != self.sb:  # under strace: the server is its child
                with open(f"/proc/{p.pid}/task/{p.pid}/children") as ch:
                    children = ch.read().split()
                server = int(children[0]) if children else None
            if server and p.poll() is None:
                try:
                    os.kill(server, signal.SIGTERM)
                except ProcessLookupError:
                    pass
            try:
                p.wait(timeout=60)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
            p.stdout.close()
        with open(log, errors="replace") as f:
            # A request that failed while the server lived on is the command failing.
            return (1 if p.returncode == 0 and not answered else p.returncode), f.read()

    @staticmethod
    def web_request(port, cmd, log):
        """One request as a page sends it: whether it succeeded (a failure is logged)."""
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
        headers = {"Origin": f"http://127.0.0.1:{port}"}
        try:
            if cmd.upload:
                with open(cmd.upload, "rb") as f:
                    body = f.read()
            else:
                body = json.dumps(cmd.body).encode() if cmd.body is not None else None
                headers["Content-Type"] = "application/json"
            c.request(cmd.method, cmd.path, body=body, headers=headers)
            r = c.getresponse()
            answer = r.read()
            if not 200 <= r.status < 300:
                log.write(f"web: {cmd.method} {cmd.path} answered {r.status}: {answer[:300]!r}\n")
            return 200 <= r.status < 300
        except (OSError, http.client.HTTPException) as e:
            log.write(f"web: {cmd.method} {cmd.path}: {type(e).__name__}: {e}\n")
            return False
        finally:
            c.close()

    def upload_problems(self):
        """Every file under a name in Imports/ is the upload's bytes, whole."""
        out = []
        for d, _, names in os.walk(os.path.join(self.lib, "Imports")):
            for n in names:
                if n.startswith("."):
                    continue  # a killed upload's temporary: never indexed
                p = os.path.join(d, n)
                with open(p, "rb") as f:
                    if hashlib.sha256(f.read()).hexdigest() != self.web_upload_sha:
                        out.append(("upload_partial", f"{os.path.relpath(p, self.lib)} ({os.path.getsize(p):,} bytes) "
                                                      "is not the upload's bytes whole"))
        return out
