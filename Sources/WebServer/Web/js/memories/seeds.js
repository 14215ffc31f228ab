// The seeds a collage view has shown, in the order they were made: "Shuffle" adds a new one,
// "Back" and the seed list show an earlier one again (the same seed gives the same collage, so
// an earlier one is the same picture). Each seed keeps its last answer, so going back to one
// still kept by the server shows it without making it again.

/** A fresh seed for "Shuffle": random (1 … 2^32 − 1) and not one already in `taken`. */
export function newSeed(taken) {
  const words = new Uint32Array(1);
  for (;;) {
    crypto.getRandomValues(words);
    const seed = String(words[0]);
    if (words[0] !== 0 && !taken.has(seed)) return seed;
  }
}

export class SeedHistory {
  constructor(first = "1") {
    this.entries = [{ seed: String(first), answer: null }];
    this.index = 0;
  }

  get current() { return this.entries[this.index]; }
  get canGoBack() { return this.index > 0; }
  get seeds() { return this.entries.map((e) => e.seed); }

  /** A new seed at the end of the list, shown now. */
  shuffle() {
    this.entries.push({ seed: newSeed(new Set(this.seeds)), answer: null });
    this.index = this.entries.length - 1;
    return this.current;
  }

  /** The one before the shown one. */
  back() {
    if (this.index > 0) this.index -= 1;
    return this.current;
  }

  /** The seed at position `i` of the list. */
  go(i) {
    this.index = Math.max(0, Math.min(this.entries.length - 1, i));
    return this.current;
  }
}
