// People: a face for each person the library's faces were grouped into, their name (or Add name, which names
// them in place) and how many photos they are in; named people first, then the others, most photos first (the
// server's order). Show Hidden lists the people hidden from here too. Select picks people to Merge or Hide;
// dragging one person onto another merges them too. While indexing runs, how far it has come; with faces off, or
// the face models missing, what to do about it.
import { api } from '../api.js';
import { h, plural, bucket, dpr, keyBelongsToControl } from '../util.js';
import { icon } from '../icons.js';
import { toast } from '../components/toast.js';
import { confirmDialog, openDialog } from '../components/dialog.js';
import { Selection, selectionBar } from '../components/selection-bar.js';
import { editName } from '../components/name-field.js';
import { people, renamePerson, setPersonHidden, mergePeople } from '../people.js';
import { displayName } from '../person-names.js';

const SHOW_HIDDEN_KEY = 'sepia.peopleShowHidden';
/** How often the indexing's status is read again while it runs. */
const STATUS_EVERY = 3000;

export function mountPeople(container, params, ctx) {
  const selection = new Selection();
  const offs = [];
  let showHidden = false;
  try { showHidden = localStorage.getItem(SHOW_HIDDEN_KEY) === '1'; } catch { showHidden = false; }
  /** Set while a name is typed on a card: the list is drawn again only once it is done. */
  let editing = false;
  let redrawWhenDone = false;

  // ----- Top bar
  const count = h('span', { class: 'topbar-subtitle', 'data-testid': 'people-count' }, '');
  const hiddenBtn = h('button', {
    type: 'button', class: 'btn', 'data-testid': 'people-show-hidden', aria: { pressed: String(showHidden) },
    title: 'Also list the people hidden from People', onclick: () => setShowHidden(!showHidden),
  }, icon('eye'), h('span', { class: 'label-wide' }, 'Show Hidden'));
  hiddenBtn.setAttribute('aria-label', 'Show Hidden');
  const selectBtn = h('button', { type: 'button', class: 'btn', 'data-testid': 'people-select', aria: { pressed: 'false' }, onclick: () => (selection.active ? selection.stop() : selection.start()) }, 'Select');
  const topbar = h('header', { class: 'topbar' },
    h('button', { type: 'button', class: 'btn icon ghost menu-btn', 'data-testid': 'menu-button', aria: { label: 'Open menu', controls: 'sidebar' }, onclick: () => ctx.shell.openMenu() }, icon('menu')),
    h('div', { class: 'topbar-titles' }, h('h1', { id: 'people-title', class: 'topbar-title', 'data-testid': 'screen-title' }, 'People'), count),
    h('div', { class: 'topbar-spacer' }), hiddenBtn, selectBtn);

  // ----- Content: how indexing is going, the people, or why there is no one
  const progress = h('div', { class: 'people-progress', 'data-testid': 'people-progress', role: 'status', hidden: true });
  const list = h('ul', { class: 'people-grid', 'data-testid': 'people-list', aria: { labelledby: 'people-title' } });
  const empty = h('div', { class: 'people-empty' });
  const scroller = h('div', { class: 'scroller page-pad people-page' }, progress, list, empty);

  const bar = selectionBar(selection, [
    { id: 'hide', label: 'Hide', icon: 'eyeOff', labelFor: (ids) => (ids.length && ids.every((id) => people.find(id)?.isHidden) ? 'Unhide' : 'Hide'), run: hideSelected },
    { id: 'merge', label: 'Merge', icon: 'users', pinned: true, enabled: (ids) => ids.length >= 2, run: mergeSelected },
  ], { label: 'Selected people', prompt: 'Select people' });

  const el = h('section', { class: 'screen people-screen', aria: { labelledby: 'people-title' } }, topbar, h('div', { class: 'scroll-wrap' }, scroller), bar);
  container.append(el);

  offs.push(selection.on('change', () => {
    selectBtn.textContent = selection.active ? 'Cancel' : 'Select';
    selectBtn.setAttribute('aria-pressed', String(selection.active));
    el.classList.toggle('selecting', selection.active);
    render();
  }));

  function setShowHidden(on) {
    showHidden = on;
    hiddenBtn.setAttribute('aria-pressed', String(on));
    try { localStorage.setItem(SHOW_HIDDEN_KEY, on ? '1' : '0'); } catch { /* private mode */ }
    selection.remove([...selection.ids].filter((id) => !shown().some((p) => p.id === id)));
    render();
  }

  const shown = () => people.list.filter((p) => showHidden || !p.isHidden);

  // ----- Drawing
  const facePx = () => bucket(Math.ceil(160 * dpr()));

  function render() {
    if (editing) { redrawWhenDone = true; return; }
    if (!people.loaded) return;
    const focusedID = document.activeElement?.closest?.('[data-person-id]')?.dataset.personId;
    const focusedRole = document.activeElement?.dataset?.testid;
    const all = shown();
    const hiddenCount = people.list.length - people.list.filter((p) => !p.isHidden).length;
    count.textContent = people.loaded ? plural(all.length, 'person', 'people') : '';
    selectBtn.disabled = all.length < 1;
    const drawn = all.map(cardOf);
    if (drawn.length !== list.children.length || drawn.some((li, i) => list.children[i] !== li)) list.replaceChildren(...drawn);
    for (const id of cards.keys()) if (!people.find(id)) cards.delete(id);
    list.hidden = !all.length;
    renderEmpty(all.length, hiddenCount);
    if (focusedID) {
      const again = list.querySelector(`[data-person-id="${CSS.escape(focusedID)}"] [data-testid="${focusedRole}"]`)
        || list.querySelector(`[data-person-id="${CSS.escape(focusedID)}"] .person-main`);
      again?.focus({ preventScroll: true });
    }
  }

  /** The cards drawn, by person, with what they were drawn from: a card is made again only when that changes. */
  const cards = new Map();
  function cardOf(p) {
    const from = JSON.stringify([p, selection.active, selection.has(p.id), facePx()]);
    const kept = cards.get(p.id);
    if (kept && kept.from === from) return kept.li;
    const li = card(p);
    cards.set(p.id, { from, li });
    return li;
  }

  function card(p) {
    const name = displayName(p);
    const photos = plural(p.assetCount || 0, 'photo');
    const countID = `person-count-${p.id}`;
    const face = p.keyFace
      ? h('img', { class: 'person-face', src: api.faceImageURL(p.keyFace.id, facePx(), p.keyFace.version), alt: '', loading: 'lazy', decoding: 'async', draggable: 'false' })
      : h('span', { class: 'person-face empty' }, icon('user'));
    const selecting = selection.active;
    const selected = selection.has(p.id);
    // One control per card lies over the whole card: the link to the person, or in selection mode a toggle. It
    // says the name; the name shown under the face is for the eyes (or, for someone unnamed, Add name).
    const spoken = h('span', { class: 'visually-hidden' }, p.name ? name : 'Unnamed person');
    const main = selecting
      ? h('button', { type: 'button', class: 'person-main', 'data-testid': 'person-toggle', aria: { pressed: String(selected), describedby: countID }, onclick: () => selection.toggle(p.id) }, spoken)
      : h('a', { href: `#/person/${encodeURIComponent(p.id)}`, class: 'person-main', 'data-testid': 'person-link', draggable: 'true', aria: { describedby: countID } }, spoken);
    const shownName = p.name
      ? h('span', { class: 'person-name', 'aria-hidden': 'true' }, name)
      : selecting ? h('span', { class: 'person-name unnamed', 'aria-hidden': 'true' }, 'Unnamed')
        : h('button', { type: 'button', class: 'btn small ghost person-add-name', 'data-testid': 'person-add-name', aria: { label: `Add name to the person in ${photos}` }, onclick: (e) => nameInPlace(p, e.currentTarget) }, 'Add name');
    const li = h('li', {
      class: ['person-card', p.isHidden && 'is-hidden', selected && 'selected'], 'data-testid': 'person-card', 'data-person-id': p.id,
    }, main, face, shownName,
    h('span', { class: 'person-count hint', id: countID }, p.isHidden ? `${photos} · hidden` : photos),
    selecting ? h('span', { class: 'person-check', 'aria-hidden': 'true' }, icon('check')) : null);
    if (!selecting) dragMerge(li, p);
    return li;
  }

  function renderEmpty(n, hiddenCount) {
    const s = people.status;
    let content = null;
    if (s && s.enabled === false) {
      content = emptyState('users', 'Faces are off', 'Sepia does not look for faces in this library, so there is no one here. Turn faces on and Sepia finds the faces in your photos and groups them into people, on this server: nothing leaves it.',
        h('button', { type: 'button', class: 'btn primary', 'data-testid': 'people-enable', onclick: enableFaces }, 'Turn On Faces'),
        h('a', { class: 'btn', href: '#/settings' }, 'Settings'));
    } else if (s && s.modelsMissing) {
      content = emptyState('warning', 'The face models are not installed', h('span', {}, 'Sepia needs dlib’s face models to find faces. On the server, run ', h('code', { class: 'kbd' }, 'scripts/setup'), ' (it installs them), then start Sepia again.'));
    } else if (!n && people.loaded) {
      if (hiddenCount && !showHidden) {
        content = emptyState('eyeOff', 'Everyone is hidden', 'The people found in your photos are all hidden from People.',
          h('button', { type: 'button', class: 'btn', onclick: () => setShowHidden(true) }, 'Show Hidden'));
      } else if (s && s.assetsToIndex > 0) {
        content = emptyState('users', 'Looking for faces', 'People appear here as Sepia finds the same face in several photos. It looks in the background; you can go on using Sepia meanwhile.');
      } else {
        content = emptyState('users', 'No people yet', 'People appear here once Sepia has found the same face in several photos. Add photos with people in them, and their faces are found and grouped by themselves.');
      }
    }
    empty.replaceChildren(...(content ? [content] : []));
  }

  const emptyState = (ic, title, text, ...actions) => h('div', { class: 'empty', 'data-testid': 'empty-state' },
    icon(ic, { cls: 'empty-icon' }), h('h2', {}, title), h('p', {}, text), actions.length ? h('div', { class: 'actions' }, actions) : null);

  function renderProgress() {
    const s = people.status;
    const running = s && s.enabled !== false && !s.modelsMissing && s.assetsToIndex > 0;
    progress.hidden = !running;
    if (!running) { progress.replaceChildren(); return; }
    const total = s.indexedAssets + s.assetsToIndex;
    const text = `Finding faces: ${s.indexedAssets.toLocaleString()} of ${plural(total, 'photo')}`;
    progress.replaceChildren(h('span', { class: 'spinner', 'aria-hidden': 'true' }), h('span', { class: 'people-progress-text' }, text),
      h('progress', { class: 'progress small', max: String(total), value: String(s.indexedAssets), aria: { label: 'Faces found so far' } }));
  }

  // ----- Naming in place, hiding and merging
  async function nameInPlace(p, button) {
    editing = true;
    const id = p.id;
    await editName(button, {
      value: '', label: 'Name', placeholder: 'Name', testid: 'person-name-input',
      returnFocus: () => list.querySelector(`[data-person-id="${CSS.escape(id)}"] .person-main`) || button,
      onSave: async (text) => (text ? !!(await renamePerson(p, text)) : true),
    });
    editing = false;
    if (redrawWhenDone) { redrawWhenDone = false; render(); }
  }

  async function hideSelected(ids) {
    const chosen = ids.map((id) => people.find(id)).filter(Boolean);
    const hide = !chosen.every((p) => p.isHidden);
    for (const p of chosen) await setPersonHidden(p, hide);
    selection.stop();
    people.load().catch(() => {});
  }

  async function mergeSelected(ids) {
    const chosen = people.list.filter((p) => ids.includes(p.id));
    if (chosen.length < 2) return;
    const target = await mergeTarget(chosen);
    if (!target) return;
    const merged = await mergePeople(target, chosen.filter((p) => p.id !== target.id));
    if (merged) selection.stop();
  }

  /**
   * Who the merged person is: the one named (when one is), else the one in the most photos; when several have
   * names, the user chooses whose name stays. Asks first either way; resolves null when cancelled.
   */
  async function mergeTarget(chosen) {
    const named = chosen.filter((p) => p.name);
    if (named.length > 1) return chooseName(named, chosen.length);
    const target = named[0] || chosen[0];
    const ok = await confirmDialog({
      title: `Merge ${plural(chosen.length, 'person', 'people')}?`,
      message: target.name
        ? `They become one person, “${target.name}”, with the photos of all of them. You can undo it.`
        : 'They become one person, with the photos of all of them. You can undo it.',
      confirmLabel: 'Merge', testid: 'merge-dialog',
    });
    return ok ? target : null;
  }

  function chooseName(named, n) {
    let d;
    const group = h('fieldset', { class: 'choices' }, h('legend', { class: 'field-label' }, 'Keep the name'),
      named.map((p, i) => h('label', { class: 'choice' }, h('input', { type: 'radio', name: 'merge-name', value: p.id, checked: i === 0 }), h('span', {}, p.name))));
    const ok = h('button', { type: 'button', class: 'btn primary', 'data-testid': 'confirm-ok', onclick: () => d.close(named.find((p) => p.id === group.querySelector('input:checked')?.value)) }, 'Merge');
    d = openDialog({
      title: `Merge ${plural(n, 'person', 'people')}?`, description: 'They become one person, with the photos of all of them. You can undo it.',
      body: group, actions: [h('button', { type: 'button', class: 'btn', 'data-testid': 'confirm-cancel', onclick: () => d.close(null) }, 'Cancel'), ok], testid: 'merge-dialog',
    });
    return d.closed.then((v) => v || null);
  }

  /** Dragging a person onto another merges them (asked first): the one dropped on keeps their name. */
  function dragMerge(li, p) {
    li.addEventListener('dragstart', (e) => { e.dataTransfer.setData('application/x-sepia-person', p.id); e.dataTransfer.effectAllowed = 'move'; li.classList.add('dragging'); });
    li.addEventListener('dragend', () => li.classList.remove('dragging'));
    li.addEventListener('dragover', (e) => {
      if (!e.dataTransfer.types.includes('application/x-sepia-person')) return;
      e.preventDefault();
      li.classList.add('drop-target');
    });
    li.addEventListener('dragleave', () => li.classList.remove('drop-target'));
    li.addEventListener('drop', async (e) => {
      li.classList.remove('drop-target');
      const from = people.find(e.dataTransfer.getData('application/x-sepia-person'));
      if (!from || from.id === p.id) return;
      e.preventDefault();
      const target = p.name || !from.name ? p : from;
      const ok = await confirmDialog({
        title: 'Merge these people?',
        message: `“${displayName(from)}” and “${displayName(p)}” become one person${target.name ? `, “${target.name}”` : ''}, with the photos of both. You can undo it.`,
        confirmLabel: 'Merge', testid: 'merge-dialog',
      });
      if (ok) mergePeople(target, [target === p ? from : p]);
    });
  }

  async function enableFaces(e) {
    const button = e.currentTarget;
    button.disabled = true;
    try {
      await api.setFacesEnabled(true);
      toast('Faces are on. Sepia looks for them in your photos in the background.');
      await refreshStatus();
    } catch (err) { toast.error(err, 'Faces could not be turned on.'); button.disabled = false; }
  }

  // ----- Loading, and keeping up
  let statusTimer = null;
  async function refreshStatus() {
    clearTimeout(statusTimer);
    try { await people.loadStatus(); } catch (e) { if (e?.name !== 'AbortError') console.warn(e); }
    const s = people.status;
    if (s && s.enabled !== false && !s.modelsMissing && s.assetsToIndex > 0 && el.isConnected) statusTimer = setTimeout(refreshStatus, STATUS_EVERY);
  }
  offs.push(people.on('status', () => { renderProgress(); render(); }));
  offs.push(people.on('list', () => {
    selection.remove([...selection.ids].filter((id) => !people.find(id)));
    render();
  }));
  offs.push(people.on('changed', () => { if (!people.status || people.status.assetsToIndex === 0) refreshStatus(); }));

  const onKey = (e) => {
    if (ctx.overlayActive() || keyBelongsToControl(e)) return;
    if (e.key === 'Escape' && selection.active) { e.preventDefault(); selection.stop(); }
  };
  document.addEventListener('keydown', onKey);

  async function load() {
    if (!people.loaded) list.replaceChildren(...Array.from({ length: 6 }, () => h('li', { class: 'person-card', 'aria-hidden': 'true' }, h('span', { class: 'person-face skeleton' }), h('span', { class: 'person-count' }, '\u00a0'))));
    try {
      await Promise.all([people.load(), refreshStatus()]);
    } catch (e) {
      list.replaceChildren();
      empty.replaceChildren(h('div', { class: 'empty', role: 'alert' }, icon('cloudOff', { cls: 'empty-icon' }), h('h2', {}, 'People could not be loaded'), h('p', {}, e.message),
        h('div', { class: 'actions' }, h('button', { type: 'button', class: 'btn primary', onclick: load }, 'Try Again'))));
    }
  }
  load();
  if (people.loaded) { render(); renderProgress(); }

  return {
    el,
    show() { el.inert = false; },
    hide() { el.inert = true; },
    unmount() {
      clearTimeout(statusTimer);
      offs.forEach((off) => off());
      bar.destroy?.();
      document.removeEventListener('keydown', onKey);
      el.remove();
    },
  };
}
