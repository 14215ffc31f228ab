// "Create Memory"'s picker (brief 003): the date range presets, then People (a face and a count
// for everyone with at least 10 photos), Years and Places, each with its count, from
// `memories sources --json`. Each section says what is missing when it is empty.
import { h, plural } from "../dom.js";
import { attempt } from "../api.js";
import { onLibraryChange, coalesce } from "../events.js";
import { changeDetector } from "../screens/kit.js";
import { faceCrop } from "../screens/face-crop.js";
import { loadSources } from "./api.js";
import { RANGES, rangeLabel, personLabel, placeLabel, personSource, yearSource, placeSource } from "./source.js";

const PHRASE = { all: "", "last-year": " in the last year", "last-5-years": " in the last 5 years" };

/**
 * Fills CONTAINER with the picker for RANGE. onRange(range) when a preset is chosen (the counts
 * are then reloaded here), onPick(source) when a person, year or place is. FOCUS: the source to
 * give the keyboard to once shown ({kind, value}), else the heading.
 */
export async function showPicker(container, { range, onRange, onPick, focus }) {
  let current = range;
  const heading = h("h1", { id: "memories-picker-title", tabindex: "-1", text: "Create Memory" });
  const lists = h("div", { class: "mem-sources", "aria-busy": "true" });
  const radios = RANGES.map((r) => {
    const input = h("input", { type: "radio", name: "memories-range", value: r.value, checked: r.value === current });
    input.addEventListener("change", () => { if (input.checked) choose(r.value); });
    return h("label", { class: "mem-range-option" }, input, h("span", { text: r.label }));
  });
  const ranges = h("fieldset", { class: "mem-range" }, h("legend", { text: "Date range" }), radios);
  container.replaceChildren(h("section", { class: "mem-picker", "aria-labelledby": heading.id },
    h("div", { class: "mem-head" }, heading,
      h("p", { class: "mem-lede", text: "A collage of the best photos of a person, a year or a place. Nothing is saved until you tap Save." })),
    ranges, lists));

  async function choose(value) {
    current = value;
    onRange?.(value);
    await load();
  }

  let loads = 0;
  const changed = changeDetector();
  async function load() {
    const ticket = ++loads;
    lists.setAttribute("aria-busy", "true");
    if (!lists.firstChild) lists.append(h("p", { class: "loading", text: "Counting the photos…" }));
    const sources = await attempt(() => loadSources(current), "The picker could not be loaded");
    if (ticket !== loads) return;
    lists.setAttribute("aria-busy", "false");
    if (!sources) {
      lists.replaceChildren(h("p", { class: "sb-empty", text: "The sources could not be counted: try again in a moment." }));
      return;
    }
    if (!changed(sources)) return; // a library event that changed nothing here: keep focus and pictures
    const focused = document.activeElement?.closest?.(".mem-sources button");
    lists.replaceChildren(...sections(sources));
    if (focused) lists.querySelector(`button[data-kind="${focused.dataset.kind}"][data-value="${CSS.escape(focused.dataset.value)}"]`)?.focus();
  }

  // Counts follow the library (a person named or merged in People, photos added) while open.
  const stop = onLibraryChange(coalesce(() => (document.contains(lists) ? load() : stop())));

  function sections(sources) {
    const phrase = PHRASE[current] ?? "";
    if (!sources.years.length && !sources.places.length && !sources.people.length) {
      return [h("div", { class: "empty card mem-nothing" },
        h("h2", { text: current === "all" ? "No photos to make a memory of yet" : `No photos${phrase}` }),
        h("p", {}, current === "all"
          ? ["Add photos in the ", h("a", { href: "/", text: "Library" }), "; their years, places and people appear here."]
          : `Nothing was taken${phrase}: choose All time for every photo.`))];
    }
    return [
      section("People", "people", sources.people.map((p) => personButton(p, sources.people)),
        [current === "all" ? "No people with 10 photos yet — name faces in " : `No people with 10 photos${phrase} — choose All time, or name faces in `,
          h("a", { href: "/people", text: "People" }), "."], "mem-people-list"),
      section("Years", "years", sources.years.map((y) => chip(yearSource(y), String(y.year), y.count)),
        [`No photos with a capture date${phrase}.`]),
      section("Places", "places", sources.places.map((p) => chip(placeSource(p), placeLabel(p), p.count)),
        [`No places: no photo${phrase} has a location.`]),
    ];
  }

  function section(title, key, items, empty, listClass = "mem-chips") {
    const id = `memories-${key}-title`;
    return h("section", { class: `mem-section mem-${key}`, "aria-labelledby": id },
      h("h2", { id, text: title }),
      items.length ? h("ul", { class: listClass, "aria-labelledby": id }, items.map((item) => h("li", {}, item)))
        : h("p", { class: "mem-empty" }, empty));
  }

  function personButton(person, everyone) {
    const source = personSource(person, everyone);
    return pickButton(source, "mem-person", person.count,
      faceCrop(person.face, ""),
      h("span", { class: "mem-person-name", text: personLabel(person) }),
      h("span", { class: "mem-count", text: plural(person.count, "photo") }));
  }

  function chip(source, label, count) {
    return pickButton(source, "mem-chip", count,
      h("span", { class: "mem-chip-label", text: label }),
      h("span", { class: "mem-count", text: plural(count, "photo") }));
  }

  /** A source's button, named "Ana, 18 photos" (its parts are laid out apart, so named whole). */
  function pickButton(source, className, count, ...children) {
    return h("button", {
      type: "button", class: className, dataset: { kind: source.kind, value: String(source.value) },
      "aria-label": `${source.label}, ${plural(count, "photo")}`, on: { click: () => onPick(source) },
    }, children);
  }

  await load();
  const again = focus && lists.querySelector(`button[data-kind="${focus.kind}"][data-value="${CSS.escape(String(focus.value))}"]`);
  (again ?? heading).focus({ preventScroll: !again });
  return { range: () => current, label: () => rangeLabel(current) };
}
