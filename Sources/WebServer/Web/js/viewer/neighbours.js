// Previous and next in the grid's order: the order the library left in sessionStorage (same
// filters), or — when the viewer was opened directly, or the photo is not in it — the library's
// own order fetched again (newest first, as the grid shows it).
import { getJSON } from "../api.js";
import { groupByMonth, ID } from "../library/layout.js";
import { libraryAPI } from "../library/query.js";
import { loadOrder, saveOrder, saveLibraryOrder } from "../library/order.js";

export class Neighbours {
  constructor() {
    this.ids = null;
    this.position = new Map();
  }

  /** Makes sure the order holds `id`; fetches the library's when it does not. */
  async load(id) {
    const stored = loadOrder();
    if (stored?.ids?.includes(id)) return this.#use(stored.ids);
    const query = stored?.ids?.includes(id) === false ? "" : stored?.query ?? "";
    let items = groupByMonth((await getJSON(libraryAPI(query))).items).items;
    let used = query;
    if (!items.some((item) => item[ID] === id) && query) {
      // Not under the stored filters (opened from elsewhere): the whole library's order.
      items = groupByMonth((await getJSON("/api/library")).items).items;
      used = "";
    }
    saveLibraryOrder(used, items);
    return this.#use(items.map((item) => item[ID]));
  }

  /** The id `step` places away from `id` (−1 previous, +1 next), or null at an end. */
  step(id, step) {
    const index = this.position.get(id);
    if (index === undefined) return null;
    return this.ids[index + step] ?? null;
  }

  /** "12 of 3,456" */
  describe(id) {
    const index = this.position.get(id);
    return index === undefined ? "" : `${(index + 1).toLocaleString()} of ${this.ids.length.toLocaleString()}`;
  }

  /** Forgets an id (moved to Recently Deleted) and returns the one to show instead. */
  remove(id) {
    const index = this.position.get(id);
    if (index === undefined) return null;
    const ids = this.ids.filter((other) => other !== id);
    this.#use(ids);
    // The stored order loses the same item, and keeps where Back goes.
    const stored = loadOrder();
    saveOrder(stored?.query ?? "", ids, { back: stored?.back ?? null });
    return ids[index] ?? ids[index - 1] ?? null;
  }

  #use(ids) {
    this.ids = ids;
    this.position = new Map(ids.map((id, index) => [id, index]));
    return this;
  }
}
