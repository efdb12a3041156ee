// A person as a filter in search: the search field offers the people whose name matches what is typed (a
// combobox, with their faces); choosing one puts them before the field as a chip, and the search shows their
// photos — narrowed by any words typed after. The chip's × (or Backspace in the empty field) takes them away.
import { api } from '../api.js';
import { h, plural } from '../util.js';
import { icon } from '../icons.js';
import { nameCombobox } from './name-combobox.js';
import { people } from '../people.js';
import { displayName, matchPeople } from '../person-names.js';

/**
 * personFilter({input, personID, onChange(person|null)}) → {chip, list, status, get id()}: `chip`, `list` and
 * `status` go into the search field, around `input`. `personID` is the person the address names, if any.
 */
export function personFilter({ input, personID = null, onChange }) {
  let person = personID ? { id: personID, name: null } : null;
  const chipName = h('span', { class: 'search-chip-name' }, '');
  const remove = h('button', { type: 'button', class: 'search-chip-remove', 'data-testid': 'search-person-remove', aria: { label: 'Remove the person from the search' }, onclick: () => set(null, true) }, icon('close'));
  const chip = h('span', { class: 'search-chip', 'data-testid': 'search-person', hidden: !person }, icon('user'), chipName, remove);

  const combo = nameCombobox({
    input, listTestid: 'search-person-options',
    offers: (text) => offers(text),
    onChoose: (o) => set(o.value, true),
  });

  function offers(text) {
    if (!people.loaded) { people.load().then(() => { if (document.activeElement === input) combo.refresh(); }, () => {}); return []; }
    return matchPeople(people.list, text, { limit: 6, exclude: person?.id }).map((p) => ({
      id: p.id, label: p.name, detail: `Person · ${plural(p.assetCount || 0, 'photo')}`, testid: 'search-person-option',
      image: p.keyFace ? api.faceImageURL(p.keyFace.id, 128, p.keyFace.version) : null, value: p,
    }));
  }

  function draw() {
    chip.hidden = !person;
    chipName.textContent = person ? (person.name === null ? '…' : displayName(person)) : '';
    input.placeholder = person ? 'Words to narrow it' : 'Keyword, title, caption or person';
    input.setAttribute('aria-label', person ? `Search the photos of ${displayName(person)}` : 'Search photos');
  }

  function set(p, changed) {
    person = p ? { id: p.id, name: p.name ?? null } : null;
    draw();
    if (changed) {
      if (p) input.value = '';
      input.focus();
      onChange(person);
    }
  }

  input.addEventListener('keydown', (e) => {
    if (e.key === 'Backspace' && person && !input.value && input.selectionStart === 0) { e.preventDefault(); set(null, true); }
  });

  // The person the address names: their name, once known.
  if (person) {
    const known = people.find(person.id);
    if (known) set(known, false);
    else api.person(person.id).then((p) => { if (person?.id === p.id) set(p, false); }, () => { if (person?.id === personID) { person.name = 'Unknown person'; draw(); } });
  }
  draw();
  return { chip, list: combo.list, status: combo.status, get id() { return person?.id || null; } };
}
