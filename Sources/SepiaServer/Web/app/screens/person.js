// A person's page (#/person/<id>): their photos, newest first, in the library's grid (screens/library.js, view
// 'person'), under their name, which is edited in place (Rename, or a click on it: Enter saves, Escape cancels);
// Hide (Unhide) and Merge with another person, each with Undo. It follows changes made elsewhere: a new name,
// faces given to them or taken away, the person merged into someone else.
import { api } from '../api.js';
import { h } from '../util.js';
import { icon } from '../icons.js';
import { toast } from '../components/toast.js';
import { confirmDialog } from '../components/dialog.js';
import { editName } from '../components/name-field.js';
import { pickPerson } from '../components/person-picker.js';
import { menuButton } from '../components/menu.js';
import { mountLibrary } from './library.js';
import { people, renamePerson, setPersonHidden, mergePeople } from '../people.js';
import { displayName } from '../person-names.js';

export function mountPerson(container, { id }, ctx) {
  return mountLibrary(container, { view: 'person', albumId: id, extend: (screen) => personTools(id, screen, ctx) }, ctx);
}

function personTools(id, { titleEl, tools, refresh }, ctx) {
  let person = people.find(id);
  let editing = false;

  const renameBtn = h('button', { type: 'button', class: 'btn', 'data-testid': 'person-rename', onclick: rename });
  const hideBtn = h('button', { type: 'button', class: 'btn', 'data-testid': 'person-hide', onclick: toggleHidden });
  const mergeBtn = h('button', { type: 'button', class: 'btn', 'data-testid': 'person-merge', title: 'Merge with another person', onclick: merge }, icon('users'), h('span', { class: 'label-wide' }, 'Merge'));
  mergeBtn.setAttribute('aria-label', 'Merge with another person');
  for (const b of [renameBtn, hideBtn, mergeBtn]) b.classList.add('person-tool');
  // On a phone the three are in a menu, so that the name keeps its room.
  const more = menuButton({
    label: 'Person actions', testid: 'person-more', cls: 'btn icon ghost person-more',
    items: [
      { label: () => (person?.name ? 'Rename' : 'Add Name'), icon: 'pencil', testid: 'person-menu-rename', disabled: () => !person, run: rename },
      { label: () => (person?.isHidden ? 'Unhide' : 'Hide'), icon: 'eyeOff', testid: 'person-menu-hide', disabled: () => !person, run: toggleHidden },
      { label: 'Merge with…', icon: 'users', testid: 'person-menu-merge', disabled: () => !person, run: merge },
    ],
  });
  tools.append(renameBtn, hideBtn, mergeBtn, more);
  titleEl.classList.add('person-title');
  titleEl.title = 'Rename';
  titleEl.addEventListener('click', () => { if (person) rename(); });

  function draw() {
    const name = person ? displayName(person) : 'Person';
    titleEl.textContent = person?.name ? person.name : person ? 'Unnamed person' : 'Person';
    titleEl.classList.toggle('unnamed', !!person && !person.name);
    if (person) document.title = `${name} — Sepia`;
    renameBtn.replaceChildren(icon('pencil'), h('span', { class: 'label-wide' }, person?.name ? 'Rename' : 'Add Name'));
    renameBtn.setAttribute('aria-label', person?.name ? `Rename ${person.name}` : 'Add Name');
    renameBtn.title = person?.name ? 'Rename' : 'Add a name';
    hideBtn.replaceChildren(icon(person?.isHidden ? 'eye' : 'eyeOff'), h('span', { class: 'label-wide' }, person?.isHidden ? 'Unhide' : 'Hide'));
    hideBtn.setAttribute('aria-label', person?.isHidden ? 'Unhide: show in People again' : 'Hide from People');
    hideBtn.title = person?.isHidden ? 'Show this person in People again' : 'Hide this person from People (their faces stay theirs)';
    for (const b of [renameBtn, hideBtn, mergeBtn]) b.disabled = !person;
  }

  async function load() {
    try {
      person = await api.person(id);
      draw();
    } catch (e) {
      if (e.status === 404) {
        person = null;
        draw();
        titleEl.textContent = 'Not in People';
        toast.error('This person is no longer in People: they may have been merged with someone else.');
      } else toast.error(e, 'This person could not be loaded.');
    }
  }

  async function rename() {
    if (!person || editing) return;
    editing = true;
    const before = person;
    await editName(titleEl, {
      value: person.name || '', label: 'Name', placeholder: 'Add a name', testid: 'person-name-input',
      returnFocus: () => renameBtn,
      onSave: async (text) => {
        const now = await renamePerson(before, text || null);
        if (!now) return false;
        if (now.id !== id) { ctx.go(`#/person/${encodeURIComponent(now.id)}`, { keepMessages: true }); return true; }
        person = now;
        return true;
      },
    });
    editing = false;
    draw();
  }

  async function toggleHidden() {
    if (!person) return;
    const updated = await setPersonHidden(person, !person.isHidden);
    if (updated) { person = updated; draw(); }
  }

  async function merge() {
    if (!person) return;
    const other = await pickPerson({ title: `Merge with…`, description: `Choose who else this is: their photos join ${person.name ? `“${person.name}”` : 'this person'}.`, exclude: id });
    if (!other) return;
    const ok = await confirmDialog({
      title: 'Merge these people?',
      message: `“${displayName(other)}” and “${displayName(person)}” become one person, with the photos of both. You can undo it.`,
      confirmLabel: 'Merge', testid: 'merge-dialog',
    });
    if (!ok) return;
    const merged = await mergePeople(person, [other]);
    if (merged) { person = merged; draw(); refresh(); }
  }

  // Changes from anywhere: this person's name, hidden flag or faces (their photos), or the person gone.
  const off = people.on('changed', (c) => {
    if (c.deleted.includes(id)) {
      if (editing) return;
      api.person(id).then((p) => { person = p; draw(); refresh(); }, () => {
        toast('This person is no longer in People: they were merged with someone else, or lost their last face.');
        ctx.go('#/people', { keepMessages: true });
      });
      return;
    }
    if (c.updated.includes(id) || c.inserted.includes(id)) {
      const known = people.find(id);
      if (known && !editing) { person = { ...person, ...known }; draw(); }
      api.person(id).then((p) => { person = p; if (!editing) draw(); }, () => {});
      refresh();
    }
  });

  draw();
  load();
  return { unmount() { off(); } };
}
