"""The shoebox binary, its CLI's JSON, and the libraries the browser tests run on.

Each library is made once per run (under the run's temporary folder) and copied for a test
that changes it; the big one is only read (its thumbnails are made on demand), so it is shared.
"""
import atexit, json, os, shutil, subprocess, tempfile, threading

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
SAMPLE = os.path.join(ROOT, "sample-library")
FACES = os.path.join(ROOT, "test-data", "faces")
PHOTOS = os.path.join(ROOT, "test-data", "photos")
BIG_ASSETS = int(os.environ.get("SHOEBOX_BROWSER_BIG", "10000"))

_tmp = None
_made = {}
_lock = threading.Lock()


def shoebox_bin():
    b = os.environ.get("SHOEBOX_BIN") or os.path.join(ROOT, ".build", "debug", "shoebox")
    if not os.access(b, os.X_OK):
        raise RuntimeError(f"{b} is not an executable shoebox: run `swift build` or set $SHOEBOX_BIN")
    return b


def scratch():
    """The run's temporary folder (deleted at exit unless $SHOEBOX_KEEP is set)."""
    global _tmp
    if _tmp is None:
        _tmp = tempfile.mkdtemp(prefix="shoebox-browser-")
        if not os.environ.get("SHOEBOX_KEEP"):
            atexit.register(shutil.rmtree, _tmp, True)
    return _tmp


def run(*args, check=True):
    """Runs `shoebox ARGS…`; returns the completed process (stdout and stderr as text)."""
    p = subprocess.run([shoebox_bin(), *args], capture_output=True, text=True, timeout=600,
                       env=dict(os.environ, SHOEBOX_LIBRARY=""))
    if check and p.returncode != 0:
        raise AssertionError(f"shoebox {' '.join(args)} exited {p.returncode}: {p.stderr.strip()[-2000:]}")
    return p


def cli(lib, *args):
    """`shoebox --library LIB ARGS… --json`, parsed."""
    return json.loads(run("--library", lib, *args, "--json").stdout)


def _make(name, build):
    with _lock:
        if name not in _made:
            path = os.path.join(scratch(), "made", name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            build(path)
            _made[name] = path
        return _made[name]


def copy(src, name):
    """A copy of library SRC (links, modes and times kept) in a fresh folder, scanned (the copies
    have new inodes, which a change must not mistake for edits); returns its path."""
    dst = tempfile.mkdtemp(prefix=f"{name}-", dir=scratch())
    os.rmdir(dst)
    subprocess.run(["cp", "-a", src, dst], check=True)
    run("--library", dst, "scan")
    return dst


def _sample_with_faces(path):
    """sample-library plus the face photos of test-data/faces in Faces/ and a 3-second MP4 in
    Videos/, scanned and analysed (people, face boxes, scores, thumbnails), with one user album."""
    subprocess.run(["cp", "-a", SAMPLE, path], check=True)
    for leftover in (".shoebox", "Albums", "Recently Deleted", "Collages", "Tracker"):
        shutil.rmtree(os.path.join(path, leftover), ignore_errors=True)
    os.makedirs(os.path.join(path, "Faces"))
    for f in sorted(os.listdir(FACES)):
        if f.endswith(".jpg"):
            shutil.copy2(os.path.join(FACES, f), os.path.join(path, "Faces", f))
    # A video of its own (the sample's MOV is a Live Photo's movie, not an asset in listings).
    os.makedirs(os.path.join(path, "Videos"))
    subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc=size=640x360:rate=25:duration=3",
                    "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-movflags", "+faststart",
                    "-metadata", "creation_time=2024-06-01T12:00:00Z", os.path.join(path, "Videos", "clip.mp4")],
                   check=True)
    run("init", path)
    run("--library", path, "scan")
    run("--library", path, "analyze")
    photos = [a["id"] for a in cli(path, "list", "--kind", "photo")][:4]
    run("--library", path, "album", "create", "Summer Picks", *photos)


def small():
    """The analysed sample library with faces (made once per run; do not change it: copy())."""
    return _make("small", _sample_with_faces)


def _big(path):
    subprocess.run([os.path.join(ROOT, "scripts", "make-big-library"), str(BIG_ASSETS), path,
                    "--scan", "--shoebox", shoebox_bin()], check=True)


def big():
    """BIG_ASSETS (10,000) generated small photos, scanned, not analysed; shared, read only."""
    return _make(f"big-{BIG_ASSETS}", _big)


def first(items, **want):
    """The first dict of ITEMS whose fields equal WANT."""
    return next(i for i in items if all(i.get(k) == v for k, v in want.items()))
