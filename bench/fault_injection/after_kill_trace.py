"""Where to kill a command of the after-kill scenario, read from an un-killed run of it under
`strace -y` (the files behind the descriptors): after the sidecars of its first batch and before
the index, when it writes sidecars (what the batch's replay record in .shoebox/journal.json is
for); else on entry to the middle one of its write calls. strace counts calls per thread and per
syscall for `inject=…:when=N`, so the point is (syscall, N) as that thread counted."""
import re

from .common import WRITES

CALL = re.compile(r"^(\d+)\s+(\w+)\((.*)$")
FD = re.compile(r"(?:\d+|AT_FDCWD)<([^>]*)>")
STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


def call_target(name, args):
    """The file a write call changes, as far as the traced line tells."""
    fds, strings = FD.findall(args), STRING.findall(args)
    join = lambda folder, leaf: folder.rstrip("/") + "/" + leaf
    if name in ("renameat", "renameat2", "linkat", "symlinkat"):
        return join(fds[-1], strings[-1]) if fds and strings else (strings[-1] if strings else "")
    if name in ("unlinkat", "mkdirat"):
        return join(fds[0], strings[0]) if fds and strings else (strings[0] if strings else "")
    if name in ("rename", "link", "symlink"):
        return strings[-1] if strings else ""
    if name in ("unlink", "mkdir", "rmdir"):
        return strings[0] if strings else ""
    return fds[0] if fds else ""


def write_calls(trace, library):
    """[(thread, syscall, path relative to the library or absolute, per-thread count)] in order."""
    calls, counted = [], {}
    with open(trace, errors="replace") as f:
        for line in f:
            m = CALL.match(line)
            if not m or m.group(2) not in WRITES:
                continue  # "<... resumed>" lines and calls outside the set
            tid, name, args = m.groups()
            path = call_target(name, args)
            if path.startswith(library + "/"):
                path = path[len(library) + 1:]
            counted[(tid, name)] = counted.get((tid, name), 0) + 1
            calls.append((tid, name, path, counted[(tid, name)]))
    return calls


def is_sidecar_rename(call):
    _, name, path, _ = call
    leaf = path.rsplit("/", 1)[-1]
    return name.startswith("rename") and path.startswith(".shoebox/sidecars/") and leaf.endswith(".json") and not leaf.startswith(".")


def is_index_write(call):
    return call[2].startswith(".shoebox/index.sqlite")


def kill_point(calls):
    """(syscall, N, description) of the chosen call, or None when the command wrote nothing."""
    if not calls:
        return None
    renames = [i for i, c in enumerate(calls) if is_sidecar_rename(c)]
    if renames:
        last, batch = renames[0], 1
        for j in range(renames[0] + 1, len(calls)):
            if is_index_write(calls[j]):
                break
            if is_sidecar_rename(calls[j]):
                last, batch = j, batch + 1
        i = min(last + 1, len(calls) - 1)
        where = f"after the {batch} sidecar{'s' if batch > 1 else ''} of its first batch, before the index"
    else:
        i = len(calls) // 2
        where = f"at its write call {i + 1} of {len(calls)} (no sidecar written: the middle one)"
    _, name, path, n = calls[i]
    return name, n, f"{where}: {name} #{n} on {path or '?'}"
