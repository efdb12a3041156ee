// Photos' Info panel and Adjust Date & Time: an editable title, caption, keywords (add/remove), a rating in
// stars, the capture date and time with its time zone, and the location as coordinates with Remove Location.
// Each change is saved at once (PATCH /api/v1/assets/{id}); the library keeps the file's own date and place,
// which the panel shows beside edited ones and can bring back. adjustDateDialog() also shifts a selection.
import { api } from '../api.js';
import { h, plural, formatOffset, formatCoordinate } from '../util.js';
import { store } from '../store.js';
import { openDialog } from './dialog.js';
import { toast } from './toast.js';

export const LIMITS = { title: 500, caption: 5000, keyword: 200, keywords: 200 };

/** Offsets from GMT a zone may have, in seconds: −12:00 to +14:00 by quarter hours. */
const OFFSETS = Array.from({ length: (26 * 4) + 1 }, (_, i) => (i - 48) * 900);

/** "2024-05-01T14:30:00+02:00" → { date: '2024-05-01', time: '14:30:00', offset: 7200 } (offset null when unknown). */
export function splitLocal(localCreationDate, offset) {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})/.exec(localCreationDate || '');
  return m ? { date: m[1], time: m[2], offset: offset ?? null } : { date: '', time: '', offset: offset ?? null };
}

/** "+02:00" for 7200. */
export function offsetText(seconds) {
  const sign = seconds < 0 ? '-' : '+';
  const abs = Math.abs(seconds);
  return `${sign}${String(Math.floor(abs / 3600)).padStart(2, '0')}:${String(Math.floor((abs % 3600) / 60)).padStart(2, '0')}`;
}

/** Seconds since the epoch of a local date and time read at an offset (UTC when null). */
function instant(date, time, offset) {
  const t = time.length === 5 ? time + ':00' : time;
  return Date.parse(`${date}T${t}Z`) / 1000 - (offset ?? 0);
}

async function patchOne(id, body, failure) {
  try {
    const updated = await api.patchAsset(id, body);
    store.rememberAssets([updated]);
    store.emit('assets-updated', [updated]);
    return updated;
  } catch (e) {
    toast.error(e, failure);
    return null;
  }
}

/**
 * The editable part of the Info panel for one photo: returns a node. `onChange(updated)` is called with the
 * asset the server answered after each saved change.
 */
export function metadataEditor(asset, { onChange, editable = true }) {
  const id = asset.id;
  const save = async (body, failure) => {
    const updated = await patchOne(id, body, failure);
    if (updated) onChange(updated);
    return updated;
  };

  // Title and caption: saved on Enter (a caption takes Shift+Enter for new lines), the field keeping the focus,
  // or when they lose it.
  const title = h('input', { class: 'input meta-title', type: 'text', value: asset.title || '', placeholder: 'Add a Title', maxlength: String(LIMITS.title), 'data-testid': 'info-title', aria: { label: 'Title' }, disabled: !editable || null });
  const caption = h('textarea', { class: 'input meta-caption', rows: '2', placeholder: 'Add a Caption', maxlength: String(LIMITS.caption), 'data-testid': 'info-caption', aria: { label: 'Caption' }, disabled: !editable || null });
  caption.value = asset.caption || '';
  caption.defaultValue = caption.value;
  const commit = (field, input) => {
    const value = input.value.trim();
    // What was typed is the field's saved text from now on (a redraw keeps only what is typed after it).
    input.defaultValue = input.value;
    if (value === (asset[field] || '')) return;
    save({ [field]: value || null }, `The ${field} could not be saved.`);
  };
  title.addEventListener('change', () => commit('title', title));
  title.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); commit('title', title); } });
  caption.addEventListener('change', () => commit('caption', caption));
  caption.addEventListener('keydown', (e) => { if (e.key === 'Enter' && !e.shiftKey) { e.preventDefault(); commit('caption', caption); } });

  // Rating: five toggle buttons; pressing the current rating clears it.
  const stars = h('div', { class: 'meta-stars', role: 'group', 'data-testid': 'info-rating', aria: { label: `Rating: ${asset.rating || 0} of 5 stars` } },
    [1, 2, 3, 4, 5].map((n) => h('button', {
      type: 'button', class: ['star', n <= (asset.rating || 0) && 'on'], 'data-testid': `info-star-${n}`, disabled: !editable || null,
      aria: { label: `${n} star${n > 1 ? 's' : ''}`, pressed: String(n === asset.rating) },
      onclick: () => save({ rating: n === asset.rating ? 0 : n }, 'The rating could not be saved.'),
    }, n <= (asset.rating || 0) ? '★' : '☆')));

  // Keywords: chips with a remove button, and a field that adds on Enter or comma.
  const chips = h('ul', { class: 'meta-keywords', 'data-testid': 'info-keywords', aria: { label: 'Keywords' } },
    (asset.keywords || []).map((k) => h('li', { class: 'chip' }, h('span', {}, k),
      editable ? h('button', { type: 'button', class: 'chip-x', aria: { label: `Remove keyword ${k}` }, 'data-testid': 'keyword-remove', onclick: () => save({ removeKeywords: [k] }, 'The keyword could not be removed.') }, '×') : null)));
  const add = h('input', { class: 'input meta-keyword-input', type: 'text', placeholder: 'Add a Keyword', maxlength: String(LIMITS.keyword), 'data-testid': 'info-keyword-input', aria: { label: 'Add a keyword (Enter)' }, hidden: !editable || null });
  add.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' && e.key !== ',') return;
    e.preventDefault();
    const words = add.value.split(',').map((w) => w.trim()).filter(Boolean);
    if (!words.length) return;
    if ((asset.keywords || []).length + words.length > LIMITS.keywords) { toast(`A photo can have at most ${LIMITS.keywords} keywords.`); return; }
    add.value = '';
    save({ addKeywords: words }, 'The keyword could not be added.');
  });

  // Date and time with the zone, and the file's own when it was adjusted.
  const file = asset.file || {};
  const dateText = describeDate(asset.localCreationDate, asset.creationDateOffset);
  const adjust = h('button', { type: 'button', class: 'btn small', 'data-testid': 'info-adjust-date', hidden: !editable || null, onclick: () => adjustDateDialog([asset]).then((u) => { if (u?.[0]) onChange(u[0]); }) }, 'Adjust…');
  const dateRow = h('div', { class: 'meta-row' }, h('span', { 'data-testid': 'info-date-text' }, dateText), adjust);
  const dateOriginal = asset.creationDateEdited
    ? h('p', { class: 'meta-original hint', 'data-testid': 'info-date-original' }, `Original: ${describeFileDate(file)}`)
    : null;

  // Location: coordinates, Edit…, Remove Location, and the file's when it was changed.
  const loc = asset.location;
  const placeText = loc ? `${formatCoordinate(loc.latitude, 'N', 'S')}, ${formatCoordinate(loc.longitude, 'E', 'W')}${loc.altitude != null ? ` · ${Math.round(loc.altitude)} m` : ''}` : 'No location';
  const placeRow = h('div', { class: 'meta-row' }, h('span', { 'data-testid': 'info-place-text' }, placeText),
    editable ? h('button', { type: 'button', class: 'btn small', 'data-testid': 'info-edit-location', onclick: () => locationDialog(asset).then((u) => { if (u) onChange(u); }) }, loc ? 'Edit…' : 'Add…') : null,
    editable && loc ? h('button', { type: 'button', class: 'btn small', 'data-testid': 'info-remove-location', onclick: () => save({ location: null }, 'The location could not be removed.') }, 'Remove Location') : null);
  const placeOriginal = asset.locationEdited
    ? h('p', { class: 'meta-original hint', 'data-testid': 'info-place-original' },
      `Original: ${file.location ? `${formatCoordinate(file.location.latitude, 'N', 'S')}, ${formatCoordinate(file.location.longitude, 'E', 'W')}` : 'no location'} `,
      editable ? h('button', { type: 'button', class: 'btn link small', 'data-testid': 'info-revert-location', onclick: () => save({ revert: ['location'] }, 'The location could not be reverted.') }, 'Revert') : null)
    : null;

  // A form: keys pressed in it are the fields' and the buttons', never the viewer's shortcuts (keyBelongsToControl).
  return h('form', { class: 'meta-editor', 'data-testid': 'info-metadata', onsubmit: (e) => e.preventDefault() },
    title, caption, stars,
    h('div', { class: 'meta-field' }, h('span', { class: 'meta-label' }, 'Keywords'), chips, add),
    h('div', { class: 'meta-field' }, h('span', { class: 'meta-label' }, 'Date & Time'), dateRow, dateOriginal),
    h('div', { class: 'meta-field' }, h('span', { class: 'meta-label' }, 'Location'), placeRow, placeOriginal));
}

function describeDate(local, offset) {
  if (!local) return 'Unknown date';
  const { date, time } = splitLocal(local, offset);
  const d = new Date(`${date}T${time}Z`);
  const text = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' }).format(d);
  return `${text} ${offset != null ? formatOffset(offset) : '(time zone unknown)'}`;
}

function describeFileDate(file) {
  if (!file?.creationDate) return 'unknown';
  const offset = file.creationDateOffset;
  const shifted = new Date(new Date(file.creationDate).getTime() + (offset ?? 0) * 1000);
  const text = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' }).format(shifted);
  return `${text} ${offset != null ? formatOffset(offset) : '(time zone unknown)'}`;
}

function zoneSelect(id, selected, { keepLabel } = {}) {
  const options = [];
  if (keepLabel) options.push(h('option', { value: 'keep', selected: selected === 'keep' || null }, keepLabel));
  options.push(h('option', { value: 'unknown', selected: selected === null || null }, 'Unknown'));
  for (const o of OFFSETS) options.push(h('option', { value: String(o), selected: selected === o || null }, formatOffset(o)));
  return h('select', { id, class: 'input', 'data-testid': 'adjust-zone' }, options);
}

/**
 * Adjust Date & Time for one photo (its date, time and zone) or a selection (the first photo's new date and
 * time give the interval every photo moves by; each keeps its own zone unless one is chosen).
 * Resolves with the updated assets, or null when cancelled.
 */
export function adjustDateDialog(assets) {
  const first = assets[0];
  const many = assets.length > 1;
  const local = splitLocal(first.localCreationDate, first.creationDateOffset);
  const uid = Math.random().toString(36).slice(2, 8);
  const dateInput = h('input', { id: 'adj-date-' + uid, class: 'input', type: 'date', value: local.date, required: true, min: '1800-01-01', max: '9999-12-31', 'data-testid': 'adjust-date' });
  const timeInput = h('input', { id: 'adj-time-' + uid, class: 'input', type: 'time', step: '1', value: local.time, required: true, 'data-testid': 'adjust-time' });
  const zone = zoneSelect('adj-zone-' + uid, many ? 'keep' : local.offset, { keepLabel: many ? 'Keep each photo’s own' : null });
  const error = h('p', { class: 'form-error', role: 'alert', hidden: true, 'data-testid': 'adjust-error' });
  const file = first.file || {};
  const original = h('p', { class: 'hint' }, `Original: ${describeFileDate(file)}`);
  const form = h('form', { class: 'stack adjust-form', onsubmit: (e) => { e.preventDefault(); submit(); } },
    many ? h('p', {}, `Set the date and time of the first photo. The other ${plural(assets.length - 1, 'photo')} move by the same amount.`) : null,
    h('div', { class: 'field-row' },
      h('div', { class: 'field' }, h('label', { for: dateInput.id }, 'Date'), dateInput),
      h('div', { class: 'field' }, h('label', { for: timeInput.id }, 'Time'), timeInput)),
    h('div', { class: 'field' }, h('label', { for: zone.id }, 'Time Zone'), zone),
    original, error);
  const revert = !many && first.creationDateEdited
    ? h('button', { type: 'button', class: 'btn', 'data-testid': 'adjust-revert', onclick: () => send({ revert: ['creationDate'] }) }, 'Revert to Original')
    : null;
  const cancel = h('button', { type: 'button', class: 'btn', onclick: () => d.close(null) }, 'Cancel');
  const ok = h('button', { type: 'button', class: 'btn primary', 'data-testid': 'adjust-ok', onclick: submit }, 'Adjust');
  const d = openDialog({ title: 'Adjust Date & Time', body: form, actions: [revert, cancel, ok].filter(Boolean), testid: 'adjust-date-dialog', initialFocus: () => dateInput });

  function fail(text) { error.textContent = text; error.hidden = false; }

  async function send(body) {
    ok.disabled = true;
    try {
      const res = many ? await api.patchAssets(assets.map((a) => a.id), body) : { assets: [await api.patchAsset(first.id, body)] };
      store.rememberAssets(res.assets);
      store.emit('assets-updated', res.assets);
      toast(many ? `Adjusted the date and time of ${plural(assets.length, 'photo')}.` : 'Date and time adjusted. The original is kept.');
      d.close(res.assets);
    } catch (e) {
      fail(e.message || 'The date could not be changed.');
      ok.disabled = false;
    }
  }

  function submit() {
    const date = dateInput.value;
    const time = timeInput.value;
    if (!date || !time) { fail('Enter a date and a time.'); return; }
    const year = Number(date.slice(0, 4));
    if (!(year >= 1800 && year <= 9999)) { fail('The year must be between 1800 and 9999.'); return; }
    const z = zone.value;
    if (!many) {
      const t = time.length === 5 ? time + ':00' : time;
      const offset = z === 'unknown' ? '' : offsetText(Number(z));
      send({ creationDate: `${date}T${t}${offset}` });
      return;
    }
    // The first photo's clock time moves from what it showed to what was entered: that interval, for all.
    const before = instant(local.date, local.time, 0);
    const after = instant(date, time, 0);
    const shift = { seconds: after - before };
    if (z !== 'keep') {
      if (z === 'unknown') { fail('A selection can keep its zones or take a new one; choose a zone.'); return; }
      shift.timeZone = offsetText(Number(z));
    }
    send({ shiftCreationDate: shift });
  }
  return d.closed;
}

/** Coordinates for a photo, with Remove Location and Revert; resolves with the updated asset or null. */
export function locationDialog(asset) {
  const loc = asset.location || {};
  const uid = Math.random().toString(36).slice(2, 8);
  const field = (name, label, value, min, max) => {
    const input = h('input', { id: `loc-${name}-${uid}`, class: 'input', type: 'number', step: 'any', min: String(min), max: String(max), value: value ?? '', 'data-testid': `location-${name}`, inputmode: 'decimal' });
    return [input, h('div', { class: 'field' }, h('label', { for: input.id }, label), input)];
  };
  const [lat, latField] = field('latitude', 'Latitude (−90 to 90)', loc.latitude, -90, 90);
  const [lon, lonField] = field('longitude', 'Longitude (−180 to 180)', loc.longitude, -180, 180);
  const [alt, altField] = field('altitude', 'Altitude in metres (optional)', loc.altitude, -11000, 100000);
  const error = h('p', { class: 'form-error', role: 'alert', hidden: true, 'data-testid': 'location-error' });
  const form = h('form', { class: 'stack', onsubmit: (e) => { e.preventDefault(); submit(); } }, h('div', { class: 'field-row' }, latField, lonField), altField, error);
  const remove = asset.location ? h('button', { type: 'button', class: 'btn danger', 'data-testid': 'location-remove', onclick: () => send({ location: null }) }, 'Remove Location') : null;
  const cancel = h('button', { type: 'button', class: 'btn', onclick: () => d.close(null) }, 'Cancel');
  const ok = h('button', { type: 'button', class: 'btn primary', 'data-testid': 'location-ok', onclick: submit }, 'Save');
  const d = openDialog({ title: 'Location', body: form, actions: [remove, cancel, ok].filter(Boolean), testid: 'location-dialog', initialFocus: () => lat });

  async function send(body) {
    const updated = await patchOne(asset.id, body, 'The location could not be saved.');
    if (updated) { toast(body.location === null ? 'Location removed. The original is kept.' : 'Location saved. The original is kept.'); d.close(updated); }
  }

  function submit() {
    const latitude = Number(lat.value);
    const longitude = Number(lon.value);
    const altitude = alt.value === '' ? null : Number(alt.value);
    const problem = lat.value === '' || !Number.isFinite(latitude) || Math.abs(latitude) > 90 ? 'Enter a latitude from −90 to 90.'
      : lon.value === '' || !Number.isFinite(longitude) || Math.abs(longitude) > 180 ? 'Enter a longitude from −180 to 180.'
        : altitude != null && !(Number.isFinite(altitude) && altitude >= -11000 && altitude <= 100000) ? 'Enter an altitude from −11000 to 100000 metres, or leave it empty.' : null;
    if (problem) { error.textContent = problem; error.hidden = false; return; }
    send({ location: altitude == null ? { latitude, longitude } : { latitude, longitude, altitude } });
  }
  return d.closed;
}
