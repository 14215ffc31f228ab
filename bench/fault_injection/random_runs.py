"""The random scenario's runs: one operation drawn by weight, run and killed, then the checks;
new photos when trash and purge have drained the library."""
import os, shutil, sys

from .common import WEIGHTS


class RandomRuns:
    def replenish(self, run):
        """Trash and purge drain the library; new photos keep it at a useful size."""
        if len(self.assets) >= 0.6 * self.initial_present:
            return
        for _ in range(self.initial_present // 3):
            self.write_new(f"Imported/{run}", False)
        problems = self.check(f"run {run}: replenish")
        if problems:
            self.failed_runs += 1
            print(f"faults: run {run} (replenish, no kill): " + "\n    ".join(problems), file=sys.stderr)

    def op_stats(self, op):
        return self.ops.setdefault(op, dict.fromkeys(("runs", "kills", "at_write", "timed_after_write"), 0))

    def plan(self, op, run):
        """The drawn operation's plan, or trash's when it has nothing to do (e.g. restore, with an
        empty trash): (op, (description, argv, env, extra)), or None."""
        for candidate in [op, "trash"]:
            plan = getattr(self, "op_" + candidate)(run)
            if plan:
                return candidate, plan
        return None

    def one_run(self, run):
        self.replenish(run)
        weights = {k: v for k, v in WEIGHTS.items() if not self.a.only or k in self.a.only.split(",")}
        op = self.rng.choices(list(weights), list(weights.values()))[0]
        log = os.path.join(self.logs, "run.log")
        purged_from = None
        details = []
        web_failure = None
        if op == "watch":
            killed, delay, early, details, duration = self.op_watch(run, log)
            desc = f"watch ({len(details)} actions)"
            where = f"{delay * 1000:.0f} ms of ~{duration * 1000:.0f} ms"
            status = None
            if early is not None:
                self.counts["early_exits"] += 1
            stats = self.op_stats(op)
        elif op == "web":
            killed, desc, where, status, key, wrote, web_failure = self.op_web(run, log)
            early = None
            stats = self.op_stats(key)
            if wrote:
                stats["timed_after_write"] += 1
                self.mid_write += 1
        else:
            planned = self.plan(op, run)
            if planned is None:
                return
            op, (desc, argv, env, extra) = planned
            if op == "purge":
                purged_from = extra
            before = self.snapshot()
            killed, where, status, at_write = self.run_killed(op, argv, env, log)
            early = None
            stats = self.op_stats(op)
            if killed and at_write:
                stats["at_write"] += 1
                self.at_write += 1
            elif killed and self.snapshot() != before:
                stats["timed_after_write"] += 1
                self.mid_write += 1
        stats["runs"] += 1
        if killed:
            stats["kills"] += 1
            self.kills += 1
        how = "killed" if killed else "not killed" + (f", exit {status}" if status else "")
        label = f"run {run} ({desc}, {how} at {where})"
        problems = self.check(label, purged_from)
        if early is not None:
            problems.append(f"early_exits: watch exited by itself ({early}) before the kill: {open(log).read()[-800:]}")
        if web_failure:
            self.counts["web_errors"] += 1
            problems.append(f"web_errors: {web_failure}")
        if problems:
            self.failed_runs += 1
            keep = os.path.join(self.logs, f"run-{run}.log")
            shutil.copyfile(log, keep)
            print(f"faults: {label}: FAILED\n    " + "\n    ".join(problems)
                  + ("\n    actions: " + "; ".join(details) if details else "") + f"\n    shoebox's stderr: {keep}",
                  file=sys.stderr)
        elif not self.a.quiet:
            print(f"faults: {label}: ok", file=sys.stderr)
