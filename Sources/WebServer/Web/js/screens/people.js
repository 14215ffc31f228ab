// /people: everyone analyse found, most photos first, each as a round crop of their largest
// face. Two people can be selected (checkboxes) and merged — the first one selected is the
// one kept, as `people merge A B` keeps A — and anyone can be named in place.

import { getJSON, postJSON, toast, attempt } from '../api.js';
import { onLibraryChange, coalesce } from '../events.js';
import { confirmDialog } from '../dialog.js';
import { h, useStyles, plural } from '../dom.js';
import { liveRegion, changeDetector } from './kit.js';
import { faceCrop } from './face-crop.js';

/** What to call a person in words: their name, or "Unnamed (p3)" so two unnamed ones differ. */
export function personLabel(person) {
  return person.name ?? `Unnamed (${person.id})`;
}

/** A form with a text field named "Name" and a "Save" button; `onSave(name)` returns when done. */
export function nameForm(person, onSave, { visibleLabel = false } = {}) {
  const input = h('input', {
    type: 'text', name: 'name', value: person.name ?? '', autocomplete: 'off', spellcheck: 'false',
    'aria-label': visibleLabel ? null : 'Name', id: `name-${person.id}`, required: true,
  });
  const form = h('form', { class: 'sb-name-form', 'aria-label': `Name ${personLabel(person)}` },
    visibleLabel ? h('label', { for: input.id, text: 'Name' }) : null,
    input,
    h('button', { type: 'submit', class: 'button', text: 'Save' }));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const name = input.value.trim();
    if (!name || name === person.name) return;
    await onSave(name);
  });
  return form;
}

export async function show(main) {
  useStyles('albums', 'people');
  const announce = liveRegion(main);
  const merge = h('button', { type: 'button', class: 'button primary', text: 'Merge', 'aria-disabled': 'true', 'aria-describedby': 'people-selection' });
  const clear = h('button', { type: 'button', class: 'button', text: 'Clear selection', hidden: true });
  const status = h('p', { id: 'people-selection', class: 'sb-selection-status', 'aria-live': 'polite' });
  const grid = h('ul', { class: 'sb-people', 'aria-label': 'People' });
  const empty = h('p', { class: 'sb-empty', hidden: true, text: 'No people yet. Shoebox finds faces when it analyses photos (shoebox analyze); the people appear here.' });
  const toolbar = h('div', { class: 'sb-toolbar', role: 'group', 'aria-label': 'Merge people' }, merge, clear, status);
  main.prepend(h('div', { class: 'sb-page-head' }, h('h1', { text: 'People' }), toolbar), grid, empty);

  let people = [];
  let picked = []; // ids in the order they were selected: the first is kept by a merge

  const changed = changeDetector();

  async function load() {
    const list = await attempt(() => getJSON('/api/people'));
    if (!list || !changed(list)) return;
    people = list;
    picked = picked.filter((id) => people.some((p) => p.id === id));
    const focusedId = document.activeElement?.closest?.('[data-person]')?.dataset.person;
    const focusedName = document.activeElement?.name;
    // A name being typed survives a redraw that another change caused.
    const drafts = new Map([...grid.querySelectorAll('[data-person] input[name=name]')]
      .filter((input) => input.value !== input.defaultValue)
      .map((input) => [input.closest('[data-person]').dataset.person, input.value]));
    grid.replaceChildren(...people.map(card));
    empty.hidden = people.length > 0;
    toolbar.hidden = people.length < 2; // nobody to merge with
    for (const [id, value] of drafts) {
      const input = grid.querySelector(`[data-person="${CSS.escape(id)}"] input[name=name]`);
      if (input) input.value = value;
    }
    // After a reload the same control of the same person has focus again.
    const again = focusedId && grid.querySelector(`[data-person="${CSS.escape(focusedId)}"]`);
    if (again) (again.querySelector(`[name="${focusedName}"]`) ?? again.querySelector('a')).focus();
    paint();
  }

  function card(person) {
    const box = h('input', {
      type: 'checkbox', name: 'select', class: 'sb-person-select',
      'aria-label': `Select ${personLabel(person)}`, checked: picked.includes(person.id),
    });
    box.addEventListener('change', () => {
      picked = box.checked ? [...picked, person.id] : picked.filter((id) => id !== person.id);
      paint();
    });
    return h('li', { class: 'sb-person', dataset: { person: person.id } },
      h('a', { class: 'sb-person-link', href: `/people/${encodeURIComponent(person.id)}` },
        faceCrop(person.face, ''),
        h('span', { class: 'sb-person-name' }, person.name ?? 'Unnamed',
          person.name ? null : h('span', { class: 'visually-hidden', text: ` (${person.id})` })),
        h('span', { class: 'sb-person-count', text: plural(person.photos ?? 0, 'photo') })),
      box,
      nameForm(person, (name) => rename(person, name)));
  }

  function paint() {
    for (const li of grid.children) {
      li.classList.toggle('sb-picked', picked.includes(li.dataset.person));
      li.querySelector('.sb-person-select').checked = picked.includes(li.dataset.person);
    }
    merge.setAttribute('aria-disabled', String(picked.length !== 2));
    clear.hidden = picked.length === 0;
    status.textContent = picked.length === 2
      ? `${names(picked)} selected.`
      : picked.length > 2
        ? `${picked.length} selected: merge takes two at a time.`
        : picked.length === 1 ? '1 selected: select one more to merge.' : 'Select two people to merge them.';
  }

  function names(ids) {
    return ids.map((id) => personLabel(people.find((p) => p.id === id))).join(' and ');
  }

  async function rename(person, name) {
    const named = await attempt(() => postJSON(`/api/people/${encodeURIComponent(person.id)}/name`, { name }));
    if (!named) return;
    announce(`Named ${name}.`);
    toast(`Named ${name}.`);
    await load();
  }

  merge.addEventListener('click', async () => {
    if (picked.length !== 2) {
      announce(status.textContent);
      return;
    }
    const [keep, into] = picked.map((id) => people.find((p) => p.id === id));
    const sure = await confirmDialog({
      title: 'Merge these two people?',
      message: `${personLabel(into)} (${plural(into.photos, 'photo')}) becomes part of ${personLabel(keep)} (${plural(keep.photos, 'photo')}). Their faces become one person.`,
      confirm: 'Merge',
    });
    if (!sure) return;
    const merged = await attempt(() => postJSON('/api/people/merge', { ids: [keep.id, into.id] }));
    if (!merged) return;
    picked = [];
    toast(`Merged into ${personLabel(merged)}.`);
    await load();
    // The Merge button may be gone (one person left): the keyboard goes to the merged person.
    grid.querySelector(`[data-person="${CSS.escape(merged.id)}"] a`)?.focus();
  });
  clear.addEventListener('click', () => {
    picked = [];
    paint();
    merge.focus();
  });

  await load();
  onLibraryChange(coalesce(load));
}
