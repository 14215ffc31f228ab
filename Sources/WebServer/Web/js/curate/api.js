// Curation's calls to the server (/api/curation/…, docs/CONTRACT.md "The web app"). Each is one
// entry point of the Curation module, the same the `shoebox curate …` commands call: the page
// shows and asks, every rule (the ranking, what "top 5" means, the album's name) stays there.
// Each change answers with the list as `curate list --json` prints it, best first, each item
// also saying `scoring` (the server is analysing it for this list now).
import { getJSON, postJSON } from "../api.js";

/** The list, best first. */
export const list = () => getJSON("/api/curation");

/** Adds photos (asset ids); they are scored after, in the background. */
export const add = (ids) => postJSON("/api/curation/add", { ids });

/** Selects or deselects photos of the list. */
export const select = (ids) => postJSON("/api/curation/select", { ids });
export const deselect = (ids) => postJSON("/api/curation/deselect", { ids });

/** Selects the best 1, 5, 10 or 20 (all when fewer), replacing the selection. */
export const top = (count) => postJSON("/api/curation/top", { count });

/** Takes the selected photos out of the list (their files stay). */
export const removeSelected = () => postJSON("/api/curation/remove", {});

/** "TO NAME yyyy-MM-dd HH.mm.ss" of the whole list in score order: the album (`album show` + key). */
export const createAlbum = () => postJSON("/api/curation/album", {});

/** The files a share gives: `{files: [{id, name, size, companion, url}]}`, in rank order. */
export const sharedFiles = () => getJSON("/api/curation/share");

/** The download of the selection: one original as itself, several as a stored zip. */
export const DOWNLOAD_URL = "/media/curation/share";
