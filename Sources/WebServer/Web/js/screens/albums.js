// /albums: the user's albums first, then the ones Shoebox makes (years, places, people,
// screenshots, videos), as cards that link to /albums/KEY.
// `album list` has no cover, so a card without one asks for its album (GET /api/albums/KEY)
// once the card scrolls into view, a few at a time, and shows the first entry's thumbnail;
// covers are remembered until the library changes.

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

const covers = new Map(); // album key → first entry's asset id (or null for an empty album)
// Covers from before the last library change: shown while their albums are asked again, so
// a change elsewhere does not blank every card.
let staleCovers = new Map();

export async function show(main) {
  useStyles('albums');
  const newAlbum = h('button', { type: 'button', class: 'button primary', text: 'New album' });
  const content = h('div', { class: 'sb-albums' });
  main.prepend(h('div', { class: 'sb-page-head' }, h('h1', { text: 'Albums' }), newAlbum), content);
  const loader = coverLoader();

  const changed = changeDetector();

  async function load(focusKey, { force = false } = {}) {
    const albums = await attempt(() => getJSON('/api/albums'));
    if (!albums || (!changed(albums) && !force && focusKey == null)) return;
    // The card that had focus has it again after the redraw.
    focusKey ??= content.contains(document.activeElement) ? document.activeElement.dataset.key : null;
    content.replaceChildren(...GROUPS.map((group) => section(group, albums, loader)).filter(Boolean));
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
  onLibraryChange(coalesce(async () => {
    // Any album's first photo may have changed (a reorder leaves the list itself as it was).
    staleCovers = new Map(covers);
    covers.clear();
    await load(undefined, { force: true });
  }));
}

function section(group, albums, loader) {
  const members = albums.filter((album) => group.kinds.includes(album.kind));
  const isUser = group.kinds.includes('user');
  if (!members.length && !isUser) return null;
  const id = `albums-${group.kinds[0]}`;
  return h('section', { class: 'sb-album-group', 'aria-labelledby': id },
    h('h2', { id, text: group.title }),
    members.length
      ? h('ul', { class: 'sb-album-cards' }, members.map((album) => h('li', {}, card(album, loader))))
      : h('p', { class: 'sb-empty', text: 'No albums of your own yet. Make one with “New album”, or select photos in the Library and choose “Add to album”.' }));
}

function card(album, loader) {
  const cover = h('span', { class: 'sb-album-cover' });
  const link = h('a', { class: 'sb-album-card', href: `/albums/${albumPath(album.key)}`, dataset: { key: album.key } },
    cover,
    h('span', { class: 'sb-album-name', text: album.name }),
    h('span', { class: 'sb-album-count', text: plural(album.count ?? 0, 'photo') }));
  const known = album.cover ?? covers.get(album.key);
  if (known !== undefined) paintCover(cover, known);
  else if (album.count === 0) paintCover(cover, null);
  else {
    if (staleCovers.has(album.key)) paintCover(cover, staleCovers.get(album.key));
    loader.watch(cover, album.key);
  }
  return link;
}

function paintCover(cover, assetId) {
  // The card's text names the album; the cover is decoration (alt="").
  cover.replaceChildren(assetId
    ? h('img', { src: thumbURL(assetId), alt: '', loading: 'lazy', decoding: 'async' })
    : h('span', { class: 'sb-album-cover-empty', 'aria-hidden': 'true' }));
}

/** Fetches covers of cards that come into view, at most three requests at once. */
function coverLoader() {
  const queue = [];
  let running = 0;
  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      observer.unobserve(entry.target);
      queue.push(entry.target);
    }
    pump();
  }, { rootMargin: '200px' });

  function pump() {
    while (running < 3 && queue.length) {
      const cover = queue.shift();
      if (!cover.isConnected) continue;
      running += 1;
      const key = cover.dataset.coverKey;
      getJSON(`/api/albums/${albumPath(key)}`)
        .then((album) => {
          const first = album.entries?.find((entry) => entry.id)?.id ?? null;
          covers.set(key, first);
          if (!staleCovers.has(key) || staleCovers.get(key) !== first) paintCover(cover, first);
        })
        .catch(() => paintCover(cover, null)) // a missing cover is not worth a toast
        .finally(() => { running -= 1; pump(); });
    }
  }

  return {
    watch(cover, key) {
      cover.dataset.coverKey = key;
      observer.observe(cover);
    },
  };
}
