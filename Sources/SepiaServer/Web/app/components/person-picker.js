// "Merge with…": a dialog listing the other people (their faces, names and photo counts), with a field that
// narrows the list by name; resolves with the person chosen, or null.
import { api } from '../api.js';
import { h, plural, uid } from '../util.js';
import { openDialog } from './dialog.js';
import { people } from '../people.js';
import { displayName, matchPeople } from '../person-names.js';

export async function pickPerson({ title = 'Merge with…', description, exclude = null } = {}) {
  if (!people.loaded) await people.load().catch(() => {});
  let d;
  const fieldId = uid('person-filter');
  const filter = h('input', { id: fieldId, class: 'input', type: 'search', placeholder: 'Name', autocomplete: 'off', 'data-testid': 'person-pick-filter' });
  const list = h('ul', { class: 'picker-list', 'data-testid': 'person-picker-list' });
  const render = () => {
    const others = people.list.filter((p) => p.id !== exclude);
    const text = filter.value.trim();
    const shown = text ? matchPeople(others, text, { limit: others.length }) : others;
    list.replaceChildren();
    if (!shown.length) list.append(h('li', { class: 'hint' }, others.length ? 'No one in People has that name.' : 'There is no one else in People yet.'));
    for (const p of shown) {
      const face = p.keyFace
        ? h('img', { src: api.faceImageURL(p.keyFace.id, 128, p.keyFace.version), alt: '', class: 'picker-thumb face' })
        : h('span', { class: 'picker-thumb face' });
      list.append(h('li', {}, h('button', { type: 'button', class: 'picker-item', 'data-testid': 'person-pick', 'data-person-id': p.id, onclick: () => d.close(p) },
        face, h('span', { class: 'picker-text' }, h('span', { class: 'picker-title' }, displayName(p) + (p.isHidden ? ' (hidden)' : '')), h('span', { class: 'hint' }, plural(p.assetCount || 0, 'photo'))))));
    }
  };
  filter.addEventListener('input', render);
  render();
  const body = h('div', { class: 'stack' }, h('div', { class: 'field' }, h('label', { for: fieldId }, 'Find a person'), filter), list);
  d = openDialog({ title, description, body, actions: [h('button', { type: 'button', class: 'btn', onclick: () => d.close(null) }, 'Cancel')], testid: 'person-picker', initialFocus: () => filter });
  return d.closed.then((v) => v || null);
}
