// People: the list of people (hidden ones too) and the face indexing's status, read when a screen first needs
// them and again when the change stream says a person changed; and the changes to people that the screens share —
// naming, hiding, merging, whose face it is — each announced in a message with Undo.
//
// Events (people.on): 'list' (the list was read again), 'changed' ({inserted, updated, deleted} person ids, from
// the change stream or a change made here), 'status' (the indexing's status, read again as the stream's progress
// events say the faces being found have come further).
import { api } from './api.js';
import { createBus, debounce, plural } from './util.js';
import { store } from './store.js';
import { toast } from './components/toast.js';
import { confirmDialog } from './components/dialog.js';
import { displayName, personNamed } from './person-names.js';

/** How long a message with Undo stays (it also stays while the pointer or the keyboard is on it). */
const UNDO_TIMEOUT = 8000;

const bus = createBus();
let listPromise = null;

export const people = {
  /** Every person, hidden ones too, in the server's order (named first, then most photos). */
  list: [],
  loaded: false,
  /** GET /people/status, once read: {indexedAssets, assetsToIndex, enabled, modelsMissing, …}. */
  status: null,

  on(name, fn) { return bus.on(name, fn); },

  /** Reads the list (one request at a time; a read asked for meanwhile waits for it and goes after). */
  load() {
    if (listPromise) return listPromise;
    listPromise = api.people({ hidden: true }).then((r) => {
      this.list = r?.people || [];
      this.loaded = true;
      bus.emit('list', this.list);
      return this.list;
    }).finally(() => { listPromise = null; });
    return listPromise;
  },

  async loadStatus() {
    this.status = await api.peopleStatus();
    bus.emit('status', this.status);
    return this.status;
  },

  find(id) { return this.list.find((p) => p.id === id) || null; },
  named() { return this.list.filter((p) => p.name); },

  /** Puts a person's new state into the list (after a change made here), and says so. */
  remember(person) {
    if (!person?.id) return;
    const i = this.list.findIndex((p) => p.id === person.id);
    if (i >= 0) this.list[i] = { ...this.list[i], ...person };
    bus.emit('changed', { inserted: [], updated: [person.id], deleted: [] });
  },

  /** Another user signed in: nothing of the last one's is kept. */
  reset() {
    this.list = [];
    this.loaded = false;
    this.status = null;
  },
};

// ----- Live: person changes from the change stream (any window, the grouping of new faces) read the list again.
const reload = debounce(() => { if (people.loaded) people.load().catch(() => {}); }, 300);
const reloadStatus = debounce(() => { if (people.status) people.loadStatus().catch(() => {}); }, 500);
store.on('change', (data) => {
  const p = data?.people;
  if (p && (p.inserted?.length || p.updated?.length || p.deleted?.length)) {
    bus.emit('changed', { inserted: p.inserted || [], updated: p.updated || [], deleted: p.deleted || [] });
    reload();
    reloadStatus();
  }
  const a = data?.assets || {};
  if (a.inserted?.length || a.deleted?.length || a.trashed?.length || a.recovered?.length) reloadStatus();
});
store.on('reset', () => { reload(); reloadStatus(); });
// While faces are being found, the stream says how far it has come: the status (with its counts) is read again.
store.on('faces-progress', () => reloadStatus());

// ----- Changes to people, each with its message and Undo

function undoable(message, token, { undone = 'Undone.' } = {}) {
  toast(message, {
    timeout: UNDO_TIMEOUT,
    action: token ? { label: 'Undo', run: () => undoChange(token, undone) } : null,
  });
}

async function undoChange(token, undone) {
  try {
    await api.undoPeople(token);
    toast(undone);
    reload();
  } catch (e) { toast.error(e, 'That could not be undone.'); }
}

/**
 * Names a person (or takes the name away: null), with Undo. A name someone else has asks whether to merge the two
 * (the other keeps the name). Resolves to the person who has the name now (the other one after a merge), or null.
 */
export async function renamePerson(person, name) {
  const before = person.name || null;
  const clean = name == null ? null : String(name).trim() || null;
  if (clean === before) return person;
  try {
    const updated = await api.patchPerson(person.id, { name: clean });
    people.remember(updated);
    reload();
    const message = clean ? (before ? `Renamed “${before}” to “${clean}”.` : `Named “${clean}”.`) : `“${before}” has no name now.`;
    toast(message, {
      timeout: UNDO_TIMEOUT,
      action: { label: 'Undo', run: () => api.patchPerson(person.id, { name: before }).then((p) => { people.remember(p); reload(); toast('Name put back.'); }, (e) => toast.error(e, 'The name could not be put back.')) },
    });
    return updated;
  } catch (e) {
    if (e.status !== 409 || !clean) { toast.error(e, 'The name could not be saved.'); return null; }
    // Someone else has the name (the answer's detail is their id): the same person, most likely, found twice.
    await people.load().catch(() => {});
    const others = people.list.filter((p) => p.id !== person.id);
    const other = others.find((p) => p.id === e.detail) || personNamed(others, clean);
    if (!other) { toast.error(e, 'The name could not be saved.'); return null; }
    const ok = await confirmDialog({
      title: `Merge with “${other.name}”?`,
      message: `Someone in People is already called “${other.name}”. Merging makes them one person, with the photos of both (${plural(person.assetCount + other.assetCount, 'photo')}). You can undo it.`,
      confirmLabel: 'Merge', testid: 'merge-name-dialog',
    });
    if (!ok) return null;
    return mergePeople(other, [person]);
  }
}

/** Hides a person from People, or shows them again, with Undo. */
export async function setPersonHidden(person, isHidden) {
  try {
    const updated = await api.patchPerson(person.id, { isHidden });
    people.remember(updated);
    reload();
    const name = person.name ? `“${person.name}”` : 'This person';
    toast(isHidden ? `${name} is hidden from People. Show Hidden lists hidden people.` : `${name} is shown in People again.`, {
      timeout: UNDO_TIMEOUT,
      action: { label: 'Undo', run: () => api.patchPerson(person.id, { isHidden: !isHidden }).then((p) => { people.remember(p); reload(); }, (e) => toast.error(e, 'That could not be undone.')) },
    });
    return updated;
  } catch (e) {
    toast.error(e, isHidden ? 'The person could not be hidden.' : 'The person could not be shown again.');
    return null;
  }
}

/** Merges `sources` into `target`, as one change with Undo; resolves to the merged person, or null. */
export async function mergePeople(target, sources) {
  try {
    const { person, undo } = await api.mergePeople(target.id, sources.map((p) => p.id));
    people.list = people.list.filter((p) => !sources.some((s) => s.id === p.id));
    people.remember(person);
    undoable(`Merged ${plural(sources.length + 1, 'person', 'people')} into “${displayName(person)}”.`, undo, { undone: 'The merge was undone.' });
    reload();
    return person;
  } catch (e) {
    toast.error(e, 'The people could not be merged.');
    return null;
  }
}

/** Says whose face it is: {personID} or {name}; with Undo. Resolves to {face, person} or null. */
export async function assignFace(face, who) {
  try {
    const { face: updated, person, undo } = await api.assignFace(face.id, who);
    if (person) people.remember(person);
    undoable(`This face is ${displayName(person)} now.`, undo);
    reload();
    return { face: updated, person };
  } catch (e) {
    toast.error(e, 'The face could not be given to that person.');
    return null;
  }
}

/** "Not this person": the face leaves its person and never joins them again; with Undo. */
export async function rejectFace(face) {
  try {
    const { face: updated, undo } = await api.rejectFace(face.id);
    undoable(face.personName ? `This face is no longer “${face.personName}”.` : 'This face is no longer that person’s.', undo);
    reload();
    return updated;
  } catch (e) {
    toast.error(e, 'The face could not be taken from that person.');
    return null;
  }
}
