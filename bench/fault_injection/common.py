"""What every part of the fault-injection harness shares: where things are, which calls write,
which counters are violations, and the few helpers that need no harness."""
import os, shutil, signal, subprocess

PACKAGE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(PACKAGE)
ROOT = os.path.dirname(BENCH)
NOT_ORIGINALS = ("Albums", ".shoebox", "Tracker")  # top-level folders that never hold originals (Tracker/: copies)
SKIP_FOLDERS = {"Albums", ".shoebox", "Recently Deleted", "Tracker"}  # not user folders
FUTURE = "2099-01-01T00:00:00"                  # SHOEBOX_NOW for purges: everything trashed has expired
# The random scenario's operations (families of commands) and how often each is drawn.
WEIGHTS = {"trash": 24, "restore": 18, "purge": 6, "album": 22, "scan": 14, "watch": 16, "analyze": 10, "people": 6,
           "cache": 4, "rebuild": 4, "curate": 12, "tidy": 12, "tracker": 12, "memories": 6, "compose": 8, "web": 16}
# Calls that change the disk: a kill "at a write" is a SIGKILL on entry to one of them (strace).
WRITES = ("write", "pwrite64", "rename", "renameat", "renameat2", "unlink", "unlinkat", "symlink", "symlinkat",
          "mkdir", "mkdirat", "rmdir", "fsync", "fdatasync", "syncfs", "ftruncate", "link", "linkat")
COUNTERS = ("files_lost", "duplicated", "dangling_links", "orphan_trashinfo", "doctor_failures", "id_changes")
OTHER = ("build_leftovers", "stray_temporaries", "unindexed", "scan_failures", "reset_mismatches", "early_exits", "harness_errors",
         "curation_damaged", "share_partial", "tidy_damaged", "tracker_damaged", "tracker_integrity", "export_partial",
         "collage_partial", "composer_damaged", "story_partial", "upload_partial", "web_errors", "tidy_half_done", "tidy_mismatch",
         "curation_half_done", "compose_half_done", "compose_export_wrote")
# Reported, but not violations (exit status 0): the hidden temporaries killed uploads left (a scan
# never indexes them).
NOTES = ("upload_temporaries",)


def is_temporary(name):
    """A temporary of shoebox's whole-file writes (AtomicFile): `.NAME.PID.RANDOM.tmp`."""
    parts = name.split(".")
    return name.startswith(".") and name.endswith(".tmp") and len(parts) >= 5 and parts[-3].isdigit() and parts[-2].isdigit()


def usable_strace():
    """strace, if it is installed and may trace here (containers often forbid ptrace)."""
    path = shutil.which("strace")
    if not path:
        return None
    # It must be able to kill on entry to a call (`--seccomp-bpf`, for one, silently cannot).
    p = subprocess.run([path, "-f", "-qq", "-o", "/dev/null", "-e", "trace=write",
                        "-e", "inject=write:signal=SIGKILL:when=1", "/bin/echo", "x"], capture_output=True)
    return path if p.returncode in (-signal.SIGKILL, 128 + signal.SIGKILL) and not p.stdout else None


def was_killed(returncode):
    return returncode in (-signal.SIGKILL, 128 + signal.SIGKILL)


def default_shoebox():
    for kind in ("release", "debug"):
        p = os.path.join(ROOT, ".build", kind, "shoebox")
        if os.path.exists(p):
            return p
    return os.path.join(ROOT, ".build", "release", "shoebox")


def is_whole_jpeg(data):
    """Starts with SOI and ends with EOI (trailing zero padding allowed): not cut short by a kill."""
    return data[:2] == b"\xff\xd8" and data.rstrip(b"\0")[-2:] == b"\xff\xd9"
