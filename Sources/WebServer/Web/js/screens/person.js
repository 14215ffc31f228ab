// /people/ID: one person's faces, each cut from its photo's thumbnail and linked to the photo,
// each with "Forget this face" (for a face that is not theirs: `people forget`, final, so it
// asks first); the person's name can be changed here, and their photos opened in the Library.

import { getJSON, postJSON, toast, attempt } from '../api.js';
import { onLibraryChange, coalesce } from '../events.js';
import { confirmDialog } from '../dialog.js';
import { h, useStyles, setTitle, plural } from '../dom.js';
import { liveRegion, changeDetector, backLink } from './kit.js';
import { faceCrop } from './face-crop.js';
import { nameForm, personLabel } from './people.js';
import { saveOrder } from '../library/order.js';

function personId(params) {
  if (params?.id) return params.id;
  return decodeURIComponent(location.pathname.replace(/^\/people\//, ''));
}

export async function show(main, params) {
  useStyles('albums', 'people');
  const id = personId(params);
  const api = `/api/people/${encodeURIComponent(id)}`;
  const announce = liveRegion(main);
  const header = h('div', { class: 'sb-person-header' });
  const faces = h('ul', { class: 'sb-faces', 'aria-labelledby': 'faces-heading' });
  const facesHeading = h('h2', { id: 'faces-heading', text: 'Faces', tabindex: '-1' });
  main.prepend(backLink('/people', 'All people'), header, facesHeading, faces);
  let person = null;
  const changed = changeDetector();

  async function load() {
    let fresh;
    try {
      fresh = await getJSON(api);
    } catch (error) {
      // Forgetting a person's last face leaves no person: say so rather than show an error.
      header.replaceChildren(h('h1', { text: person ? personLabel(person) : 'Person' }),
        h('p', { class: 'sb-empty', text: person ? 'This person has no faces left.' : error.message }));
      facesHeading.hidden = true;
      faces.replaceChildren();
      return;
    }
    if (!changed(fresh)) return;
    person = fresh;
    setTitle(person.name ?? 'Unnamed person');
    renderHeader();
    renderFaces();
  }

  function renderHeader() {
    const hadFocus = header.contains(document.activeElement) ? document.activeElement.name : null;
    const input = header.querySelector('input[name=name]');
    const draft = input && input.value !== input.defaultValue ? input.value : null;
    const label = person.name ?? person.id;
    header.replaceChildren(
      h('h1', { text: person.name ?? 'Unnamed person' }),
      h('p', { class: 'sb-album-meta', text: `${plural(person.photos ?? 0, 'photo')} · ${plural(person.faces.length, 'face')}` }),
      h('p', {}, h('a', { class: 'button', href: `/?person=${encodeURIComponent(label)}`, text: `See ${person.name ? `${person.name}’s` : 'their'} photos in the Library` })),
      nameForm(person, rename, { visibleLabel: true }));
    if (draft !== null) header.querySelector('input[name=name]').value = draft;
    if (hadFocus) header.querySelector(`[name="${hadFocus}"]`)?.focus();
  }

  function renderFaces() {
    const total = person.faces.length;
    // From a face the viewer's ← → go through this person's photos, and its Back returns here.
    const photos = [...new Set(person.faces.map((face) => face.asset_id))];
    const back = { href: `/people/${encodeURIComponent(person.id)}`, label: person.name ? `Back to ${person.name}` : 'Back to this person' };
    faces.onclick = (event) => { if (event.target.closest('a')) saveOrder('', photos, { back }); };
    const focusedFace = faces.contains(document.activeElement) ? document.activeElement.closest('[data-face]')?.dataset.face : null;
    const focusedLink = document.activeElement?.tagName === 'A';
    faces.replaceChildren(...person.faces.map((face, i) => {
      const label = `Face ${i + 1} of ${total}`;
      const forget = h('button', { type: 'button', class: 'button quiet', text: 'Forget this face', dataset: { face: face.id } });
      forget.addEventListener('click', () => forgetFace(face, label));
      return h('li', { class: 'sb-face-item', dataset: { face: face.id } },
        h('a', { href: `/asset/${encodeURIComponent(face.asset_id)}`, title: 'Open the photo' }, faceCrop(face, `${label}: open its photo`)),
        forget);
    }));
    const item = focusedFace && faces.querySelector(`li[data-face="${CSS.escape(focusedFace)}"]`);
    if (item) item.querySelector(focusedLink ? 'a' : 'button').focus();
  }

  async function rename(name) {
    const named = await attempt(() => postJSON(`${api}/name`, { name }));
    if (!named) return;
    toast(`Named ${name}.`);
    await load();
  }

  async function forgetFace(face, label) {
    const sure = await confirmDialog({
      title: 'Forget this face?',
      message: `${label} will no longer count as ${personLabel(person)}, and Shoebox will never match or name it again. This cannot be undone.`,
      confirm: 'Forget face',
      danger: true,
    });
    if (!sure) return;
    const done = await attempt(() => postJSON('/api/faces/forget', { face: face.id }));
    if (!done) return;
    // Keep the keyboard where it was: on the next face's button (or the previous at the end).
    const buttons = [...faces.querySelectorAll('button[data-face]')];
    const at = buttons.findIndex((b) => b.dataset.face === face.id);
    const nextFace = buttons[at + 1]?.dataset.face ?? buttons[at - 1]?.dataset.face;
    announce('Face forgotten.');
    await load();
    const target = nextFace && faces.querySelector(`button[data-face="${CSS.escape(nextFace)}"]`);
    (target || facesHeading).focus?.();
  }

  await load();
  onLibraryChange(coalesce(load));
}
