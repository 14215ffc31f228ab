"""Runs the browser tests (all, or the names given) and prints one line per test, the failures in
full, where the screenshots are, and the closing line `N passed, N failed, N skipped`."""
import os, sys, time, unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from support import browser  # noqa: E402


class LineResult(unittest.TextTestResult):
    def startTest(self, test):
        self.t0 = time.monotonic()
        super().startTest(test)

    def _line(self, word, test):
        took = f" ({time.monotonic() - self.t0:.1f} s)" if getattr(self, "t0", None) else ""
        self.t0 = None
        self.stream.write(f"{word:5} {test.id()}{took}\n")
        self.stream.flush()

    def addSuccess(self, test):
        unittest.TestResult.addSuccess(self, test)
        self._line("ok", test)

    def addFailure(self, test, err):
        unittest.TestResult.addFailure(self, test, err)
        self._line("FAIL", test)

    def addError(self, test, err):
        unittest.TestResult.addError(self, test, err)
        self._line("ERROR", test)

    def addSkip(self, test, reason):
        unittest.TestResult.addSkip(self, test, reason)
        self._line("skip", test)
        self.stream.write(f"      skipped: {reason}\n")


def main():
    loader = unittest.TestLoader()
    names = sys.argv[1:]
    suite = loader.loadTestsFromNames(names) if names else loader.discover(HERE, pattern="test_*.py", top_level_dir=HERE)
    runner = unittest.TextTestRunner(stream=sys.stdout, verbosity=0, resultclass=LineResult)
    result = runner.run(suite)
    failed = len(result.failures) + len(result.errors)
    passed = max(0, result.testsRun - failed - len(result.skipped))
    print(f"screenshots: {browser.SCREENSHOTS}")
    print(f"{passed} passed, {failed} failed, {len(result.skipped)} skipped")
    sys.exit(1 if failed or result.testsRun == 0 else 0)


if __name__ == "__main__":
    main()
