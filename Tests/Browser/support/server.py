"""`shoebox serve` as a test fixture, and plain HTTP requests to it."""
import http.client, json, os, re, select, signal, subprocess, threading, time, urllib.parse

from . import libraries

URL_LINE = re.compile(r"^http://127\.0\.0\.1:(\d+)/\s*$")


class Server:
    """`shoebox --library LIB serve --port 0 [--no-watch] [EXTRA…]`: started on entry, stopped
    (SIGTERM) on exit. Its stdout lines are kept in `lines`, stderr in a log file."""

    def __init__(self, lib, watch=False, extra=(), env=None):
        self.lib = lib
        self.args = [libraries.shoebox_bin(), "--library", lib, "serve", "--port", "0"]
        self.args += [] if watch else ["--no-watch"]
        self.args += list(extra)
        self.env = dict(os.environ, SHOEBOX_LIBRARY="", **(env or {}))
        self.lines = []
        self.proc = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def start(self, timeout=120):
        self.log_path = os.path.join(libraries.scratch(), f"serve-{time.time_ns()}.log")
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen(self.args, stdout=subprocess.PIPE, stderr=self.log, env=self.env,
                                     text=True, bufsize=1)
        deadline = time.monotonic() + timeout
        first = ""
        while not first:
            left = deadline - time.monotonic()
            if left <= 0 or self.proc.poll() is not None:
                self.stop()
                raise AssertionError(f"`{' '.join(self.args)}` printed no URL in {timeout} s "
                                     f"(exit {self.proc.returncode}); stderr: {self.stderr()[-2000:]}")
            ready, _, _ = select.select([self.proc.stdout], [], [], min(left, 0.5))
            if ready:
                first = self.proc.stdout.readline()
                if not first:
                    continue
        self.lines.append(first.rstrip("\n"))
        m = URL_LINE.match(first)
        if not m:
            self.stop()
            raise AssertionError(f"serve's first stdout line is not http://127.0.0.1:PORT/: {first!r}")
        self.port = int(m.group(1))
        self.url = f"http://127.0.0.1:{self.port}/"
        self.origin = f"http://127.0.0.1:{self.port}"
        self.host = f"127.0.0.1:{self.port}"
        threading.Thread(target=self._drain, daemon=True).start()
        return self

    def _drain(self):
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))

    def stderr(self):
        if not self.log.closed:
            self.log.flush()
        return open(self.log_path, errors="replace").read()

    def stop(self, timeout=20):
        """SIGTERM, then the exit status (SIGKILL and None after TIMEOUT seconds)."""
        if self.proc is None or self.proc.poll() is not None:
            return self.proc.returncode if self.proc else None
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            return None
        finally:
            self.log.close()

    def rss_hwm_kib(self):
        with open(f"/proc/{self.proc.pid}/status") as f:
            return next(int(l.split()[1]) for l in f if l.startswith("VmHWM:"))

    # Plain HTTP (http.client: no proxy, headers exactly as given).

    def request(self, method, path, body=None, headers=None, host=None, origin="same", timeout=30):
        """(status, headers as a lower-cased dict, body bytes). Host: this server's unless HOST
        (None leaves it out… http.client always sends one, so pass the text to send). ORIGIN
        "same" sends this server's origin on a non-GET, None sends none, else the text given."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        h = {"Host": host or self.host}
        if origin == "same":
            if method not in ("GET", "HEAD"):
                h["Origin"] = self.origin
        elif origin is not None:
            h["Origin"] = origin
        h.update(headers or {})
        if isinstance(body, (dict, list)):
            body = json.dumps(body).encode()
            h.setdefault("Content-Type", "application/json")
        if body is not None:
            h["Content-Length"] = str(len(body))
        conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        for k, v in h.items():
            conn.putheader(k, v)
        conn.endheaders(body)
        r = conn.getresponse()
        data = r.read()
        conn.close()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, data

    def get_json(self, path):
        status, _, data = self.request("GET", path)
        if status != 200:
            raise AssertionError(f"GET {path}: {status} {data[:300]!r}")
        return json.loads(data)

    def page_url(self, path):
        return urllib.parse.urljoin(self.url, path.lstrip("/"))
