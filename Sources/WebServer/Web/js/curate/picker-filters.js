// The picker's filters — Year, Place, Person, Kind — as the library's (GET /api/facets), kept
// in the picker rather than the address bar: the page stays /curate.
import { h } from "../dom.js";
import { getJSON } from "../api.js";
import { FILTER_KEYS } from "../library/query.js";

const LABELS = { year: "Year", place: "Place", person: "Person", kind: "Kind" };
const KIND_LABELS = { photo: "Photos", screenshot: "Screenshots", video: "Videos" };

export class PickerFilters {
  /** onChange(query: URLSearchParams) after the person changes a filter. */
  constructor({ onChange }) {
    this.onChange = onChange;
    this.selects = {};
    this.element = h("div", { class: "filters", role: "group", "aria-label": "Filters" },
      FILTER_KEYS.map((key) => {
        const id = `pick-filter-${key}`;
        this.selects[key] = h("select", { id, name: key, on: { change: () => this.#changed() } },
          h("option", { value: "", text: "All" }));
        return h("label", { class: "field", for: id }, h("span", { text: LABELS[key] }), this.selects[key]);
      }));
    this.clear = h("button", { type: "button", class: "button", text: "Clear filters", hidden: true, on: { click: () => this.reset() } });
    this.element.append(this.clear);
  }

  /** Fills the selects from the facets, keeping what is chosen. */
  async load() {
    const facets = await getJSON("/api/facets");
    const options = {
      year: [["", "All years"], ...facets.years.slice().sort((a, b) => b.year - a.year).map((y) => [String(y.year), `${y.year} (${y.count.toLocaleString()})`])],
      place: [["", "All places"], ...facets.places.map((p) => [p.name, `${p.name} (${p.count.toLocaleString()})`])],
      person: [["", "Everyone"], ...facets.people.map((p) => [p.name || p.id, `${p.name || "Unnamed person"} (${p.count.toLocaleString()})`])],
      kind: [["", "All kinds"], ...facets.kinds.map((k) => [k.kind, `${KIND_LABELS[k.kind] ?? k.kind} (${k.count.toLocaleString()})`])],
    };
    for (const key of FILTER_KEYS) {
      const chosen = this.selects[key].value;
      this.selects[key].replaceChildren(...options[key].map(([value, label]) => h("option", { value, text: label })));
      this.selects[key].value = options[key].some(([value]) => value === chosen) ? chosen : "";
    }
    this.#showClear();
  }

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
    this.#showClear();
    this.onChange(this.query());
  }

  #showClear() { this.clear.hidden = this.query().toString() === ""; }
}
