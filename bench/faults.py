#!/usr/bin/env python3
"""Fault injection: `kill -9` of shoebox at random instants while it writes; no photo may be lost.

    bench/faults.py [--runs N] [--seed S] [--shoebox PATH] [--roll DIR] [--work DIR] [--quick] [--json OUT]
    bench/faults.py --after-kill [--quick] [--killed NAME,…] [--first NAME,…] [--seed S] [--json OUT]

The code is in bench/fault_injection/: the harness (library.py: running shoebox, the disk, the
listings; killing.py: timed kills and kills at a write call; setup.py; checks.py), one file per
family of writing commands (ops_core, ops_watch, ops_analysis, ops_tidy, ops_curation,
ops_composer, ops_memories, ops_tracker, ops_web), the random scenario's runs (random_runs.py), the
after-kill scenario (after_kill*.py) and this command line (cli.py).

The random scenario (default). Copies a roll (default: sample-library/, without its .shoebox/,
Albums/ and Recently Deleted/) into a work folder, `init`s and scans it, and records the ground
truth: the SHA-256 of every original (present, trashed, and the video halves of Live Photos), how
many byte-identical copies of each there are, and the ids each content has. Every operation is
calibrated by un-killed runs (its duration; under strace, the write calls it makes). Then, N times:
  - one operation, picked at random (weighted), with arguments from the library as it is:
      core: trash 1–5 assets; restore 1–3; trash purge with SHOEBOX_NOW far ahead (everything in
        the trash has expired: its originals may legitimately go); album create/add/order/remove/
        delete; scan after the harness moved files between folders; rebuild; people name/merge/
        forget; watch while the harness drags files into and out of Recently Deleted/files/ by
        hand, creates and renames files and folders;
      analysis: analyze (of what the runs added); cache clear; cache thumbnail;
      curation: curate add (its analysis), select/deselect/top/remove/clear (the list file),
        share --to a folder outside the library (links or copies), album;
      tidy: keep/delete/maybe (the item under review, or one of its group with --others), undo,
        unmark, filter (a new session), empty (marked files into Recently Deleted);
      tracker: project/mini/recipe add/update/rm, recipe link/unlink, photo add/rm
        (Tracker/tracker.json and Tracker/photos/), export into a folder outside the library;
      memories: collage --save (a new JPEG in Collages/, indexed) or -o a file outside;
      composer: add/move/replace/remove/clear (the draft file), export -o a file outside the
        library or --save into Collages/;
      web: `serve --port 0 --no-watch` answering one request as a page sends it (with Origin): an
        upload (POST /api/upload, a new photo, sometimes padded to 1–3 MiB so it streams in
        pieces), trash, restore (ids or names), album create/add/order/remove/delete (keys
        percent-encoded), a person's name, Tidy's requests (decide — the item under review, or one
        member of a group with "others" —, undo, unmark, empty: ops_web_tidy.py; `--only web-tidy`
        draws these alone), Curation's (add — which starts the server's analysis of what it
        adds —, select, top, remove, album: ops_web_curate.py; `--only web-curate` draws these
        alone), the tracker's (a project, miniature or recipe made, a stage recorded,
        a recipe linked, a library photo copied to a miniature, a photo or a project with its
        photos deleted: checked by check_tracker), the composer's (add, move, replace, remove,
        clear, export into the server's memory, save into Collages/ after an export:
        ops_web_compose.py; `--only web-compose` draws these alone); the server is killed after a
        random number of the
        upload's body bytes, or after a delay from the request (the upload's last byte) drawn
        from its un-killed duration — never by strace (its writes hop between pool threads);
  - shoebox is started and SIGKILLed, in one of two ways (half and half by default):
      timed: after a delay drawn uniformly in [0, 1.2 × the operation's un-killed duration]
        (refined by every run that finished first); most draws start at the operation's first
        write, since its first ~30 ms are process start-up where a kill can break nothing; one run
        in ten is killed at once; `watch` is always killed this way;
      at a write call (when strace can trace here): on entry to the n-th call of one write syscall
        (rename, unlink, pwrite64, symlink, fsync…), the call and n drawn in proportion to what the
        operation makes — every step of its write sequence is hit, however short the window;
  - `shoebox scan` (the next start), then the invariants:
      every original exists as many times as it had copies, byte-identical, in the library or in
      Recently Deleted/files/ (less what a purge took: only what was in the trash may go);
      every .trashinfo has its file and every file in files/ its .trashinfo;
      no symbolic link dangles anywhere under the library (`find -xtype l`);
      `shoebox doctor` exits 0;
      every asset's id is one its content had at set-up (no new id minted for old content);
      no hidden `.shoebox-build-*` folder is left under Albums/, and no temporary of a whole-file
      write (`.NAME.PID.RANDOM.tmp`) of a dead writer (stray_temporaries);
      `curate list` reads the list (curation_damaged), and every file `curate share` left in its
      folder under a name holds the bytes of an original whole (share_partial);
      `tidy status` reads the session (tidy_damaged), its counts agree with `tidy trash` and
      `tidy maybes`, and no photo marked for deletion is in Recently Deleted (tidy_mismatch); after
      a web Tidy request, what it was doing is done whole or not at all — a group's members all
      decided as asked or all as before, every photo Empty Trash was moving either still marked
      or in Recently Deleted (tidy_half_done) — and a server started afresh says what `tidy
      status` says (tidy_mismatch); after a web Curation request, it is done whole or not at
      all — the photos added all there or none, the selection as before or as asked, a new
      "TO NAME …" album the whole list in score order (curation_half_done);
      `tracker project list` reads the tracker (tracker_damaged), Tracker/tracker.json keeps its
      references and every photo it names is there with its SHA-256 (tracker_integrity), and
      every file `tracker export` left under a name is whole (export_partial);
      `compose list` reads the draft (composer_damaged), and every story `compose export` left
      under a name (outside, or in Collages/) is a whole 1080×1920 HEIC (story_partial); after a
      web composer request the draft is as before it or as it makes it (compose_half_done), and
      an export from the web wrote nothing into Collages/ (compose_export_wrote);
      every collage `memories collage` left under a name (in Collages/, or outside) is a whole
      JPEG (collage_partial); one in Collages/ is then an original like any other;
      every file under a name in Imports/ is an original whole (upload_partial: a killed upload
      left part of a photo under its name), and every web request that was not killed
      succeeded (web_errors); the hidden temporaries of killed uploads are counted as a note
      (upload_temporaries), not a violation: no scan indexes them, the next upload removes them;
      and each original on disk is one asset, present or trashed (unindexed).
    A problem that persists is counted once (shown again as "still").
Every 25 runs (and at the end) everything is restored and the library must equal the ground
truth again, less what was purged. A violation is reported with its details and the runs go on
(after a doctor failure the library is repaired with `rebuild`, so that one finding is counted
once). Trash and purge drain the library: when a third of it has gone, new photos (roll JPEGs with
a unique trailer) are added. The two last lines: one count per operation and the other checks, then
the summary:
    faults: runs=N kills=K files_lost=0 duplicated=0 dangling_links=0 orphan_trashinfo=0 doctor_failures=0 id_changes=0 seconds=S

The after-kill scenario (--after-kill; needs strace). A template library holds work for every
writing command of every feature (bench/fault_injection/after_kill_cast.py lists them: 55 on the
sample library). Each command to kill runs once un-killed under `strace -y` (the checks below
must pass without a kill), which says where to kill it: after the sidecars of its first batch and
before the index when it writes sidecars (the state the batch's replay record is for), else at
the middle one of its write calls. Then it is killed there, and on a copy of what the kill left
EVERY OTHER writing command is run first (not scan), then `scan`, then:
      replay_lost: the ids of the killed batch (.shoebox/journal.json) are in the index, analysed
        if their sidecar is, with the names their sidecar gives their faces;
      second_ids: as many sidecars as assets in the index, and no file with two ids;
      doctor_failures: `doctor` exits 0;
      rebuild_drift: `rebuild` gives the same ids (paths, states, contents, names) as before it;
      and the command run first is not ended by a signal (crashes), the scan succeeds.
The web server's writes are commands too ("web upload", "web trash", "web restore", "web album
create|order", "web people name", "web tidy delete|keep|undo|unmark|empty", "web compose add|move|export": after_kill_web.py): the server under strace -f, one request, then
SIGTERM; after every pair, each file under a name in Imports/ must be the upload's bytes whole
(upload_partial).
--quick kills `scan` and `people name` (the two cases of issue 28): scan against every other
command, people name against those that write asset records and one command of each other family,
and `web upload` against scan, trash, watch and web trash (after_kill.py's QUICK). The last line:
    faults: after-kill: pairs=P kills=K replay_lost=0 second_ids=0 doctor_failures=0 rebuild_drift=0 … seconds=S
Exit status 1 if anything was violated (the work folder is then kept for inspection).
"""
import os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fault_injection.cli import main  # noqa: E402 — after the path that finds it

if __name__ == "__main__":
    main(__doc__)
