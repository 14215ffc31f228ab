// The viewer's side panel, a region named "Details": when and where, the camera, the file, the
// people (hovering or focusing a name draws that face's box on the picture), and the score with
// its explanation in words.
import { h, formatBytes } from "../dom.js";
import { icon } from "../icons.js";
import { formatDuration } from "../library/tiles.js";

const FORMAT_NAMES = { jpeg: "JPEG", png: "PNG", heic: "HEIC", mp4: "MP4", mov: "QuickTime movie", raw: "RAW" };

/**
 * "Friday 28 April 2017, 10:06" as the photo's own clock said it: the wall time in taken_at
 * (its stated UTC offset kept), not converted to the viewer's time zone.
 */
export function formatTakenAt(takenAt) {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(takenAt ?? "");
  if (!match) return "Date unknown";
  const [, y, mo, d, hh, mm] = match.map(Number);
  const wall = new Date(Date.UTC(y, mo - 1, d, hh, mm));
  return wall.toLocaleString("en-GB", {
    weekday: "long", day: "numeric", month: "long", year: "numeric", hour: "2-digit", minute: "2-digit", timeZone: "UTC",
  });
}

/** Just the day, for headings and names: "28 April 2017". */
export function formatTakenDay(takenAt) {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(takenAt ?? "");
  if (!match) return "Date unknown";
  const [, y, mo, d] = match.map(Number);
  return new Date(Date.UTC(y, mo - 1, d)).toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
}

function row(iconName, term, ...value) {
  return [h("dt", {}, icon(iconName), h("span", { text: term })), h("dd", {}, value)];
}

/**
 * The Details region for an asset. faces: the FaceBoxes that draw boxes on the picture
 * (show(index) / hide()).
 */
export function detailsPanel(asset, faces) {
  const place = asset.place ? [asset.place.city, asset.place.country].filter(Boolean).join(", ") : null;
  const camera = [asset.make, asset.model].filter(Boolean).join(" ");
  const format = asset.format === "raw" && asset.raw_type ? `RAW (${asset.raw_type.toUpperCase()})` : FORMAT_NAMES[asset.format] ?? asset.format;
  const list = h("dl", { class: "details-list" },
    row("calendar", "Date", formatTakenAt(asset.taken_at)),
    row("place", "Place", place ?? "Unknown",
      asset.gps ? h("span", { class: "subtle", text: ` (${asset.gps.lat.toFixed(4)}, ${asset.gps.lon.toFixed(4)})` }) : null),
    row("camera", "Camera", camera || "Unknown"),
    row("size", "Size", `${asset.width.toLocaleString()} × ${asset.height.toLocaleString()} pixels · ${formatBytes(asset.size)} · ${format}`),
    asset.duration ? row("clock", "Length", formatDuration(asset.duration)) : null,
    row("photo", "File", h("span", { class: "path", text: asset.path })),
  );
  return h("section", { class: "details", "aria-labelledby": "details-heading" },
    h("h2", { id: "details-heading", text: "Details" }),
    list,
    peopleSection(asset, faces),
    scoreSection(asset),
    asset.keywords?.length ? h("div", { class: "details-block" },
      h("h3", { text: "Keywords" }),
      h("ul", { class: "chips" }, asset.keywords.map((keyword) => h("li", { text: keyword })))) : null,
  );
}

function peopleSection(asset, faces) {
  const entries = [];
  (asset.faces ?? []).forEach((face, index) => {
    const name = face.name ?? "Unnamed person";
    const events = { mouseenter: () => faces.show(index), mouseleave: () => faces.hide(), focus: () => faces.show(index), blur: () => faces.hide() };
    const label = face.person
      ? h("a", { href: `/people/${encodeURIComponent(face.person)}`, on: events }, icon("person"), name)
      // A face the file names but Shoebox has no person for: focusable so its box can be shown from the keyboard.
      : h("span", { class: "person-static", tabindex: "0", on: events }, icon("person"), name);
    entries.push(h("li", {}, label));
  });
  // People the file names without a face region (XMP PersonInImage).
  const boxed = new Set((asset.faces ?? []).map((face) => face.name).filter(Boolean));
  for (const name of asset.persons ?? []) {
    if (!boxed.has(name)) entries.push(h("li", {}, h("span", { class: "person-static" }, icon("person"), name)));
  }
  return h("div", { class: "details-block" },
    h("h3", { text: "People" }),
    entries.length ? h("ul", { class: "people-list" }, entries) : h("p", { class: "subtle", text: "No one recognised." }));
}

function scoreSection(asset) {
  if (asset.score === null || asset.score === undefined) {
    return h("div", { class: "details-block" }, h("h3", { text: "Score" }), h("p", { class: "subtle", text: "Not analysed yet." }));
  }
  const words = asset.score_detail?.words;
  const text = Array.isArray(words) ? words : words ? [String(words)] : [];
  return h("div", { class: "details-block" },
    h("h3", { text: "Score" }),
    h("p", { class: "score-line" },
      h("span", { class: "score-value", text: asset.score.toFixed(2) }),
      h("meter", { min: "-1", max: "1", low: "-0.5", high: "0.5", optimum: "1", value: String(asset.score), "aria-label": `Score ${asset.score.toFixed(2)} on a scale from −1 to 1` })),
    text.length ? h("ul", { class: "score-words" }, text.map((word) => h("li", { text: word }))) : null,
    asset.is_utility ? h("p", { class: "subtle", text: "A utility image (screenshot, document or code): ranked below every photo." }) : null,
  );
}
