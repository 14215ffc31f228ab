// Memories' own icons, drawn like js/icons.js's (24×24, one stroke, currentColor, hidden from
// screen readers: the button holding one carries the name).
const SVG = "http://www.w3.org/2000/svg";

const DRAWINGS = {
  shuffle: [["path", { d: "M4 7h3.5c4.5 0 5.5 10 10 10H20M4 17h3.5c1.7 0 2.9-1.4 3.9-3.2M13 10.2C14 8.4 15.3 7 17.5 7H20" }],
    ["path", { d: "M17.5 4.5L20 7l-2.5 2.5M17.5 14.5L20 17l-2.5 2.5" }]],
  share: [["path", { d: "M12 14.5V4M8 7.5l4-4 4 4" }], ["path", { d: "M8.5 10.5H6v9.5h12v-9.5h-2.5" }]],
  undo: [["path", { d: "M8.5 8H15a5 5 0 0 1 0 10h-5" }], ["path", { d: "M11 4.5L7.5 8l3.5 3.5" }]],
  save: [["path", { d: "M5 4.5h11l3 3v12H5z" }], ["path", { d: "M8.5 4.5v4.5h6V4.5M8 19.5v-5h8v5" }]],
  sparkle: [["path", { d: "M12 3.5l1.8 5.2 5.2 1.8-5.2 1.8L12 17.5l-1.8-5.2L5 10.5l5.2-1.8z" }], ["path", { d: "M18.5 16v4M16.5 18h4" }]],
};

export function memoriesIcon(name) {
  const svg = document.createElementNS(SVG, "svg");
  for (const [key, value] of Object.entries({
    viewBox: "0 0 24 24", width: 24, height: 24, fill: "none", stroke: "currentColor", "stroke-width": 1.6,
    "stroke-linecap": "round", "stroke-linejoin": "round", "aria-hidden": "true", focusable: "false", class: "icon",
  })) svg.setAttribute(key, String(value));
  for (const [tag, attributes] of DRAWINGS[name]) {
    const part = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attributes)) part.setAttribute(key, String(value));
    svg.append(part);
  }
  return svg;
}
