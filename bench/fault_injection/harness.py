"""The random scenario's harness: one object holding the library's ground truth and what the
runs learnt, made of the parts in this package (running shoebox, killing it, set-up, checks,
and one part per family of writing commands)."""
import os, random

from .checks import Checks
from .common import COUNTERS, NOTES, OTHER, usable_strace
from .killing import Killing
from .library import LibraryAccess
from .ops_analysis import AnalysisOps
from .ops_composer import ComposerOps
from .ops_core import CoreOps
from .ops_curation import CurationOps
from .ops_memories import MemoriesOps
from .ops_tidy import TidyOps
from .ops_tracker import TrackerOps
from .ops_watch import WatchOp
from .ops_web import WebOps
from .ops_web_curate import WebCurateOps
from .ops_web_compose import WebComposeOps
from .ops_web_tidy import WebTidyOps
from .random_runs import RandomRuns
from .setup import Setup

# Folders outside the library the commands write into (share, export -o, collage -o, tracker export).
OUTSIDE = ("shared", "stories", "collages", "exports")


class Harness(LibraryAccess, Killing, Setup, Checks, RandomRuns, CoreOps, WatchOp, AnalysisOps, TidyOps,
              CurationOps, ComposerOps, MemoriesOps, TrackerOps, WebOps, WebTidyOps, WebCurateOps, WebComposeOps):
    def __init__(self, a):
        self.a = a
        # `--only web-tidy` / `web-curate` / `web-compose`: the web operation, drawing Tidy's,
        # Curation's or the composer's requests alone (to hammer them).
        only = (a.only or "").split(",")
        self.web_tidy_only = "web-tidy" in only
        self.web_curate_only = "web-curate" in only
        self.web_compose_only = "web-compose" in only
        if self.web_tidy_only or self.web_curate_only or self.web_compose_only:
            a.only = ",".join("web" if x in ("web-tidy", "web-curate", "web-compose") else x for x in only)
        self.sb = os.path.abspath(a.shoebox)
        self.rng = random.Random(a.seed)
        self.work = a.work
        self.lib = os.path.join(self.work, "library")
        self.logs = os.path.join(self.work, "logs")
        # The commands make their folder only inside one that exists (as `mkdir` does).
        for d in OUTSIDE:
            os.makedirs(os.path.join(self.work, d), exist_ok=True)
        self.env = {k: v for k, v in os.environ.items() if k not in ("SHOEBOX_LIBRARY", "SHOEBOX_NOW")}
        self.hash_cache = {}
        self.expected = {}          # sha → copies on disk (library + Recently Deleted/files/)
        self.ids = {}               # sha → ids that content may have
        self.counts = dict.fromkeys(COUNTERS + OTHER + NOTES, 0)
        self.ops = {}               # op → {runs, kills, at_write, timed_after_write}
        self.strace = usable_strace() if a.syscall_share > 0 else None
        self.writes = {}            # op → [{syscall: count}] of un-killed runs under strace
        self.durations = {}         # op → un-killed durations seen
        self.firsts = {}            # op → when it first wrote, at calibration
        self.kills = 0
        self.mid_write = 0          # timed kills that landed after the process had written something
        self.at_write = 0           # kills on entry to a chosen write call
        self.failed_runs = 0
        self.reported = set()       # (counter, key) of problems the last check found
        self.made = 0               # files the harness created (unique content)
        self.inodes = set()         # inodes of the library's files at the last check (new ones in Collages/ are collages)
        self.collage_shas = set()   # collages' contents: one saved twice (same seed) is a copy with its own id
        self.stories = set()        # contents of stories `compose export --save` put into Collages/
        self.assets = []            # present assets (list --json), as of the last check
        self.trash_items = []       # trash list --json, as of the last check
        self.jpegs = []             # JPEG originals of the roll: sources of new files
        self.web_phases = {}        # how far each upload got when the server was killed (or "answered")
        self.web_temporaries = set()  # upload temporaries seen under Imports/ (a note, counted once each)
        self.web_temporaries_now = set()  # … and there at the last check
        self.web_failures = []      # requests that were not killed and failed all the same
        self.tidy_expected = None   # what the last web Tidy request may have left (check_tidy_web)
        self.curate_expected = None  # … and the last web Curation request (check_curate_web)
        self.compose_expected = None  # what the last web composer request may have left (check_compose_web)
