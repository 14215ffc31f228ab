// Shoebox's own icons: simple 24×24 line drawings in currentColor, drawn for Shoebox.
// Each is a function returning a fresh <svg aria-hidden="true">: the control that holds an
// icon carries the name (its text or aria-label), the icon is decoration.

const SVG = "http://www.w3.org/2000/svg";

// Each drawing: a list of [element, attributes]. Strokes only, round caps, so the set looks
// like one pen drew it.
const DRAWINGS = {
  trash: [["path", { d: "M4 7h16M9 7V4.5h6V7M6.5 7l1 13h9l1-13M10 11v5.5M14 11v5.5" }]],
  restore: [["path", { d: "M8 8H4V4" }], ["path", { d: "M4.5 8A8 8 0 1 1 4 13" }]],
  album: [["rect", { x: 4, y: 3.5, width: 15, height: 17, rx: 1.5 }], ["path", { d: "M8 3.5v17M11 8h5M11 11h3.5" }]],
  plus: [["path", { d: "M12 5v14M5 12h14" }]],
  close: [["path", { d: "M6 6l12 12M18 6L6 18" }]],
  check: [["path", { d: "M5 12.5l4.5 4.5L19 7.5" }]],
  chevronLeft: [["path", { d: "M15 5l-7 7 7 7" }]],
  chevronRight: [["path", { d: "M9 5l7 7-7 7" }]],
  arrowLeft: [["path", { d: "M19 12H5M11 6l-6 6 6 6" }]],
  arrowUp: [["path", { d: "M12 19V5M6 11l6-6 6 6" }]],
  arrowDown: [["path", { d: "M12 5v14M6 13l6 6 6-6" }]],
  share: [["path", { d: "M12 15V4M8 7.5l4-4 4 4" }], ["path", { d: "M8.5 10.5H6v9.5h12v-9.5h-2.5" }]],
  swap: [["path", { d: "M5 8.5h13M14.5 5l3.5 3.5-3.5 3.5M19 15.5H6M9.5 12L6 15.5 9.5 19" }]],
  zoomIn: [["circle", { cx: 10.5, cy: 10.5, r: 6.5 }], ["path", { d: "M15.5 15.5L20 20M10.5 7.5v6M7.5 10.5h6" }]],
  zoomOut: [["circle", { cx: 10.5, cy: 10.5, r: 6.5 }], ["path", { d: "M15.5 15.5L20 20M7.5 10.5h6" }]],
  download: [["path", { d: "M12 4v11M7 10.5l5 5 5-5M5 19.5h14" }]],
  upload: [["path", { d: "M12 16V5M7 9.5l5-5 5 5M5 19.5h14" }]],
  info: [["circle", { cx: 12, cy: 12, r: 8.5 }], ["path", { d: "M12 11v5.5M12 7.8v.1" }]],
  alert: [["path", { d: "M12 3.5l9 16H3z" }], ["path", { d: "M12 10v4.5M12 17.2v.1" }]],
  play: [["path", { d: "M8 5.5v13l10.5-6.5z" }]],
  live: [["circle", { cx: 12, cy: 12, r: 2.5 }], ["circle", { cx: 12, cy: 12, r: 5.5 }], ["circle", { cx: 12, cy: 12, r: 8.5, "stroke-dasharray": "1.5 2.2" }]],
  person: [["circle", { cx: 12, cy: 8.5, r: 3.5 }], ["path", { d: "M5 20c.8-3.8 3.6-6 7-6s6.2 2.2 7 6" }]],
  people: [["circle", { cx: 9, cy: 9, r: 3 }], ["path", { d: "M3.5 19c.6-3.2 2.8-5 5.5-5s4.9 1.8 5.5 5" }], ["circle", { cx: 16.5, cy: 8, r: 2.5 }], ["path", { d: "M16 12.5c2.4 0 4 1.5 4.5 4.5" }]],
  photo: [["rect", { x: 3.5, y: 5, width: 17, height: 14, rx: 1.5 }], ["circle", { cx: 9, cy: 10, r: 1.6 }], ["path", { d: "M4 17l5-4.5 3.5 3 3-2.5 4.5 4" }]],
  video: [["rect", { x: 3.5, y: 6, width: 12, height: 12, rx: 1.5 }], ["path", { d: "M15.5 10.5l5-3v9l-5-3" }]],
  screenshot: [["rect", { x: 6.5, y: 3, width: 11, height: 18, rx: 2 }], ["path", { d: "M10.5 5.5h3" }]],
  star: [["path", { d: "M12 4l2.4 5 5.4.6-4 3.7 1.1 5.4L12 16l-4.9 2.7 1.1-5.4-4-3.7 5.4-.6z" }]],
  compose: [["rect", { x: 3.5, y: 4, width: 17, height: 16, rx: 1.5 }], ["path", { d: "M12 4v16M12 12h8.5" }]],
  calendar: [["rect", { x: 4, y: 5.5, width: 16, height: 14.5, rx: 1.5 }], ["path", { d: "M4 10h16M8.5 3.5v4M15.5 3.5v4" }]],
  place: [["path", { d: "M12 21s-6.5-6-6.5-11a6.5 6.5 0 0 1 13 0c0 5-6.5 11-6.5 11z" }], ["circle", { cx: 12, cy: 10, r: 2.3 }]],
  camera: [["path", { d: "M4 8.5h3.5L9 6h6l1.5 2.5H20V18H4z" }], ["circle", { cx: 12, cy: 13, r: 3.2 }]],
  size: [["path", { d: "M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5" }]],
  heart: [["path", { d: "M12 19.5s-7.5-4.6-7.5-10A4.2 4.2 0 0 1 12 7a4.2 4.2 0 0 1 7.5 2.5c0 5.4-7.5 10-7.5 10z" }]],
  grip: [["path", { d: "M9 6v.1M15 6v.1M9 12v.1M15 12v.1M9 18v.1M15 18v.1" }]],
  merge: [["path", { d: "M6 4v4c0 3 6 4 6 8v4M18 4v4c0 3-6 4-6 8" }]],
  pencil: [["path", { d: "M5 19l1-4.5L16 4.5l3.5 3.5-10 10z" }], ["path", { d: "M13.5 7l3.5 3.5" }]],
  more: [["path", { d: "M6 12v.1M12 12v.1M18 12v.1" }]],
  shoebox: [["path", { d: "M3.5 9.5h17V19a1 1 0 0 1-1 1h-15a1 1 0 0 1-1-1z" }], ["path", { d: "M2.5 6.5h19v3h-19zM10 13h4" }]],
  score: [["path", { d: "M4 19.5h16M6.5 19.5V13M11 19.5V8.5M15.5 19.5v-7M20 19.5V5" }]],
  clock: [["circle", { cx: 12, cy: 12, r: 8.5 }], ["path", { d: "M12 7.5V12l3 2" }]],
  tidy: [["path", { d: "M6 20l3-9h6l3 9zM12 11V3.5" }]],
  memories: [["rect", { x: 3.5, y: 7, width: 13, height: 13, rx: 1 }], ["path", { d: "M7.5 7V4h13v13h-4" }]],
  tracker: [["path", { d: "M4 18l5-6 4 3 7-9" }], ["path", { d: "M15 6h5v5" }]],
};

/** An <svg> icon by name (see DRAWINGS); throws on an unknown name so a typo shows at once. */
export function icon(name, { className = "icon" } = {}) {
  const drawing = DRAWINGS[name];
  if (!drawing) throw new Error(`no icon named ${name}`);
  const svg = document.createElementNS(SVG, "svg");
  for (const [key, value] of Object.entries({
    viewBox: "0 0 24 24", width: 24, height: 24, fill: "none", stroke: "currentColor",
    "stroke-width": 1.6, "stroke-linecap": "round", "stroke-linejoin": "round",
    "aria-hidden": "true", focusable: "false", class: className,
  })) svg.setAttribute(key, String(value));
  for (const [tag, attributes] of drawing) {
    const part = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attributes)) part.setAttribute(key, String(value));
    svg.append(part);
  }
  return svg;
}

/** The names icon() knows. */
export const ICON_NAMES = Object.freeze(Object.keys(DRAWINGS));
