// The library's filters — Year, Place, Person, Kind — as native selects filled from
// GET /api/facets. Their values live in the URL's query (?year=2021&kind=video) so a reload or
// a bookmark keeps them; the same query is what GET /api/library takes.
import { h } from "../dom.js";
import { getJSON } from "../api.js";
import { FILTER_KEYS, filterQuery } from "./query.js";

export { FILTER_KEYS, filterQuery };
const KIND_LABELS = { photo: "Photos", screenshot: "Screenshots", video: "Videos" };

export class LibraryFilters {
  /**
   * onChange(query: URLSearchParams) after the person changes a filter. syncURL: the filters live
   * in the address bar (the library's own); false for a picker on another page, which starts
   * unfiltered and leaves its URL alone.
   */
  constructor({ onChange, syncURL = true }) {
    this.onChange = onChange;
    this.syncURL = syncURL;
    this.selects = {};
    const labels = { year: "Year", place: "Place", person: "Person", kind: "Kind" };
    this.element = h("div", { class: "filters", role: "group", "aria-label": "Filters" },
      FILTER_KEYS.map((key) => {
        const id = `filter-${key}`;
        this.selects[key] = h("select", { id, name: key, on: { change: () => this.#changed() } });
        return h("label", { class: "field", for: id }, h("span", { text: labels[key] }), this.selects[key]);
      }));
    this.clear = h("button", { type: "button", class: "button", text: "Clear filters", hidden: true, on: { click: () => this.reset() } });
    this.element.append(this.clear);
  }

  /** Fills the selects from the facets, keeping the URL's choices (even one with no items now). */
  async load() {
    const facets = await getJSON("/api/facets");
    const query = this.syncURL ? filterQuery() : new URLSearchParams();
    const options = {
      year: [["", "All years"], ...facets.years.slice().sort((a, b) => b.year - a.year).map((y) => [String(y.year), `${y.year} (${y.count.toLocaleString()})`])],
      place: [["", "All places"], ...facets.places.map((p) => [p.name, `${p.name} (${p.count.toLocaleString()})`])],
      // The server filters people by name (as `list --person` does); one without a name by id.
      person: [["", "Everyone"], ...facets.people.map((p) => [p.name || p.id, `${p.name || "Unnamed person"} (${p.count.toLocaleString()})`])],
      kind: [["", "All kinds"], ...facets.kinds.map((k) => [k.kind, `${KIND_LABELS[k.kind] ?? k.kind} (${k.count.toLocaleString()})`])],
    };
    for (const key of FILTER_KEYS) {
      const chosen = query.get(key) ?? "";
      if (chosen && !options[key].some(([value]) => value === chosen)) options[key].push([chosen, chosen]);
      this.selects[key].replaceChildren(...options[key].map(([value, label]) => h("option", { value, text: label })));
      this.selects[key].value = chosen;
    }
    this.#showClear();
  }

  /** The query the selects now say. */
  query() {
    const query = new URLSearchParams();
    for (const key of FILTER_KEYS) if (this.selects[key].value) query.set(key, this.selects[key].value);
    return query;
  }

  reset() {
    for (const key of FILTER_KEYS) this.selects[key].value = "";
    this.#changed();
    this.selects.year.focus();
  }

  #changed() {
    const query = this.query();
    const text = query.toString();
    if (this.syncURL) history.replaceState(history.state, "", text ? `/?${text}` : "/");
    this.#showClear();
    this.onChange(query);
  }

  #showClear() { this.clear.hidden = this.query().toString() === ""; }
}
