// The Memories API (docs/CONTRACT.md "The web app"): the answers are `shoebox memories … --json`'s
// shapes, with what only the page needs (a person's face, a render token and its JPEG's URL).
import { getJSON, postJSON } from "../api.js";

/** `memories sources --range RANGE --json`, each person with `face` (as /api/people gives it). */
export function loadSources(range) {
  return getJSON(`/api/memories/sources?range=${encodeURIComponent(range)}`);
}

/**
 * `memories collage --json` of SOURCE ({kind, value}) in RANGE with SEED, made in memory:
 * plus `render` (the token), `url` (/media/render/TOKEN.jpg), `name`, `width`, `height`.
 */
export function makeCollage(source, range, seed, { signal } = {}) {
  return postJSON("/api/memories/collage", { [source.kind]: source.value, range, seed }, { signal });
}

/** Saves the collage of render TOKEN into Collages/ (`memories collage --save --json` + `asset`). */
export function saveCollage(token) {
  return postJSON("/api/memories/save", { render: token });
}
