"""Running an operation and killing it: timed (after a delay drawn from its un-killed duration)
or on entry to a chosen write call (strace's syscall injection)."""
import os, signal, statistics, subprocess, sys, time

from .common import WRITES, was_killed


class Killing:
    """Mixed into the Harness: needs self.strace, self.writes, self.durations, self.firsts, self.rng,
    self.logs, self.a, and LibraryAccess."""

    def measure(self, op, *args, env=None):
        """One un-killed run, watched: (seconds until its first write, seconds until it exited)."""
        before = self.snapshot()
        t0 = time.perf_counter()
        p = subprocess.Popen(self.cmd(*args), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                             env=env or self.env)
        first = None
        while p.poll() is None:
            if first is None and self.snapshot() != before:
                first = time.perf_counter() - t0
        end = time.perf_counter() - t0
        err = p.stderr.read()
        if p.returncode != 0:
            sys.exit(f"faults: calibration: shoebox {' '.join(args)} failed: {err[-1500:]}")
        self.firsts.setdefault(op, []).append(first if first is not None else end)
        self.durations.setdefault(op, []).append(end)

    def strace_cmd(self, argv, inject=None, out="/dev/null", paths=False):
        """strace around shoebox: every write call logged to `out` (with the files behind the
        descriptors when `paths`), and SIGKILL on entry to the `inject` = (call, n)-th one."""
        cmd = [self.strace, "-f", "-qq", "-o", out, "-e", "trace=" + ",".join(WRITES)] + (["-y"] if paths else [])
        if inject:
            cmd += ["-e", f"inject={inject[0]}:signal=SIGKILL:when={inject[1]}"]
        return cmd + self.cmd(*argv)

    def count_writes(self, op, *args, env=None):
        """One un-killed run under strace: how many of each write call it makes (per thread, as
        strace counts for `when=`: the largest count of any one thread)."""
        trace = os.path.join(self.logs, "calibrate.strace")
        p = subprocess.run(self.strace_cmd(args, out=trace), capture_output=True, text=True, env=env or self.env)
        if p.returncode != 0:
            sys.exit(f"faults: calibration: shoebox {' '.join(args)} under strace failed: {p.stderr[-1500:]}")
        self.record_writes(op, trace)

    def record_writes(self, op, trace):
        per = {}
        with open(trace) as f:
            for line in f:
                if "resumed>" in line:
                    continue
                pid, _, rest = line.partition(" ")
                name = rest.lstrip().split("(", 1)[0]
                if name in WRITES:
                    key = (pid, name)
                    per[key] = per.get(key, 0) + 1
        counts = {}
        for (_, name), n in per.items():
            counts[name] = max(counts.get(name, 0), n)
        self.writes.setdefault(op, []).append(counts)

    def estimate(self, op):
        return statistics.median(self.durations[op][-9:])

    def kill_delay(self, duration, first=0.0):
        """One kill in ten at once; else uniform in [0, 1.2 × duration], mostly from the first write
        on (the process's first ~30 ms are its start-up, where a kill can break nothing)."""
        r = self.rng.random()
        if r < 0.1:
            return 0.0
        if r < 0.3 or first >= duration:
            return self.rng.uniform(0, 1.2 * duration)
        return self.rng.uniform(0.9 * first, 1.2 * duration)

    def run_at_write(self, op, argv, env, log):
        """Killed on entry to the n-th call of one write syscall, n uniform over what the operation
        makes (and a little beyond: then it finishes)."""
        counts = {}
        for c in self.writes[op][-9:]:
            for k, v in c.items():
                counts[k] = max(counts.get(k, 0), v)
        names = sorted(counts)
        call = self.rng.choices(names, [counts[n] for n in names])[0]
        n = self.rng.randint(1, max(1, round(1.1 * counts[call])))
        trace = os.path.join(self.logs, "run.strace")
        with open(log, "w") as f:
            p = subprocess.run(self.strace_cmd(argv, (call, n), out=trace), stdout=subprocess.DEVNULL, stderr=f,
                               env=env or self.env)
        killed = was_killed(p.returncode)
        if not killed:
            self.record_writes(op, trace)
        return killed, f"{call} #{n}", p.returncode

    def run_killed(self, op, argv, env, log):
        """Runs the operation and kills it, at a write call (a share of the runs, when strace can) or
        after a delay. Returns (killed, where, exit status, at a write call)."""
        if self.strace and op in self.writes and self.rng.random() < self.a.syscall_share:
            killed, where, status = self.run_at_write(op, argv, env, log)
            return killed, where, status, True
        delay = self.kill_delay(self.estimate(op), statistics.median(self.firsts[op]))
        with open(log, "w") as f:
            t0 = time.perf_counter()
            p = subprocess.Popen(self.cmd(*argv), stdout=subprocess.DEVNULL, stderr=f, env=env or self.env)
            killed = False
            while True:
                left = delay - (time.perf_counter() - t0)
                if p.poll() is not None:
                    break
                if left <= 0:
                    p.send_signal(signal.SIGKILL)
                    killed = True
                    break
                time.sleep(min(left, 0.002))
            p.wait()
            elapsed = time.perf_counter() - t0
        if not killed:
            self.durations[op].append(elapsed)
        return killed, f"{delay * 1000:.0f} ms of ~{self.estimate(op) * 1000:.0f} ms", p.returncode, False
