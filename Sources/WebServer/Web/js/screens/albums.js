// /albums: the user's albums first, then the ones Shoebox makes (years, places, people,
// screenshots, videos), as cards that link to /albums/KEY. Each card's cover is its album's first
// photo, which GET /api/albums names (`cover`), so the page is one request and the thumbnails.

import { getJSON, postJSON, toast, attempt } from '../api.js';
import { onLibraryChange, coalesce } from '../events.js';
import { prompt } from '../dialog.js';
import { h, useStyles, plural } from '../dom.js';
import { thumbURL, changeDetector, albumPath } from './kit.js';

const GROUPS = [
  { title: 'Your albums', kinds: ['user'] },
  { title: 'Years', kinds: ['year'] },
  { title: 'Places', kinds: ['place'] },
  { title: 'People', kinds: ['person'] },
  { title: 'Screenshots and videos', kinds: ['screenshots', 'videos'] },
];

export async function show(main) {
  useStyles('albums');
  const newAlbum = h('button', { type: 'button', class: 'button primary', text: 'New album' });
  const content = h('div', { class: 'sb-albums' });
  main.prepend(h('div', { class: 'sb-page-head' }, h('h1', { text: 'Albums' }), newAlbum), content);

  const changed = changeDetector();

  async function load(focusKey) {
    const albums = await attempt(() => getJSON('/api/albums'));
    if (!albums || (!changed(albums) && focusKey == null)) return;
    // The card that had focus has it again after the redraw.
    focusKey ??= content.contains(document.activeElement) ? document.activeElement.dataset.key : null;
    content.replaceChildren(...GROUPS.map((group) => section(group, albums)).filter(Boolean));
    if (focusKey != null) content.querySelector(`a[data-key="${CSS.escape(focusKey)}"]`)?.focus();
  }

  newAlbum.addEventListener('click', async () => {
    const name = (await prompt({ title: 'New album', label: 'Name', confirm: 'Create album' }))?.trim();
    if (!name) return;
    const album = await attempt(() => postJSON('/api/albums', { name }));
    if (!album) return;
    toast(`Album “${album.name}” created. Add photos from the Library: select them and choose “Add to album”.`);
    await load(album.key);
  });

  await load();
  // A change redraws only what changed (covers included: a reorder changes an album's cover).
  onLibraryChange(coalesce(() => load()));
}

function section(group, albums) {
  const members = albums.filter((album) => group.kinds.includes(album.kind));
  const isUser = group.kinds.includes('user');
  if (!members.length && !isUser) return null;
  const id = `albums-${group.kinds[0]}`;
  return h('section', { class: 'sb-album-group', 'aria-labelledby': id },
    h('h2', { id, text: group.title }),
    members.length
      ? h('ul', { class: 'sb-album-cards' }, members.map((album) => h('li', {}, card(album))))
      : h('p', { class: 'sb-empty', text: 'No albums of your own yet. Make one with “New album”, or select photos in the Library and choose “Add to album”.' }));
}

function card(album) {
  // The card's text names the album; the cover is decoration (alt="").
  const cover = h('span', { class: 'sb-album-cover' }, album.cover
    ? h('img', { src: thumbURL(album.cover), alt: '', loading: 'lazy', decoding: 'async' })
    : h('span', { class: 'sb-album-cover-empty', 'aria-hidden': 'true' }));
  return h('a', { class: 'sb-album-card', href: `/albums/${albumPath(album.key)}`, dataset: { key: album.key } },
    cover,
    h('span', { class: 'sb-album-name', text: album.name }),
    h('span', { class: 'sb-album-count', text: plural(album.count ?? 0, 'photo') }));
}
