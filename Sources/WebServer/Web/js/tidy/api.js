// Tidy's calls to the server (/api/tidy/…, /work: docs/CONTRACT.md "The web app"). Each is one
// entry point of the Tidy module, the same the `shoebox tidy …` commands call: the page shows
// and asks, every rule stays on the server.
import { getJSON, postJSON } from "../api.js";

/** The item under review, the session's standing and the next items: `{item, status, ahead, unanalysed}`. */
export const current = () => getJSON("/api/tidy");

/** keep | delete | maybe the item under review, or with `id` one asset (`others` deciding the rest of its group). */
// Decisions and undo are sent with keepalive: one on its way when the tab closes still lands.
export const decide = (decision, { id, others } = {}) =>
  postJSON("/api/tidy/decide", { decision, ...(id ? { id } : {}), ...(others ? { others } : {}) }, { keepalive: true });

/** Takes the last decision back: `{undone, next, status, ahead}`. */
export const undo = () => postJSON("/api/tidy/undo", {}, { keepalive: true });

/** The filters with how many photos each would offer: `{current, filters: [{filter, label, count}]}`. */
export const filters = () => getJSON("/api/tidy/filters");

/** A new session over `filter` ("all", "year:2024", …): `{item, status, ahead}`. */
export const startFilter = (filter) => postJSON("/api/tidy/filter", { filter });

/** The photos marked for deletion / the maybe pile, newest first. */
export const marked = () => getJSON("/api/tidy/trash");
export const maybes = () => getJSON("/api/tidy/maybes");

/** A marked photo is kept instead. */
export const unmark = (id) => postJSON("/api/tidy/unmark", { id });

/** Every marked photo to Recently Deleted: `{removed, freed_bytes, freed, reviewed, purge_date, failed, errors, …}`. */
export const empty = () => postJSON("/api/tidy/empty", {});
