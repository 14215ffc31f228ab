"""A network namespace joined to this one by a veth pair: a "phone on the LAN" for `serve --lan`.

Only addresses inside it and this machine's own are used; nothing leaves the machine."""
import json, os, shutil, subprocess

CLIENT = r"""
import http.client, json, sys
host, port, method, path, headers = json.loads(sys.argv[1])
try:
    c = http.client.HTTPConnection(host, port, timeout=10)
    c.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    body = b"{}" if method == "POST" else None
    for k, v in headers.items():
        c.putheader(k, v)
    if body is not None:
        c.putheader("Content-Length", str(len(body)))
    c.endheaders(body)
    r = c.getresponse()
    body = r.read()
    print(json.dumps({"status": r.status, "headers": [[k.lower(), v] for k, v in r.getheaders()],
                      "body": body[:300].decode("latin-1")}))
except OSError as e:
    print(json.dumps({"status": None, "error": f"{type(e).__name__}: {e}"}))
"""


def unavailable():
    """Why this test cannot make a namespace here (None when it can)."""
    if os.geteuid() != 0:
        return "not root: `ip netns add` needs root (CI runs as root)"
    if not shutil.which("ip"):
        return "`ip` (iproute2) is not installed"
    p = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True)
    if p.returncode != 0:
        return f"`ip netns` does not work here: {p.stderr.strip()}"
    return None


class Namespace:
    """`ip netns add` + a veth pair: HOST_ADDR on this side, NS_ADDR inside, default route out."""

    def __init__(self):
        n = os.getpid() % 10000
        self.name = f"sbweb{n}"
        self.outside, self.inside = f"sbwh{n}", f"sbwn{n}"
        third = 64 + n % 128
        self.host_addr, self.ns_addr = f"10.231.{third}.1", f"10.231.{third}.2"

    def _ip(self, *args, inside=False):
        cmd = (["ip", "netns", "exec", self.name] if inside else []) + ["ip", *args]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)}: {p.stderr.strip()}")

    def __enter__(self):
        self.close()
        self._ip("netns", "add", self.name)
        try:
            self._ip("link", "add", self.outside, "type", "veth", "peer", "name", self.inside)
            self._ip("link", "set", self.inside, "netns", self.name)
            self._ip("addr", "add", f"{self.host_addr}/24", "dev", self.outside)
            self._ip("link", "set", self.outside, "up")
            self._ip("addr", "add", f"{self.ns_addr}/24", "dev", self.inside, inside=True)
            self._ip("link", "set", self.inside, "up", inside=True)
            self._ip("link", "set", "lo", "up", inside=True)
            self._ip("route", "add", "default", "via", self.host_addr, inside=True)
        except Exception:
            self.close()
            raise
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        subprocess.run(["ip", "netns", "del", self.name], capture_output=True)
        subprocess.run(["ip", "link", "del", self.outside], capture_output=True)

    def request(self, host, port, method, path, headers):
        """One HTTP request made from inside the namespace: {"status", "headers": [[k, v]…], "body"}
        or {"status": None, "error"} when no connection could be made."""
        p = subprocess.run(["ip", "netns", "exec", self.name, "/usr/bin/python3", "-c", CLIENT,
                            json.dumps([host, port, method, path, headers])],
                           capture_output=True, text=True, timeout=30)
        if p.returncode != 0:
            raise RuntimeError(f"the client in {self.name} failed: {p.stderr.strip()}")
        return json.loads(p.stdout)
