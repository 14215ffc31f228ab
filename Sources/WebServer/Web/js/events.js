// Live updates: one EventSource on /api/events for the whole page, shared by whoever listens.
// The server sends `event: library` with {"generation": N} whenever the index changes (this
// server's watcher or a CLI command in another process).

let source = null;
const listeners = new Set();
let lastGeneration = null;
let connected = false;

/** Whether STAMP is the state the page has: the same stamp, or the index generation it was told. */
function sameAsKnown(stamp) {
  if (lastGeneration === null) return false;
  if (stamp === lastGeneration) return true;
  return !lastGeneration.includes(".") && stamp.split(".")[0] === lastGeneration;
}

function connect() {
  if (source || typeof EventSource === "undefined") return;
  // EventSource reconnects by itself after a dropped connection (server restart, sleep).
  source = new EventSource("/api/events");
  source.addEventListener("library", (event) => {
    let generation = null;
    // A string or a number, depending on the server; compared as text.
    try { generation = String(JSON.parse(event.data).generation ?? "") || null; } catch { generation = null; }
    // Each new stream starts with the server's current stamp ("GENERATION.ALBUMS"). A page that
    // said which index generation its data is (setKnownGeneration) hears of a change made since
    // its fetch — also one made before the stream opened; a page that did not takes the first
    // stamp as its start. The same stamp twice (a reconnect replays it) is no change.
    const first = !connected;
    connected = true;
    if (generation !== null && sameAsKnown(generation)) { lastGeneration = generation; return; }
    if (first && lastGeneration === null) { lastGeneration = generation; return; }
    lastGeneration = generation;
    for (const listener of [...listeners]) {
      try { listener(generation); } catch (error) { console.error(error); }
    }
  });
}

/**
 * Calls callback(generation) whenever the library changes. Returns a function that stops it.
 * Calls arriving in a burst are the caller's to coalesce (see coalesce below).
 */
export function onLibraryChange(callback) {
  connect();
  listeners.add(callback);
  return () => listeners.delete(callback);
}

/** Remembers the generation the page loaded with, so the first event that repeats it is ignored. */
export function setKnownGeneration(generation) {
  if (lastGeneration === null && generation !== null && generation !== undefined) lastGeneration = String(generation);
}

/**
 * Wraps an async function so calls during a run collapse into one more run after it, with the
 * latest call's arguments (what was asked last is what counts).
 */
export function coalesce(fn) {
  let running = null, pending = null;
  const run = (...args) => {
    if (running) { pending = args; return running; }
    running = (async () => {
      let next = args;
      while (next) { pending = null; await fn(...next); next = pending; }
    })().finally(() => { running = null; });
    return running;
  };
  return run;
}
