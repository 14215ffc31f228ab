// Helpers shared by the albums, people and trash screens (js/dom.js has the general ones):
// a polite live region, path pieces and thumbnail addresses.

import { h } from '../dom.js';
import { icon } from '../icons.js';

/** A visually hidden live region inside `main`: what a keyboard move or a restore did, for screen readers. */
export function liveRegion(main) {
  const region = h('p', { class: 'visually-hidden', 'aria-live': 'polite' });
  main.append(region);
  // Clearing first makes the same sentence twice in a row be read twice.
  return (text) => { region.textContent = ''; setTimeout(() => { region.textContent = text; }, 30); };
}

/** The last component of a library path. */
export function basename(path) {
  const parts = String(path ?? '').split('/');
  return parts[parts.length - 1] || String(path ?? '');
}

/** The folder part of a library path ("" at the top). */
export function dirname(path) {
  return String(path ?? '').split('/').slice(0, -1).join('/');
}

/** A thumbnail's URL (256 or 1024 px long side); `sha8` makes it cacheable for good when known. */
export { thumbURL } from '../media.js';

/**
 * A test for "did this screen's data change?": library events come for every change anywhere,
 * and redrawing unchanged tiles would drop focus, selection drafts and loaded thumbnails.
 */
export function changeDetector() {
  let last = null;
  return (data) => {
    const text = JSON.stringify(data);
    if (text === last) return false;
    last = text;
    return true;
  };
}

/**
 * An album key as a URL path: each segment encoded, the slashes kept, so a generated album reads
 * /albums/Years/2024 (app.js joins the segments back; the server decodes each).
 */
export function albumPath(key) {
  return String(key).split('/').map(encodeURIComponent).join('/');
}

/** "← All albums": a back link whose arrow is a hidden icon, so its name is just the words. */
export function backLink(href, words) {
  return h('p', { class: 'sb-back' }, h('a', { href }, icon('arrowLeft'), words));
}
