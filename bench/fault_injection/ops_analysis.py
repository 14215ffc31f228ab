"""The analysis's writing commands as random-scenario operations: analyze (thumbnails, faces,
people: sidecar and index writes) and the thumbnail cache (cache clear, cache thumbnail)."""


class AnalysisOps:
    def op_analyze(self, run):
        """The analysis of what the runs before added."""
        return "analyze", ["analyze"], None, None

    def op_cache(self, run):
        """Empties the thumbnail cache, or makes one asset's thumbnails (after a clear: both sizes)."""
        if self.assets and self.rng.random() < 0.6:
            a = self.rng.choice([x for x in self.assets if x["kind"] != "video"] or self.assets)
            size = self.rng.choice(["256", "1024"])
            return f"cache thumbnail --size {size}", ["cache", "thumbnail", a["id"], "--size", size], None, None
        return "cache clear", ["cache", "clear"], None, None

    def calibrate_analysis(self, round, measure):
        """analyze of files made for it, then the cache emptied and one thumbnail made again."""
        for _ in range(3):
            self.write_new("Calibration", False)
        self.run("scan")
        measure("analyze", "analyze")
        measure("cache", "cache", "clear")
        stills = [a for a in self.assets if a["kind"] != "video"]
        if stills:
            measure("cache", "cache", "thumbnail", stills[round % len(stills)]["id"])
