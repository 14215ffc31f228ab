// /albums/KEY: one album's photos. A user album is a listbox that can be reordered (drag, or
// Alt+arrows and the "Move earlier/later" buttons), trimmed and deleted; every change of order
// sends the whole new order (POST /api/albums/KEY/order), so the server never has to merge
// partial moves. A generated album (a year, a place, a person, screenshots, videos) follows the
// library by itself and is shown read-only, as plain links.

import { getJSON, postJSON, toast, attempt } from '../api.js';
import { onLibraryChange, coalesce } from '../events.js';
import { confirmDialog } from '../dialog.js';
import { h, useStyles, setTitle, plural } from '../dom.js';
import { liveRegion, basename, thumbURL, changeDetector, albumPath, backLink } from './kit.js';
import { TileList } from './tile-list.js';
import { enableDragReorder } from './tile-drag.js';
import { saveOrder } from '../library/order.js';

const WHAT = {
  year: (a) => `Every photo taken in ${a.name}.`,
  place: (a) => `Every photo taken in ${a.name}.`,
  person: (a) => `Every photo ${a.name} is in.`,
  screenshots: () => 'Every screenshot in the library.',
  videos: () => 'Every video in the library.',
};

/** The album's key: what follows /albums/ in the address (a generated one's may hold slashes). */
function albumKey(params) {
  if (params?.key) return params.key;
  return decodeURIComponent(location.pathname.replace(/^\/albums\//, ''));
}

const entryKey = (entry) => entry.id ?? entry.path;

/**
 * The viewer's ← → step through the album in its order (js/library/order.js hands it over),
 * and its Back returns here.
 */
function rememberOrder(entries, key) {
  saveOrder('', entries.map((entry) => entry.id).filter(Boolean), { back: { href: `/albums/${albumPath(key)}`, label: 'Back to album' } });
}

export async function show(main, params) {
  useStyles('albums', 'tiles');
  const key = albumKey(params);
  const api = `/api/albums/${albumPath(key)}`;
  const announce = liveRegion(main);
  const header = h('div', { class: 'sb-album-header' });
  const body = h('div', { class: 'sb-album-body' });
  main.prepend(backLink('/albums', 'All albums'), header, body);

  let album = null;
  let pendingSaves = 0;
  let view = null; // the user album's controls, made once so focus and selection survive reloads
  const changed = changeDetector();

  async function load() {
    if (pendingSaves) return; // a reload would show the order from before the save
    const fresh = await attempt(() => getJSON(api));
    if (!fresh) {
      // The page still needs its heading; the toast has said why.
      if (!album) header.replaceChildren(h('h1', { text: 'This album could not be opened' }));
      return;
    }
    if (!changed(fresh)) return;
    album = fresh;
    setTitle(album.name);
    renderHeader();
    if (album.kind === 'user') (view ??= userAlbumView()).update(album.entries);
    else {
      // A redraw after a change keeps as many tiles as were drawn (the scroll stays put).
      const drawn = body.querySelectorAll('.sb-tiles-links > li').length;
      body.replaceChildren(readOnlyGrid(album, key, drawn));
    }
  }

  function renderHeader() {
    const userAlbum = album.kind === 'user';
    header.replaceChildren(
      h('h1', { text: album.name }),
      h('p', { class: 'sb-album-meta' },
        plural(album.count ?? album.entries.length, 'photo'),
        userAlbum ? ' · your album' : ` · made by Shoebox. ${WHAT[album.kind]?.(album) ?? ''}`),
      ...(userAlbum ? [] : [h('p', { class: 'sb-note', text: 'Shoebox keeps this album up to date from your library, so it cannot be reordered or edited here.' })]));
  }

  function save(order, words) {
    album.entries = order.map((k) => album.entries.find((e) => entryKey(e) === k));
    view.update(album.entries);
    announce(words);
    pendingSaves += 1;
    attempt(() => postJSON(`${api}/order`, { ids: order })).finally(() => {
      pendingSaves -= 1;
      if (!pendingSaves) load(); // the server's order is the truth once every save has landed
    });
  }

  function userAlbumView() {
    const status = h('p', { class: 'sb-selection-status', 'aria-live': 'polite' });
    const earlier = h('button', { type: 'button', class: 'button', text: 'Move earlier' });
    const later = h('button', { type: 'button', class: 'button', text: 'Move later' });
    const remove = h('button', { type: 'button', class: 'button', text: 'Remove from album' });
    const del = h('button', { type: 'button', class: 'button danger', text: 'Delete album' });
    const list = new TileList({
      label: 'Photos in this album',
      keyOf: entryKey,
      render: (entry) => h('img', {
        src: entry.id ? thumbURL(entry.id) : null, alt: basename(entry.path),
        loading: 'lazy', decoding: 'async', draggable: 'false',
      }),
      onOpen: (entry) => {
        if (!entry.id) return;
        rememberOrder(list.items, key);
        location.assign(`/asset/${encodeURIComponent(entry.id)}`);
      },
      onChange: (selected) => paintControls(selected),
      onMove: (delta) => move(delta),
    });
    const empty = h('p', { class: 'sb-empty', text: 'This album is empty. Add photos from the Library: select them and choose “Add to album”.' });
    const hint = h('p', { class: 'sb-hint', id: 'album-hint', text: 'Drag photos to reorder them, or select photos and press Alt+← or Alt+→. Enter or a click opens a photo.' });
    list.element.setAttribute('aria-describedby', 'album-hint');
    const toolbar = h('div', { class: 'sb-toolbar', role: 'group', 'aria-label': 'Album actions' },
      earlier, later, remove, status, h('span', { class: 'sb-toolbar-gap' }), del);
    body.replaceChildren(toolbar, hint, list.element, empty);
    // With nothing selected the buttons move the focused photo, so they follow the focus too.
    list.element.addEventListener('focusin', () => paintControls(list.selectedItems()));
    enableDragReorder(list, (order, keys) => save(order, `Moved ${plural(keys.length, 'photo')} to position ${order.indexOf(keys[0]) + 1} of ${order.length}.`));

    // aria-disabled (not disabled) keeps a button focusable after it stops applying, so focus
    // is not thrown back to the page's top when the first photo reaches the start.
    const setEnabled = (button, on) => button.setAttribute('aria-disabled', String(!on));
    const enabled = (button) => button.getAttribute('aria-disabled') !== 'true';
    function targets() {
      const selected = list.selectedItems();
      return selected.length ? selected : [list.focusedItem()].filter(Boolean);
    }
    function paintControls(selected) {
      const keys = new Set(targets().map(entryKey));
      const order = list.items.map(entryKey);
      setEnabled(earlier, canMove(order, keys, -1));
      setEnabled(later, canMove(order, keys, 1));
      setEnabled(remove, selected.length > 0);
      status.textContent = selected.length ? `${plural(selected.length, 'photo')} selected` : '';
    }
    function move(delta) {
      const keys = new Set(targets().map(entryKey));
      const order = list.items.map(entryKey);
      const moved = movedBy(order, keys, delta);
      if (!moved) {
        announce(delta < 0 ? 'Already at the start.' : 'Already at the end.');
        return;
      }
      const first = moved.findIndex((k) => keys.has(k));
      save(moved, `Moved ${plural(keys.size, 'photo')} to position ${first + 1} of ${moved.length}.`);
    }
    earlier.addEventListener('click', () => { if (enabled(earlier)) move(-1); });
    later.addEventListener('click', () => { if (enabled(later)) move(1); });
    remove.addEventListener('click', async () => {
      const ids = list.selectedItems().map(entryKey);
      if (!enabled(remove) || !ids.length) return;
      const result = await attempt(() => postJSON(`${api}/remove`, { ids }));
      if (!result) return;
      toast(`Removed ${plural(ids.length, 'photo')} from the album. The photos stay in your library.`);
      list.select([]);
      album = result;
      renderHeader();
      view.update(album.entries);
    });
    del.addEventListener('click', () => deleteAlbum());
    return {
      update(entries) {
        list.setItems(entries);
        list.element.hidden = !entries.length;
        hint.hidden = entries.length < 2;
        empty.hidden = entries.length > 0;
        for (const b of [earlier, later, remove]) b.hidden = !entries.length;
        paintControls(list.selectedItems());
      },
    };
  }

  async function deleteAlbum() {
    const sure = await confirmDialog({
      title: `Delete the album “${album.name}”?`,
      message: `The album goes; its ${plural(album.entries.length, 'photo')} stay in your library.`,
      confirm: 'Delete album',
      danger: true,
    });
    if (!sure) return;
    const done = await attempt(() => postJSON(`${api}/delete`, {}));
    if (done) location.assign('/albums');
  }

  await load();
  onLibraryChange(coalesce(load));
}

/** The order after moving every key in `keys` one place (−1 earlier, +1 later), or null when none can move. */
export function movedBy(order, keys, delta) {
  const next = [...order];
  let changed = false;
  const indices = [...next.keys()];
  if (delta > 0) indices.reverse();
  for (const i of indices) {
    const j = i + delta;
    // A tile moves past a neighbour that is not moving; a block of selected tiles moves together.
    if (keys.has(next[i]) && j >= 0 && j < next.length && !keys.has(next[j])) {
      [next[i], next[j]] = [next[j], next[i]];
      changed = true;
    }
  }
  return changed ? next : null;
}

function canMove(order, keys, delta) {
  return keys.size > 0 && movedBy(order, keys, delta) !== null;
}

// A generated album may hold thousands of photos (a year, a person): its tiles are drawn a
// screenful or so at a time, the next batch when the end of the list comes near.
const BATCH = 180;

/** A generated album: a plain list of links, since nothing in it can be selected or changed. */
function readOnlyGrid(album, key, atLeast = 0) {
  if (!album.entries.length) return h('p', { class: 'sb-empty', text: 'No photos in this album now.' });
  const list = h('ul', { class: 'sb-tiles sb-tiles-links', 'aria-label': 'Photos in this album', on: { click: () => rememberOrder(album.entries, key) } });
  const tile = (entry) => h('li', { class: 'sb-tile' },
    h('a', { href: entry.id ? `/asset/${encodeURIComponent(entry.id)}` : null },
      h('img', { src: entry.id ? thumbURL(entry.id) : null, alt: basename(entry.path), loading: 'lazy', decoding: 'async' })));
  let drawn = 0;
  const more = (count) => {
    list.append(...album.entries.slice(drawn, drawn + count).map(tile));
    drawn = Math.min(album.entries.length, drawn + count);
  };
  more(Math.max(BATCH, atLeast));
  if (drawn === album.entries.length) return list;
  const end = h('div', { class: 'sb-tiles-end', 'aria-hidden': 'true' });
  const watcher = new IntersectionObserver((entries) => {
    if (!entries.some((entry) => entry.isIntersecting)) return;
    more(BATCH);
    watcher.unobserve(end);
    if (drawn === album.entries.length) end.remove();
    else watcher.observe(end); // observed again: called again at once if the end is still near
  }, { rootMargin: '1200px 0px' });
  watcher.observe(end);
  return h('div', {}, list, end);
}
