// Previous and next in the grid's order: the order the library left in sessionStorage (same
// filters), or — when the viewer was opened directly, or the photo is not in it — the library's
// own order fetched again (newest first, as the grid shows it).
import { getJSON } from "../api.js";
import { groupByMonth, ID } from "../library/layout.js";
import { loadOrder, saveOrder } from "../library/order.js";

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
    let library = await getJSON(`/api/library${query ? `?${query}` : ""}`);
    let ids = groupByMonth(library.items).items.map((item) => item[ID]);
    if (!ids.includes(id) && query) {
      // Not under the stored filters (opened from elsewhere): the whole library's order.
      library = await getJSON("/api/library");
      ids = groupByMonth(library.items).items.map((item) => item[ID]);
      saveOrder("", ids);
    } else saveOrder(query, ids);
    return this.#use(ids);
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
    saveOrder(loadOrder()?.query ?? "", ids);
    return ids[index] ?? ids[index - 1] ?? null;
  }

  #use(ids) {
    this.ids = ids;
    this.position = new Map(ids.map((id, index) => [id, index]));
    return this;
  }
}
