// What a memory is of, as the page carries it: {kind: "year"|"place"|"person", value, label}.
// `value` is what the server is sent (`memories collage --year/--place/--person`), `label` what
// the page says. The view's address holds the source, the range and the seed, so a reload or a
// shared link shows the same collage.

export const RANGES = [
  { value: "all", label: "All time" },
  { value: "last-year", label: "Last year" },
  { value: "last-5-years", label: "Last 5 years" },
];

export function rangeLabel(value) {
  return (RANGES.find((r) => r.value === value) ?? RANGES[0]).label;
}

export function knownRange(value) {
  return RANGES.some((r) => r.value === value) ? value : "all";
}

/** "Lisbon, Portugal", "Portugal" or "Lisbon": a place as `memories sources` lists it. */
export function placeLabel(place) {
  return [place.city, place.country].filter(Boolean).join(", ");
}

/** "Ana", or "Unnamed (p3)" while the person has no name (the server lists their id as name). */
export function personLabel(person) {
  return person.name && person.name !== person.id ? person.name : `Unnamed (${person.id})`;
}

export function yearSource(year) {
  return { kind: "year", value: year.year, label: String(year.year) };
}

export function placeSource(place) {
  return { kind: "place", value: placeLabel(place), label: placeLabel(place) };
}

/**
 * A person as the server is asked for them: by name when no one else listed has that name (the
 * name reads well in a saved file's name, as `--person Ana` does), else by id, which is exact.
 */
export function personSource(person, everyone) {
  const named = person.name && person.name !== person.id;
  const unique = named && everyone.filter((p) => p.name === person.name).length === 1;
  return { kind: "person", value: unique ? person.name : person.id, label: personLabel(person), id: person.id };
}

/** The view an address shows: {view: "start"|"pick"|"collage", range, source?, seed?}. */
export function viewFromQuery(query) {
  const range = knownRange(query.get("range"));
  const seed = /^\d{1,20}$/.test(query.get("seed") ?? "") ? query.get("seed") : null;
  if (/^\d{1,4}$/.test(query.get("year") ?? "")) {
    const year = Number(query.get("year"));
    return { view: "collage", range, seed, source: { kind: "year", value: year, label: String(year) } };
  }
  for (const kind of ["place", "person"]) {
    const value = query.get(kind)?.trim();
    if (value) {
      const label = kind === "person" && /^p\d+$/.test(value) ? `Unnamed (${value})` : value;
      return { view: "collage", range, seed, source: { kind, value, label } };
    }
  }
  return { view: query.has("pick") ? "pick" : "start", range };
}

/** The address of a view (the inverse of viewFromQuery). */
export function queryFor(state) {
  const q = new URLSearchParams();
  if (state.view === "pick") q.set("pick", "");
  if (state.view === "collage") {
    q.set(state.source.kind, String(state.source.value));
    if (state.seed !== null && state.seed !== undefined) q.set("seed", String(state.seed));
  }
  if (state.view !== "start" && state.range && state.range !== "all") q.set("range", state.range);
  const text = q.toString().replace(/^pick=(&|$)/, "pick$1");
  return text ? `?${text}` : "";
}
