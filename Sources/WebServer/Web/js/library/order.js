// The library's current order, handed from the grid to the viewer through sessionStorage so
// ← → in the viewer step through what the grid showed (same filters, same order), and the
// viewer's Escape returns to the grid at the photo last seen.
const ORDER_KEY = "shoebox.library.order";
const RETURN_KEY = "shoebox.library.return";
// Beyond this many ids the list is not stored (sessionStorage holds ~5 M characters); the
// viewer fetches it again with the stored query instead.
const MAX_STORED_IDS = 40000;

/** Remembers the grid's order: query (the filters' URLSearchParams string) and the ids. */
export function saveOrder(query, ids) {
  const record = { query, ids: ids.length <= MAX_STORED_IDS ? ids : null };
  try { sessionStorage.setItem(ORDER_KEY, JSON.stringify(record)); } catch { /* storage full or off: the viewer re-fetches */ }
}

/** { query, ids|null } or null when the viewer was opened directly. */
export function loadOrder() {
  try { return JSON.parse(sessionStorage.getItem(ORDER_KEY) ?? "null"); } catch { return null; }
}

/** The photo the library should show and focus when it loads next. */
export function setReturnItem(id) {
  try { sessionStorage.setItem(RETURN_KEY, id); } catch { /* nothing to restore then */ }
}

/** Reads and forgets the photo to return to. */
export function takeReturnItem() {
  try {
    const id = sessionStorage.getItem(RETURN_KEY);
    sessionStorage.removeItem(RETURN_KEY);
    return id;
  } catch { return null; }
}

/** The library URL with the stored filters ("/?year=2021"). */
export function libraryURL() {
  const query = loadOrder()?.query ?? "";
  return query ? `/?${query}` : "/";
}
