// Addresses of an asset's pictures (web-api.md "Media"). `sha8`, the first 8 hex digits of the
// file's sha256, versions the URL: with it the server lets the browser keep the answer for ever.
// No imports: app.js uses these before the screens' modules have loaded.

const version = (sha8) => (sha8 ? `v=${encodeURIComponent(sha8)}` : "");

/** A thumbnail: 256 px long side for grids, 1024 for a quick look. */
export function thumbURL(id, sha8, size = 256) {
  return `/media/thumb/${encodeURIComponent(id)}?size=${size}${sha8 ? `&${version(sha8)}` : ""}`;
}

/** What the viewer shows full size (the original JPEG/PNG, a JPEG made from HEIC/RAW, a video's poster). */
export function previewURL(id, sha8) {
  return `/media/preview/${encodeURIComponent(id)}${sha8 ? `?${version(sha8)}` : ""}`;
}

/** The original's bytes; `download` asks the browser to save it under its name. */
export function originalURL(id, download = false) {
  return `/media/original/${encodeURIComponent(id)}${download ? "?download=1" : ""}`;
}
