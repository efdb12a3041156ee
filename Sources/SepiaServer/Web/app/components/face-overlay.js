// The faces of the photo in the detail view: each outlined where it is in the picture, with its person's name
// (or Unnamed) under it. Shown while Faces is on (the toolbar's button, or F; off when the app starts, then kept
// from photo to photo). A face is a button: it opens a small panel with what can be said about it — go to the
// person, Not this person, and who it is, typed with the names of People offered (a combobox). For a face of an
// unnamed person a new name names the person; otherwise the face goes to the person named, or to a new one.
import { api } from '../api.js';
import { h, uid } from '../util.js';
import { icon } from '../icons.js';
import { toast } from './toast.js';
import { nameCombobox } from './name-combobox.js';
import { people, assignFace, rejectFace, renamePerson } from '../people.js';
import { displayName, matchPeople, personNamed } from '../person-names.js';

/** Faces on or off, for every photo opened until the app is loaded again. */
let facesShown = false;

/**
 * faceOverlay({stage, picture, go}) → {button, layer, setAsset(asset), toggle(), place(), destroy()}
 * `picture` is the element the photo is drawn in (object-fit: contain); `go(hash)` navigates.
 */
export function faceOverlay({ stage, picture, go }) {
  let asset = null;
  let faces = [];
  let request = null;
  let popover = null;

  const button = h('button', { type: 'button', class: 'btn icon ghost', 'data-testid': 'detail-faces', aria: { label: 'Faces', pressed: String(facesShown) }, title: 'Show faces (F)', onclick: () => toggle() }, icon('face'));
  const layer = h('div', { class: 'face-layer', 'data-testid': 'face-layer', hidden: true });
  const note = h('div', { class: 'face-note', role: 'status', 'data-testid': 'face-note' });
  stage.append(layer, note);

  function toggle(on = !facesShown) {
    facesShown = on;
    sync();
  }

  function sync() {
    button.setAttribute('aria-pressed', String(facesShown));
    button.title = facesShown ? 'Hide faces (F)' : 'Show faces (F)';
    layer.hidden = !facesShown;
    closePopover(false);
    if (facesShown) load(); else { note.textContent = ''; note.hidden = true; }
  }

  /** The photo shown changed (another one, or a new version of it). */
  function setAsset(a) {
    const changed = !asset || !a || a.id !== asset.id || a.version !== asset.version;
    asset = a;
    // Videos: the player's controls take the picture; faces are for stills. Nor for an item in Recently Deleted.
    button.hidden = !a || a.mediaType === 'video' || !!a.trashedDate;
    if (!changed) { place(); return; }
    faces = [];
    layer.replaceChildren();
    closePopover(false);
    if (facesShown && !button.hidden) load();
    else { note.hidden = true; layer.hidden = !facesShown || button.hidden; }
    place();
  }

  async function load() {
    if (!asset || button.hidden) return;
    const forAsset = asset.id;
    request?.abort();
    request = new AbortController();
    try {
      const [res] = await Promise.all([api.assetFaces(forAsset, request.signal),
        people.status ? null : people.loadStatus().catch(() => null), people.loaded ? null : people.load().catch(() => null)]);
      if (!asset || asset.id !== forAsset) return;
      faces = res?.faces || [];
      draw();
    } catch (e) {
      if (e?.name === 'AbortError') return;
      faces = [];
      draw();
      toast.error(e, 'The faces of this photo could not be loaded.');
    }
  }

  function draw() {
    // Drawn again (a name changed, here or elsewhere): the keyboard stays on the face it was on.
    const focused = layer.contains(document.activeElement) ? document.activeElement.dataset.faceId : null;
    layer.hidden = !facesShown;
    layer.replaceChildren(...faces.map((f, i) => {
      const b = f.boundingBox || {};
      const name = f.personID ? (f.personName || 'Unnamed') : 'Unnamed';
      const box = h('button', {
        type: 'button', class: ['face-box', !f.personID && 'unassigned'], 'data-testid': 'face-box', 'data-face-id': f.id,
        'data-person-id': f.personID || '',
        aria: { label: f.personID ? `Face of ${f.personName || 'an unnamed person'}` : 'Face of someone not named yet', haspopup: 'dialog', expanded: 'false' },
        onclick: (e) => openPopover(f, e.currentTarget),
      }, h('span', { class: 'face-name', 'data-testid': 'face-name', 'aria-hidden': 'true' }, name));
      Object.assign(box.style, { left: `${pct(b.x)}%`, top: `${pct(b.y)}%`, width: `${pct(b.width)}%`, height: `${pct(b.height)}%` });
      box.dataset.index = String(i);
      return box;
    }));
    const s = people.status;
    note.hidden = faces.length > 0;
    note.textContent = faces.length ? `${faces.length} face${faces.length === 1 ? '' : 's'}` : s?.enabled === false
      ? 'Faces are off: turn them on in Settings.'
      : s?.assetsToIndex > 0 ? 'No faces found in this photo yet: Sepia is still looking.' : 'No faces found in this photo.';
    place();
    if (focused) layer.querySelector(`[data-face-id="${CSS.escape(focused)}"]`)?.focus({ preventScroll: true });
  }

  const pct = (v) => Math.max(0, Math.min(100, Number(v || 0) * 100));

  /** Lays the faces over the picture as drawn: the box `contain` gives it inside the picture's element. */
  function place() {
    if (!asset?.width || !asset?.height || layer.hidden) return;
    const s = stage.getBoundingClientRect();
    const r = picture.getBoundingClientRect();
    if (!r.width || !r.height) return;
    const k = Math.min(r.width / asset.width, r.height / asset.height);
    const w = asset.width * k;
    const hh = asset.height * k;
    Object.assign(layer.style, {
      left: `${r.left - s.left + (r.width - w) / 2}px`, top: `${r.top - s.top + (r.height - hh) / 2}px`, width: `${w}px`, height: `${hh}px`,
    });
    if (popover) popover.place();
  }

  // ----- The panel of a face
  function openPopover(face, box) {
    if (popover?.face.id === face.id) { closePopover(true); return; }
    closePopover(false);
    const titleID = uid('face-title');
    const person = face.personID ? people.find(face.personID) : null;
    const named = !!face.personName;
    const inputID = uid('face-name');
    const input = h('input', { id: inputID, class: 'input', type: 'text', maxlength: '64', placeholder: 'Type a name', spellcheck: 'false', 'data-testid': 'face-name-input' });
    const combo = nameCombobox({
      input, listTestid: 'face-name-options',
      offers: (text, { all } = {}) => offersFor(face, text, all),
      onChoose: (o) => name(face, o),
      onEnter: (text) => { if (text) name(face, { value: { name: text } }); },
      onRender: () => popover?.place(),
    });
    const actions = [];
    if (face.personID) {
      actions.push(h('button', { type: 'button', class: 'btn small', 'data-testid': 'face-go-person', onclick: () => { closePopover(false); go(`#/person/${encodeURIComponent(face.personID)}`); } },
        icon('user'), named ? `Show ${face.personName}` : 'Show this person'));
      actions.push(h('button', { type: 'button', class: 'btn small', 'data-testid': 'face-not-person', onclick: () => notThisPerson(face) },
        icon('close'), named ? `Not ${face.personName}` : 'Not this person'));
    }
    const label = !face.personID ? 'Who is this?' : named ? 'This is someone else:' : 'Name this person:';
    const el = h('div', { class: 'face-popover', role: 'dialog', 'data-testid': 'face-popover', aria: { labelledby: titleID } },
      h('div', { class: 'face-popover-head' },
        h('img', { class: 'face-popover-face', src: api.faceImageURL(face.id, 128), alt: '' }),
        h('h2', { id: titleID, class: 'face-popover-title' }, face.personID ? (face.personName || 'Unnamed person') : 'Unnamed face'),
        h('button', { type: 'button', class: 'btn icon small ghost', aria: { label: 'Close' }, onclick: () => closePopover(true) }, icon('close'))),
      actions.length ? h('div', { class: 'face-popover-actions' }, actions) : null,
      h('div', { class: 'field combo' }, h('label', { for: inputID }, label), input, combo.list, combo.status),
      person?.isHidden ? h('p', { class: 'hint' }, 'This person is hidden from People.') : null);
    el.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') { e.preventDefault(); e.stopPropagation(); closePopover(true); }
    });
    el.addEventListener('focusout', (e) => {
      if (e.relatedTarget && !el.contains(e.relatedTarget) && e.relatedTarget !== box) closePopover(false);
    });
    stage.append(el);
    box.setAttribute('aria-expanded', 'true');
    box.classList.add('open');
    const outside = (e) => { if (!el.contains(e.target) && !box.contains(e.target)) closePopover(false); };
    document.addEventListener('pointerdown', outside, true);
    popover = {
      face, el, box,
      place() {
        const s = stage.getBoundingClientRect();
        const b = box.getBoundingClientRect();
        const w = el.offsetWidth;
        const ph = el.offsetHeight;
        let top = b.bottom - s.top + 28;
        if (top + ph > s.height - 8) top = Math.max(8, b.top - s.top - ph - 8);
        el.style.top = `${top}px`;
        el.style.left = `${Math.max(8, Math.min(s.width - w - 8, b.left - s.left + b.width / 2 - w / 2))}px`;
      },
      close(focusBox) {
        document.removeEventListener('pointerdown', outside, true);
        combo.close();
        el.remove();
        box.setAttribute('aria-expanded', 'false');
        box.classList.remove('open');
        if (focusBox && box.isConnected) box.focus({ preventScroll: true });
      },
    };
    popover.place();
    (face.personID ? actions[0] : input).focus({ preventScroll: true });
  }

  function closePopover(focusBox) {
    const p = popover;
    popover = null;
    p?.close(focusBox);
  }

  /** The names offered for a face: the people whose name matches (not its own person), then a new person. */
  function offersFor(face, text, all) {
    const named = people.named();
    const matches = text.trim() ? matchPeople(named, text, { exclude: face.personID }) : all ? named.filter((p) => p.id !== face.personID).slice(0, 8) : [];
    const offers = matches.map((p) => ({
      id: p.id, label: p.name, detail: `${p.assetCount} photo${p.assetCount === 1 ? '' : 's'}`, testid: 'face-name-option',
      image: p.keyFace ? api.faceImageURL(p.keyFace.id, 128, p.keyFace.version) : null, value: { personID: p.id },
    }));
    const typed = text.trim();
    if (typed && !personNamed(named, typed)) offers.push({ id: '', label: `“${typed}”`, detail: 'New person', icon: 'plus', testid: 'face-name-new', value: { name: typed } });
    return offers;
  }

  /** Says who the face is: a person of People, or a name (a new person; for an unnamed person's face, their name). */
  async function name(face, offer) {
    const who = offer.value;
    const box = popover?.box;
    if (!people.loaded) await people.load().catch(() => {});
    const existing = who.name ? personNamed(people.named(), who.name) : null;
    let ok;
    if (who.name && !existing && face.personID && !face.personName) {
      const person = people.find(face.personID) || await api.person(face.personID).catch(() => null);
      ok = person ? !!(await renamePerson(person, who.name)) : !!(await assignFace(face, who));
    } else {
      ok = !!(await assignFace(face, existing ? { personID: existing.id } : who));
    }
    if (!ok) return;
    closePopover(false);
    await load();
    const again = layer.querySelector(`[data-face-id="${CSS.escape(face.id)}"]`) || box;
    again?.focus?.({ preventScroll: true });
  }

  async function notThisPerson(face) {
    const updated = await rejectFace(face);
    if (!updated) return;
    closePopover(false);
    await load();
    layer.querySelector(`[data-face-id="${CSS.escape(face.id)}"]`)?.focus({ preventScroll: true });
  }

  const resized = new ResizeObserver(() => place());
  resized.observe(stage);
  const offs = [
    people.on('changed', () => { if (facesShown && asset && !popover) load(); }),
    // While faces are being found, a photo with none yet may get some (a face that joins no one changes no person).
    people.on('status', () => { if (facesShown && asset && !faces.length && !popover) load(); }),
  ];

  sync();
  return {
    button, layer, setAsset, toggle, place,
    get shown() { return facesShown; },
    destroy() { request?.abort(); closePopover(false); resized.disconnect(); offs.forEach((off) => off()); layer.remove(); note.remove(); },
  };
}
