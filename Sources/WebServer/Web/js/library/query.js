// The library's filters as a URL query (?year=2021&kind=video): what the address bar keeps and
// what GET /api/library takes. No imports: app.js asks for the library with it before the
// screen's modules have loaded.

export const FILTER_KEYS = ["year", "place", "person", "kind"];

/** The filter part of a URL query, in a fixed order (so equal filters give equal strings). */
export function filterQuery(search = window.location.search) {
  const from = new URLSearchParams(search);
  const query = new URLSearchParams();
  for (const key of FILTER_KEYS) if (from.get(key)) query.set(key, from.get(key));
  return query;
}

/** GET /api/library's address for a filter query. */
export function libraryAPI(query) {
  const text = query.toString();
  return `/api/library${text ? `?${text}` : ""}`;
}
