// Small helpers shared by the albums, people and trash screens: building elements without
// innerHTML (names and paths come from the library and are never parsed as markup), loading a
// screen's stylesheet, a polite live region, and the words for counts.

/** Makes an element: `props` are attributes, except `class`, `text`, `dataset` and `on*` listeners. */
export function h(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value == null || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key === 'text') node.textContent = value;
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  node.append(...children.flat().filter((c) => c != null && c !== false));
  return node;
}

/** Adds `/static/css/screens/NAME.css` to the document once (CSP allows same-origin sheets). */
export function useStyles(...names) {
  for (const name of names) {
    const href = `/static/css/screens/${name}.css`;
    if (document.head.querySelector(`link[href="${href}"]`)) continue;
    document.head.append(h('link', { rel: 'stylesheet', href }));
  }
}

/** A visually hidden live region inside `main`: what a keyboard move or a restore did, for screen readers. */
export function liveRegion(main) {
  const region = h('p', { class: 'visually-hidden sb-live', 'aria-live': 'polite', role: 'status' });
  main.append(region);
  // Clearing first makes the same sentence twice in a row be read twice.
  return (text) => { region.textContent = ''; setTimeout(() => { region.textContent = text; }, 30); };
}

/** "1 photo", "3 photos". */
export function count(n, one, many = `${one}s`) {
  return `${n.toLocaleString()} ${n === 1 ? one : many}`;
}

/** The last component of a library path. */
export function basename(path) {
  const parts = String(path ?? '').split('/');
  return parts[parts.length - 1] || String(path ?? '');
}

/** The folder part of a library path ("" at the top). */
export function dirname(path) {
  const parts = String(path ?? '').split('/');
  return parts.slice(0, -1).join('/');
}

/** A 256-px thumbnail's URL; `sha8` makes it cacheable for good when known. */
export function thumbURL(id, sha8) {
  const v = sha8 ? `&v=${encodeURIComponent(sha8)}` : '';
  return `/media/thumb/${encodeURIComponent(id)}?size=256${v}`;
}

/** The server's one-line error, whatever shape the rejection has. */
export function errorLine(error) {
  return error?.message || String(error);
}

/** Runs `task` and shows its failure as a toast instead of leaving the page half-updated. */
export async function guarded(toast, task) {
  try {
    return await task();
  } catch (error) {
    toast(errorLine(error), { error: true });
    return undefined;
  }
}
