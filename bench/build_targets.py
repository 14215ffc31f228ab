#!/usr/bin/env python3
"""Where a clean release build's time goes, target by target (issue 33, "The first build").

    bench/build_targets.py [--rev REV] [--json OUT] [--row]

A fresh `git clone` of REV (default HEAD) into a temporary folder; `swift package resolve`; then
the build in steps, each a `swift build -c release` of one thing whose dependencies the earlier
steps built, timed by the CPU (user + system) of every process it ran: first the packages
Shoebox uses (each library product it names, in an order where a product's own dependencies
come first, so each step compiles that package's part), then every Shoebox target in dependency
order, then the executables (their link). A step's fixed cost — SwiftPM planning a build that
has nothing to do — is measured once and taken off each step.

Why: the goal is a clean release build under 3 minutes on 2 cores. A release build compiles each
Swift module as one whole-module job (one core for that module), so the wall time can be no
less than the longest chain of modules that wait for one another (the critical path), nor than
all the CPU time halved. Both are computed from the steps and printed: what no scheduling of
this code could beat, and which targets set it. The CPU time is the steady figure on a shared
machine; the wall times are given too.
"""
import argparse, json, os, resource, shutil, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def run(cmd, cwd):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"bench: {' '.join(cmd)} failed in {cwd}:\n{(p.stdout + p.stderr)[-2000:]}")
    return p.stdout


def timed(cmd, cwd):
    """(wall seconds, CPU seconds of every process) of CMD."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    run(cmd, cwd)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def topological(targets):
    """Names of TARGETS (name → its targets' names) with each target after its dependencies."""
    done, order = set(), []

    def visit(name):
        if name in done or name not in targets:
            return
        done.add(name)
        for dep in targets[name]:
            visit(dep)
        order.append(name)

    for name in sorted(targets):
        visit(name)
    return order


# The packages' products Shoebox names, dependencies first (Hummingbird builds on swift-nio,
# swift-log, swift-service-lifecycle and swift-http-types).
ONE_MODULE = {"GRDB", "Logging", "ArgumentParser"}
EXTERNAL_ORDER = ["Logging", "ArgumentParser", "GRDB", "NIOConcurrencyHelpers", "NIOCore", "NIOPosix",
                  "HTTPTypes", "ServiceLifecycle", "Hummingbird"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rev", default="HEAD")
    ap.add_argument("--json")
    ap.add_argument("--row", action="store_true")
    a = ap.parse_args()
    scratch = tempfile.mkdtemp(prefix="shoebox-build-targets-")
    try:
        folder = os.path.join(scratch, "clone")
        run(["git", "clone", "--quiet", ROOT, folder], ROOT)
        run(["git", "checkout", "--quiet", "--detach", a.rev], folder)
        commit = run(["git", "rev-parse", "--short", "HEAD"], folder).strip()
        resolve = timed(["swift", "package", "resolve"], folder)
        described = json.loads(run(["swift", "package", "describe", "--type", "json"], folder))
        kinds = {t["name"]: t.get("type") for t in described["targets"]}
        built = {t["name"]: [d for d in (t.get("target_dependencies") or [])]
                 for t in described["targets"] if t.get("type") in ("library", "executable")}
        # On the chain too: the packages' products that are one module each (the others are
        # several modules that build side by side, so their step is no single chain).
        chained = {t["name"]: [p for p in (t.get("product_dependencies") or []) if p in ONE_MODULE]
                   for t in described["targets"] if t["name"] in built}
        named = {p for t in described["targets"] if t["name"] in built for p in (t.get("product_dependencies") or [])}
        externals = [p for p in EXTERNAL_ORDER if p in named] + sorted(named - set(EXTERNAL_ORDER))
        libraries = [t for t in topological(built) if kinds.get(t) == "library" and t != "TestSupport"]
        executables = sorted(t for t in built if kinds.get(t) == "executable")
        steps = []

        def step(kind, name, flag):
            wall, cpu = timed(["nice", "-n", "10", "swift", "build", "-c", "release", flag, name], folder)
            steps.append({"kind": kind, "name": name, "wall_s": round(wall, 1), "cpu_s": round(cpu, 1)})
            print(f"bench: {kind} {name}: {wall:.0f} s, CPU {cpu:.0f} s", file=sys.stderr)

        for p in externals:
            step("package", p, "--target")  # a package's product by --product builds every target
        for t in libraries:
            step("target", t, "--target")
        for t in executables:
            step("executable", t, "--product")
        # A step's fixed cost: the same step again, with nothing left to do.
        idle_wall, idle_cpu = timed(["swift", "build", "-c", "release", "--target", libraries[-1]], folder)
        for s in steps:
            s["net_cpu_s"] = round(max(0.0, s["cpu_s"] - idle_cpu), 1)
        net = {s["name"]: s["net_cpu_s"] for s in steps}
        # The critical path: the chain of modules each waiting for the one before (each module one
        # core in a release build), through Shoebox's targets and the one-module packages below.
        longest = {}
        for t in libraries + executables:
            for p in chained.get(t, []):
                longest.setdefault(p, (net.get(p, 0), [p]))
            deps = [d for d in built.get(t, []) + chained.get(t, []) if d in longest]
            below = max(deps, key=lambda d: longest[d][0], default=None)
            longest[t] = (net.get(t, 0) + (longest[below][0] if below else 0), (longest[below][1] if below else []) + [t])
        path_cpu, path = max(longest.values(), key=lambda v: v[0])
        packages_cpu = sum(s["net_cpu_s"] for s in steps if s["kind"] == "package")
        total_cpu = sum(s["net_cpu_s"] for s in steps)
        result = {"commit": commit, "resolve_s": round(resolve[0], 1), "idle_step_cpu_s": round(idle_cpu, 1),
                  "steps": steps, "total_cpu_s": round(total_cpu, 1), "packages_cpu_s": round(packages_cpu, 1),
                  "critical_path": path, "critical_path_cpu_s": round(path_cpu, 1),
                  "floor_2_cores_s": round(max(total_cpu / 2, path_cpu), 1)}
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(result, f, indent=2)
    if a.row:
        top = sorted(result["steps"], key=lambda s: -s["net_cpu_s"])[:6]
        print(f"| build, target by target ({commit}): CPU of each step of a clean release build "
              f"| total CPU {total_cpu:.0f} s (packages {packages_cpu:.0f} s); largest: "
              + ", ".join(f"{s['name']} {s['net_cpu_s']:.0f} s" for s in top)
              + f" | critical path (one module at a time) {path_cpu:.0f} s ({' → '.join(path)}) "
              f"| a 2-core floor of {result['floor_2_cores_s'] / 60:.1f} min (the larger of CPU ÷ 2 and the critical path); goal < 3 min |")
    else:
        print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
