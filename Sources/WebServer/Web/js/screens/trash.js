// /trash: Recently Deleted. Each item waits its days and can be put back: assets by id, files
// Shoebox never indexed (another tool's) by their name in Recently Deleted/files/. An item
// whose origin is unknown (its .trashinfo is unreadable, missing or points outside the
// library) shows why and cannot be selected, as `restore` would refuse it.

import { getJSON, postJSON, toast, attempt } from '../api.js';
import { onLibraryChange, coalesce } from '../events.js';
import { h, useStyles, plural, formatBytes } from '../dom.js';
import { liveRegion, basename, dirname, thumbURL, changeDetector } from './kit.js';
import { TileList } from './tile-list.js';

const EMPTY = 'Recently Deleted is empty. Deleted photos wait here 30 days.';

function daysLeft(days) {
  if (days == null) return '';
  if (days <= 0) return 'Deleted for good within a day';
  return `${plural(days, 'day')} left`;
}

function tile(item) {
  const path = item.original_path ?? item.name;
  const folder = item.original_path ? dirname(item.original_path) : null;
  const picture = item.id
    ? h('img', { src: thumbURL(item.id), alt: '', loading: 'lazy', decoding: 'async', draggable: 'false' })
    : h('span', { class: 'sb-tile-file', 'aria-hidden': 'true' });
  // The option's accessible name is this text: file, where it was, days left, any problem.
  return [
    picture,
    h('span', { class: 'sb-tile-caption' },
      h('span', { class: 'sb-tile-name', text: basename(path) }),
      h('span', { class: 'sb-tile-path', text: folder === null ? 'origin unknown' : `from ${folder || 'the library’s top folder'}` }),
      h('span', { class: 'sb-tile-days', text: daysLeft(item.days_left) }),
      item.problem ? h('span', { class: 'sb-tile-problem', text: `Cannot be restored: ${item.problem}` }) : null),
  ];
}

export async function show(main) {
  useStyles('albums', 'tiles', 'trash');
  const announce = liveRegion(main);
  const restore = h('button', { type: 'button', class: 'button primary', text: 'Restore', 'aria-disabled': 'true' });
  const all = h('button', { type: 'button', class: 'button', text: 'Select all' });
  const status = h('p', { class: 'sb-selection-status', 'aria-live': 'polite' });
  const summary = h('p', { class: 'sb-album-meta' });
  const empty = h('p', { class: 'sb-empty', text: EMPTY, hidden: true, tabindex: '-1' });
  const hint = h('p', { class: 'sb-hint', id: 'trash-hint', text: 'Select photos (click, Space, Shift+arrows) and choose Restore to put them back where they were.' });
  const list = new TileList({
    label: 'Recently Deleted',
    keyOf: (item) => item.name,
    disabled: (item) => Boolean(item.problem),
    render: tile,
    onChange: (selected) => paint(selected),
  });
  list.element.classList.add('sb-tiles-captioned');
  list.element.setAttribute('aria-describedby', 'trash-hint');
  const toolbar = h('div', { class: 'sb-toolbar', role: 'group', 'aria-label': 'Recently Deleted actions' }, restore, all, status);
  main.prepend(h('div', { class: 'sb-page-head' }, h('h1', { text: 'Recently Deleted' }), toolbar), summary, hint, list.element, empty);

  function paint(selected) {
    restore.setAttribute('aria-disabled', String(selected.length === 0));
    status.textContent = selected.length ? `${plural(selected.length, 'item')} selected` : '';
  }

  const changed = changeDetector();

  async function load() {
    const items = await attempt(() => getJSON('/api/trash'));
    if (!items || !changed(items)) return;
    list.setItems(items);
    const size = items.reduce((sum, item) => sum + (item.size ?? 0), 0);
    summary.textContent = items.length ? `${plural(items.length, 'item')} · ${formatBytes(size)}` : '';
    for (const node of [list.element, hint, toolbar, summary]) node.hidden = items.length === 0;
    empty.hidden = items.length > 0;
  }

  all.addEventListener('click', () => list.select(list.items.filter((i) => !i.problem).map((i) => i.name)));
  restore.addEventListener('click', async () => {
    const chosen = list.selectedItems();
    if (!chosen.length) {
      announce('Select the photos to restore first.');
      return;
    }
    // Assets go back by id (their companions follow); other files by their trash name.
    const ids = chosen.filter((i) => i.id).map((i) => i.id);
    const names = chosen.filter((i) => !i.id).map((i) => i.name);
    const restored = [];
    if (ids.length) restored.push(...(await attempt(() => postJSON('/api/restore', { ids }))) ?? []);
    if (names.length) restored.push(...(await attempt(() => postJSON('/api/restore', { names }))) ?? []);
    if (restored.length) {
      const notes = restored.filter((r) => r.note).map((r) => `${basename(r.path)}: ${r.note}`);
      toast([`Restored ${plural(restored.length, 'file')}.`, ...notes].join(' '));
      announce(`Restored ${plural(restored.length, 'file')}.`);
    }
    list.select([]);
    await load();
    if (!list.items.length) empty.focus?.();
  });

  await load();
  onLibraryChange(coalesce(load));
}
