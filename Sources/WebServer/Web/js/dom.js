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

/**
 * Adds css/screens/NAME.css to the page once per name (a screen's own styles). The address is
 * made from this module's own, so the built-in files' /static/v-VERSION/ prefix (cached for
 * ever) carries through to the stylesheet.
 */
export function useStyles(...names) {
  for (const name of names) {
    if (loaded.has(name)) continue;
    loaded.add(name);
    document.head.append(h("link", { rel: "stylesheet", href: new URL(`../css/screens/${name}.css`, import.meta.url).pathname }));
  }
}

/**
 * Runs fn once the page is idle (after the frame being made: work that must not hold up a first
 * paint), or within `timeout` ms at most. Returns a function that cancels it.
 */
export function whenIdle(fn, timeout = 1000) {
  if (typeof requestIdleCallback === "function") {
    const handle = requestIdleCallback(() => fn(), { timeout });
    return () => cancelIdleCallback(handle);
  }
  const handle = setTimeout(fn, 50);
  return () => clearTimeout(handle);
}

/** Sets the document title as "PART — Shoebox" (a screen that learns its subject's name late). */
export function setTitle(part) {
  document.title = part ? `${part} — Shoebox` : "Shoebox";
}

// Dates are written day-month-year in English ("12 March 2021") whatever the browser's locale,
// so the names tests and screen readers meet are the same on every machine; the clock is the
// browser's own time zone.
const LOCALE = "en-GB";

const DAY = new Intl.DateTimeFormat(LOCALE, { day: "numeric", month: "long", year: "numeric" });
const MONTH = new Intl.DateTimeFormat(LOCALE, { month: "long", year: "numeric" });

// toLocaleDateString makes a new formatter at each call (~0.1 ms): the grid names every tile it
// builds and the library every month, so the formatters are made once.
function format(formatter, epoch) {
  return epoch === null || epoch === undefined ? "Date unknown" : formatter.format(epoch * 1000);
}

/** "12 March 2021" from seconds since the epoch; "Date unknown" for null. */
export function formatDate(epoch, options) {
  return options ? format(new Intl.DateTimeFormat(LOCALE, options), epoch) : format(DAY, epoch);
}

/** "March 2021" */
export function formatMonth(epoch) {
  return format(MONTH, epoch);
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
