#!/usr/bin/env python3
"""The first build (issue 33) and the SHA-256 that replaced swift-crypto's.

    bench/build.py [--quick] [--before REV | --no-before] [--after REV] [--modes release,debug]
                   [--hash-mib N] [--json OUT] [--row]

Builds: a fresh `git clone` of this repository at REV into a temporary folder, then
`swift build -c release` timed from nothing (package resolution from the machine's package
copies and SwiftPM's cache, as a new checkout does it), then `.build/` removed and `swift build`
(debug) timed the same way. AFTER is HEAD (committed work only); BEFORE is 6c5e8de, the last
commit that linked swift-crypto (all of BoringSSL compiled for SHA-256). --quick builds AFTER in
release only: the goal is a clean release build under 3 minutes.

Hashing: a file of N MiB of random bytes (default 1024; --quick 256), read once to be in the
page cache, then hashed by `hash-bench` (SHA256Hasher, 1 MiB preads as a scan reads) and by
`sha256sum` (coreutils' own SHA-256: Debian builds it without OpenSSL) and by `openssl dgst -sha256`
(the ceiling), each the best of 3 whole-process wall times; the digests must agree.
Each build's CPU time (user + system) is given too: this machine is shared, and the wall time
of a build moves with what else runs; the CPU time much less.
`hash-bench` is built by bench/run (swift build -c release --product hash-bench).
With --row, the benchmark table's rows on stdout.
"""
import argparse, json, os, resource, shutil, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BEFORE = "6c5e8de"


def run(cmd, cwd=None):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"bench: {' '.join(cmd)} failed in {cwd or ROOT}:\n{(p.stdout + p.stderr)[-2000:]}")
    return p.stdout


def timed_build(folder, args):
    """Wall and CPU (user + system, every process) seconds of `swift build ARGS` in `folder`, and
    the BoringSSL copies it compiled (swift-crypto's, swift-nio-ssl's): the machine is shared, so
    the CPU time is the steadier figure."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    out = run(["swift", "build", *args], cwd=folder)
    seconds = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return seconds, cpu, [name for name in ("CCryptoBoringSSL", "CNIOBoringSSL") if f"Compiling {name}" in out]


def clean_builds(rev, modes, scratch):
    """Clone `rev` and build it from nothing in each of `modes` ("release", "debug")."""
    sha = run(["git", "-C", ROOT, "rev-parse", "--verify", rev + "^{commit}"]).strip()
    folder = os.path.join(scratch, f"clone-{sha[:12]}")
    run(["git", "clone", "--quiet", "--no-checkout", ROOT, folder])
    run(["git", "-C", folder, "checkout", "--quiet", "--detach", sha])
    commit = run(["git", "-C", folder, "rev-parse", "--short", "HEAD"]).strip()
    result = {"rev": rev, "commit": commit}
    for mode in modes:
        shutil.rmtree(os.path.join(folder, ".build"), ignore_errors=True)
        seconds, cpu, boringssl = timed_build(folder, ["-c", mode])
        resolved = open(os.path.join(folder, "Package.resolved")).read()
        result[mode] = {"seconds": round(seconds, 1), "cpu_seconds": round(cpu, 1), "compiled_boringssl": boringssl,
                        "swift_crypto_resolved": '"swift-crypto"' in resolved}
        print(f"bench: {commit} {mode}: {seconds:.0f} s, CPU {cpu:.0f} s (BoringSSL compiled: {boringssl or 'none'})",
              file=sys.stderr)
    shutil.rmtree(folder, ignore_errors=True)
    return result


def best_of(cmd, runs=3):
    """The best wall and the best CPU (user + system) seconds of `cmd` over `runs`, and its output."""
    wall, cpu, out = [], [], None
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        out = run(cmd)
        wall.append(time.perf_counter() - t0)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return min(wall), min(cpu), out


def hashing(mib, scratch):
    binary = os.path.join(ROOT, ".build", "release", "hash-bench")
    if not os.access(binary, os.X_OK):
        sys.exit(f"bench: {binary} not built (swift build -c release --product hash-bench)")
    path = os.path.join(scratch, "random.bin")
    with open(path, "wb") as f:
        for _ in range(mib):
            f.write(os.urandom(1 << 20))
    with open(path, "rb") as f:  # into the page cache: both read memory, not the disk
        while f.read(1 << 24):
            pass
    ours_s, ours_cpu, ours = best_of([binary, path])
    theirs_s, theirs_cpu, theirs = best_of(["sha256sum", path])
    openssl_s, openssl_cpu, openssl = best_of(["openssl", "dgst", "-sha256", "-r", path])
    if not ours.split()[0] == theirs.split()[0] == openssl.split()[0]:
        sys.exit(f"bench: hash-bench says {ours.split()[0]}, sha256sum {theirs.split()[0]}, openssl {openssl.split()[0]}")
    os.remove(path)
    return {"mib": mib, "hasher_s": round(ours_s, 3), "sha256sum_s": round(theirs_s, 3), "openssl_s": round(openssl_s, 3),
            "hasher_mb_s": round(mib * 1.048576 / ours_s), "sha256sum_mb_s": round(mib * 1.048576 / theirs_s),
            "openssl_mb_s": round(mib * 1.048576 / openssl_s),
            "hasher_cpu_s": round(ours_cpu, 3), "sha256sum_cpu_s": round(theirs_cpu, 3), "openssl_cpu_s": round(openssl_cpu, 3)}


def fmt(s):
    return f"{int(s // 60)} min {s % 60:02.0f} s" if s >= 60 else f"{s:.0f} s"


def rows(r):
    after, before = r["after"], r.get("before")
    out = []
    for mode, goal in (("release", 180), ("debug", None)):
        if mode not in after:
            continue
        a, a_cpu = after[mode]["seconds"], after[mode]["cpu_seconds"]
        what = (f"build: clean {mode} build from a fresh clone (`git clone`, `swift build"
                f"{' -c release' if mode == 'release' else ''}`, packages resolved from the machine's copies)")
        if before and mode in before:
            b = before[mode]["seconds"]
            comparison = f"before, with swift-crypto ({before['commit']}): {fmt(b)}, CPU {fmt(before[mode]['cpu_seconds'])}"
            ratio = f"**{a / b:.2f}×** before (CPU {a_cpu / before[mode]['cpu_seconds']:.2f}×)"
        else:
            comparison, ratio = "before: not built (--quick or --no-before)", "—"
        if goal:
            ratio += f"; goal < 3 min: {'met' if a < goal else 'NOT MET'}"
        out.append(f"| {what} | {fmt(a)}, CPU {fmt(a_cpu)} ({after['commit']}) | {comparison} | {ratio} |")
    h = r["hash"]
    out.append(f"| SHA-256 of a {h['mib']} MiB file (page cache), `SHA256Hasher` (OpenSSL libcrypto) "
               f"| {h['hasher_s']:.2f} s ({h['hasher_mb_s']} MB/s), CPU {h['hasher_cpu_s']:.2f} s "
               f"| `sha256sum`: {h['sha256sum_s']:.2f} s ({h['sha256sum_mb_s']} MB/s), CPU {h['sha256sum_cpu_s']:.2f} s; "
               f"`openssl dgst -sha256` (the ceiling): {h['openssl_s']:.2f} s, CPU {h['openssl_cpu_s']:.2f} s "
               f"| **{h['sha256sum_s'] / h['hasher_s']:.2f}×** sha256sum's speed (CPU "
               f"{h['sha256sum_cpu_s'] / h['hasher_cpu_s']:.2f}×), {h['openssl_cpu_s'] / h['hasher_cpu_s']:.2f}× openssl's (CPU) |")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--before", default=BEFORE)
    ap.add_argument("--after", default="HEAD")
    ap.add_argument("--hash-mib", type=int)
    ap.add_argument("--modes", help="builds to time, comma-separated (default release,debug; --quick release)")
    ap.add_argument("--no-before", action="store_true", help="build AFTER only")
    ap.add_argument("--json")
    ap.add_argument("--row", action="store_true")
    a = ap.parse_args()
    mib = a.hash_mib or (256 if a.quick else 1024)
    scratch = tempfile.mkdtemp(prefix="shoebox-build-bench-")
    try:
        result = {"hash": hashing(mib, scratch)}
        modes = a.modes.split(",") if a.modes else ["release"] if a.quick else ["release", "debug"]
        if not a.quick and not a.no_before:
            result["before"] = clean_builds(a.before, modes, scratch)
        result["after"] = clean_builds(a.after, modes, scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(result, f, indent=2)
    if a.row:
        print("\n".join(rows(result)))
    else:
        print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
