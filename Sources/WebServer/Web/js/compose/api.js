// The composer's calls (docs/CONTRACT.md "The web app"): every change answers the draft as
// `compose list --json` prints it — an array top to bottom, each photo's asset fields plus
// `position` (from 1) — so the page always redraws from what the server holds.
// Changes go one at a time, in the order made: a drag followed at once by Alt+↓ must reach the
// server in that order, each applied to the draft the previous one left.
import { getJSON, postJSON } from "../api.js";

/** The draft's photos can be at most this many (brief 001: "Enforce maximum of 4 images"); the
 * server refuses more in its own words — this only lets the picker say so before asking. */
export const CAPACITY = 4;

let queue = Promise.resolve();

function serial(call) {
  const run = queue.then(call, call);
  queue = run.catch(() => {});
  return run;
}

export const draft = () => getJSON("/api/composer");
export const add = (ids) => serial(() => postJSON("/api/composer/add", { ids }));
export const move = (from, to) => serial(() => postJSON("/api/composer/move", { from, to }));
export const replace = (position, id) => serial(() => postJSON("/api/composer/replace", { position, id }));
export const remove = (position) => serial(() => postJSON("/api/composer/remove", { position }));
export const clear = () => serial(() => postJSON("/api/composer/clear", {}));

/** The story drawn: `compose export --json`'s fields plus `render`, `jpeg`, `heic`, `name`. */
export const exportStory = () => serial(() => postJSON("/api/composer/export", {}));

/** Saves an exported story into the library (Collages/); the answer's `saved` is the new photo. */
export const save = (render) => serial(() => postJSON("/api/composer/save", { render }));
