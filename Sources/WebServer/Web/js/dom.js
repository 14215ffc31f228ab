// Small DOM helpers shared by every screen. No framework: elements are built with h(),
// and a screen's stylesheet is added once with useStyles().

/**
 * Builds an element. attrs: plain attributes, except
 *   class (string), text (textContent), style (object, set through element.style: CSP forbids
 *   style attributes in markup but allows the CSSOM), dataset (object),
 *   on (object of event name → handler), and boolean false/null/undefined which are skipped.
 * children: nodes, strings, or arrays of them (null skipped).
 */
export function h(tag, attrs = {}, ...children) {
  const el = tag.includes(":")
    ? document.createElementNS("http://www.w3.org/2000/svg", tag.split(":")[1])
    : document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === false || value === null || value === undefined) continue;
    if (key === "class") el.setAttribute("class", value);
    else if (key === "text") el.textContent = value;
    else if (key === "style") Object.assign(el.style, value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "on") for (const [name, fn] of Object.entries(value)) el.addEventListener(name, fn);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : String(child));
  }
}

const loaded = new Set();

/** Adds /static/css/screens/NAME.css to the page once per name (a screen's own styles). */
export function useStyles(...names) {
  for (const name of names) {
    if (loaded.has(name)) continue;
    loaded.add(name);
    document.head.append(h("link", { rel: "stylesheet", href: `/static/css/screens/${name}.css` }));
  }
}

/** Sets the document title as "PART — Shoebox" (a screen that learns its subject's name late). */
export function setTitle(part) {
  document.title = part ? `${part} — Shoebox` : "Shoebox";
}

// Dates are written day-month-year in English ("12 March 2021") whatever the browser's locale,
// so the names tests and screen readers meet are the same on every machine; the clock is the
// browser's own time zone.
const LOCALE = "en-GB";

/** "12 March 2021" from seconds since the epoch; "Date unknown" for null. */
export function formatDate(epoch, options = { day: "numeric", month: "long", year: "numeric" }) {
  if (epoch === null || epoch === undefined) return "Date unknown";
  return new Date(epoch * 1000).toLocaleDateString(LOCALE, options);
}

/** "March 2021" */
export function formatMonth(epoch) {
  return formatDate(epoch, { month: "long", year: "numeric" });
}

/** "1.2 MB" */
export function formatBytes(bytes) {
  if (bytes === null || bytes === undefined) return "";
  const units = ["bytes", "KB", "MB", "GB", "TB"];
  let value = bytes, unit = 0;
  while (value >= 1000 && unit < units.length - 1) { value /= 1000; unit += 1; }
  return unit === 0 ? `${value} bytes` : `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** "3 photos" / "1 photo" */
export function plural(count, one, many = `${one}s`) {
  return `${count.toLocaleString()} ${count === 1 ? one : many}`;
}
