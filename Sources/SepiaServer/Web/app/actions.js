// Operations on photos shared by the library selection and the detail view: favourite, hide, delete (to
// Recently Deleted, with a confirmation that says how many and for how long), recover and delete for good
// from Recently Deleted, download, add to album, copy and paste edits, edit presets (save, delete, apply to
// photos).
import { api } from './api.js';
import { h, plural, download, pool } from './util.js';
import { store } from './store.js';
import { confirmDialog, openDialog, promptDialog } from './components/dialog.js';
import { icon } from './icons.js';
import { toast } from './components/toast.js';
import { pickAlbum } from './components/album-picker.js';
import { downloadDialog } from './components/download-dialog.js';
import { errorContent } from './components/error-text.js';
import { parseRecipe, portableSteps, pasteInto, recipeOf } from './recipe.js';

export async function setFavorite(ids, isFavorite) {
  try {
    const res = ids.length === 1 ? { assets: [await api.patchAsset(ids[0], { isFavorite })] } : await api.patchAssets(ids, { isFavorite });
    store.rememberAssets(res.assets);
    store.emit('assets-updated', res.assets || []);
    toast(isFavorite ? `Added ${plural(ids.length, 'photo')} to Favorites.` : `Removed ${plural(ids.length, 'photo')} from Favorites.`);
    return res.assets || [];
  } catch (e) {
    toast.error(e, 'The photos could not be changed.');
    return null;
  }
}

export async function setHidden(ids, isHidden) {
  try {
    const res = ids.length === 1 ? { assets: [await api.patchAsset(ids[0], { isHidden })] } : await api.patchAssets(ids, { isHidden });
    store.rememberAssets(res.assets);
    store.emit('assets-updated', res.assets || []);
    toast(isHidden ? `${plural(ids.length, 'photo')} hidden. Find ${ids.length === 1 ? 'it' : 'them'} in Hidden.` : `${plural(ids.length, 'photo')} shown in the library again.`);
    return res.assets || [];
  } catch (e) {
    toast.error(e, 'The photos could not be changed.');
    return null;
  }
}

/** Asks first; resolves true when the photos moved to Recently Deleted. */
export async function deletePhotos(ids) {
  const n = ids.length;
  const days = plural(store.retentionDays, 'day');
  const ok = await confirmDialog({
    title: n === 1 ? 'Delete this photo?' : `Delete ${n.toLocaleString()} photos?`,
    message: n === 1
      ? `The photo moves to Recently Deleted, with its edits and albums, for ${days}. Recover it from there until then; after that it is deleted for good.`
      : `These ${n.toLocaleString()} photos move to Recently Deleted, with their edits and albums, for ${days}. Recover them from there until then; after that they are deleted for good.`,
    confirmLabel: n === 1 ? 'Delete Photo' : `Delete ${n.toLocaleString()} Photos`,
    destructive: true,
    testid: 'delete-dialog',
  });
  if (!ok) return false;
  try {
    if (n === 1) await api.deleteAsset(ids[0]); else await api.deleteAssets(ids);
    ids.forEach((id) => store.assets.delete(id));
    store.emit('assets-deleted', ids);
    store.loadAlbums().catch(() => {});
    toast(`${plural(n, 'photo')} moved to Recently Deleted.`, { action: { label: 'Undo', run: () => recoverPhotos(ids) } });
    return true;
  } catch (e) {
    toast.error(e, 'The photos could not be deleted.');
    return false;
  }
}

/** Brings photos back from Recently Deleted, into their albums; resolves true when done. */
export async function recoverPhotos(ids) {
  const n = ids.length;
  try {
    if (n === 1) await api.recoverAsset(ids[0]); else await api.recoverAssets(ids);
    store.emit('assets-recovered', ids);
    store.loadAlbums().catch(() => {});
    toast(n === 1 ? 'Recovered. The photo is back in your library and its albums.' : `${plural(n, 'photo')} recovered, back in your library and their albums.`);
    return true;
  } catch (e) {
    toast.error(e, 'The photos could not be recovered.');
    return false;
  }
}

/** Asks first, saying it cannot be undone; resolves true when the photos are deleted for good. */
export async function deletePhotosNow(ids) {
  const n = ids.length;
  const ok = await confirmDialog({
    title: n === 1 ? 'Delete this photo now?' : `Delete ${n.toLocaleString()} photos now?`,
    message: n === 1
      ? 'The photo, its original file and its edits are deleted for good. This cannot be undone.'
      : `These ${n.toLocaleString()} photos, their original files and their edits are deleted for good. This cannot be undone.`,
    confirmLabel: n === 1 ? 'Delete Now' : `Delete ${n.toLocaleString()} Now`,
    destructive: true,
    testid: 'delete-now-dialog',
  });
  if (!ok) return false;
  try {
    if (n === 1) await api.deleteAsset(ids[0], { permanently: true }); else await api.deleteAssets(ids, { permanently: true });
    ids.forEach((id) => store.assets.delete(id));
    store.emit('assets-deleted', ids);
    store.loadAlbums().catch(() => {});
    toast(`${plural(n, 'photo')} deleted for good.`);
    return true;
  } catch (e) {
    toast.error(e, 'The photos could not be deleted.');
    return false;
  }
}

/**
 * Downloads the selection as one ZIP file, of the originals or the current versions (asked first): the server
 * makes the selection's link, which the browser then saves as it would any download, however large.
 */
export async function downloadPhotos(ids) {
  const n = ids.length;
  const version = await downloadDialog({
    title: n === 1 ? 'Download this item' : `Download ${n.toLocaleString()} items`,
    message: 'They download as one ZIP file.',
  });
  if (!version) return;
  try {
    const { url } = await api.createDownload(ids, version);
    download(url);
    toast(`Downloading ${plural(n, 'item')} as a ZIP file…`);
  } catch (e) {
    toast.error(e, 'The download could not be prepared.');
  }
}

/** Downloads an album as one ZIP file, of its originals or current versions (asked first). */
export async function downloadAlbum(album) {
  const title = album?.title || 'album';
  const version = await downloadDialog({ title: `Download “${title}”`, message: 'The album downloads as one ZIP file.' });
  if (!version) return;
  download(api.albumDownloadURL(album.id, version));
  toast(`Downloading “${title}” as a ZIP file…`);
}

export async function addToAlbum(ids) {
  const album = await pickAlbum();
  if (!album) return null;
  try {
    await api.addToAlbum(album.id, ids);
    store.loadAlbums().catch(() => {});
    toast.success(`Added ${plural(ids.length, 'photo')} to “${album.title}”.`, { action: { label: 'Show', run: () => { location.hash = `#/album/${album.id}`; } } });
    return album;
  } catch (e) {
    toast.error(e, 'The photos could not be added to the album.');
    return null;
  }
}

/** Copies a photo's look (its filter steps; crop and rotation stay with the photo). */
export async function copyEditsOf(id) {
  try {
    const edit = await api.edit(id);
    const recipe = edit?.current?.recipe;
    const steps = portableSteps(recipe);
    if (!steps.length) {
      toast('This photo has no filter to copy.');
      return false;
    }
    store.setCopiedEdit({ ...recipeOf(steps), from: id, copiedAt: new Date().toISOString() });
    toast.success('Edits copied. Select photos and choose Paste Edits.');
    return true;
  } catch (e) {
    toast.error(e, 'The edits could not be read.');
    return false;
  }
}

export function copyRecipe(recipe, fromId) {
  const steps = portableSteps(recipe);
  if (!steps.length) { toast('There is nothing to copy: choose a filter or adjust the photo first.'); return false; }
  store.setCopiedEdit({ ...recipeOf(steps), from: fromId, copiedAt: new Date().toISOString() });
  toast.success('Edits copied. Select photos in the library and choose Paste Edits.');
  return true;
}

/**
 * Pastes the copied look onto each photo, keeping each one's own crop and rotation: GET its edit, then
 * PUT the merged recipe. Shows a dialog with progress and per-photo errors.
 */
export async function pasteEdits(ids, lookup = () => null) {
  const copied = store.copiedEdit();
  if (!copied) { toast('Nothing to paste: open a photo in the editor, or select one, and choose Copy Edits.'); return; }
  await editEach(ids, lookup, copied.steps, {
    title: 'Paste Edits', testid: 'paste',
    running: `Pasting edits to ${plural(ids.length, 'photo')}…`,
    progress: 'Pasted',
    done: (n) => `Pasted edits to ${plural(n, 'photo')}.`,
    partly: (n, failed) => `Pasted edits to ${plural(n, 'photo')}; ${failed} failed (see below).`,
  });
}

/** Applies a preset to each photo as Paste Edits does: its own crop, rotation and RAW development stay. */
export async function applyPreset(ids, preset, lookup = () => null) {
  const steps = portableSteps(preset?.recipe);
  if (!steps.length) { toast(`The preset “${preset?.name}” has nothing to apply.`); return; }
  await editEach(ids, lookup, steps, {
    title: `Apply “${preset.name}”`, testid: 'preset-apply',
    running: `Applying “${preset.name}” to ${plural(ids.length, 'photo')}…`,
    progress: 'Applied to',
    done: (n) => `Applied “${preset.name}” to ${plural(n, 'photo')}.`,
    partly: (n, failed) => `Applied “${preset.name}” to ${plural(n, 'photo')}; ${failed} failed (see below).`,
  });
}

/**
 * The loop of Paste Edits and Apply Preset: for each photo (three at a time), GET its edit, keep its RAW
 * development, other edits and geometry, put `steps` after them, PUT. A dialog shows the progress and
 * each photo's error (testids `<testid>-dialog`, `-progress`, `-errors`); it closes by itself when all went well.
 */
async function editEach(ids, lookup, steps, words) {
  const [catalog, panel] = await Promise.all([store.catalog().catch(() => []), store.adjustments().catch(() => null)]);
  const bar = h('progress', { class: 'progress', max: String(ids.length), value: '0', 'data-testid': `${words.testid}-progress`, aria: { label: `${words.title}: progress` } });
  const status = h('p', { role: 'status' }, words.running);
  const errors = h('ul', { class: 'error-list', 'data-testid': `${words.testid}-errors` });
  let d;
  const close = h('button', { type: 'button', class: 'btn primary', onclick: () => d.close() }, 'Close');
  d = openDialog({ title: words.title, body: h('div', { class: 'stack' }, status, bar, errors), actions: [close], testid: `${words.testid}-dialog` });
  let done = 0;
  let failed = 0;
  await pool(ids, 3, async (id) => {
    const asset = lookup(id) || store.assets.get(id) || await api.asset(id);
    const edit = await api.edit(id);
    const recipe = pasteInto(edit?.current?.recipe || null, asset, catalog, steps, panel);
    return api.saveEdit(id, recipe);
  }, (id, updated, err) => {
    done++;
    bar.value = String(done);
    if (err) {
      failed++;
      const name = (lookup(id) || store.assets.get(id))?.originalFilename || id;
      errors.append(h('li', {}, h('strong', {}, name), ': ', errorContent(err, { fallback: 'The edit could not be saved.' })));
    } else if (updated) {
      store.rememberAssets([updated]);
      store.emit('assets-updated', [updated]);
    }
    status.textContent = `${words.progress} ${done - failed} of ${ids.length}` + (failed ? ` · ${failed} failed` : '');
  });
  status.textContent = failed ? words.partly(ids.length - failed, failed) : words.done(ids.length);
  if (!failed) setTimeout(() => d.close(), 1200);
}

// ----- Edit presets

/**
 * Save as Preset: asks for a name and keeps the recipe's look and adjustments (not its crop, straighten,
 * rotation or RAW development, which belong to one photo). A name in use asks to replace that preset; the
 * server's refusals (an empty or long name, nothing to keep) are shown in its words under the name.
 * Resolves to the preset, or null.
 */
export async function savePreset(recipe) {
  const steps = portableSteps(recipe);
  if (!steps.length) { toast('There is nothing to save as a preset: choose a look or adjust the photo first.'); return null; }
  let name = '';
  let problem = null;
  for (;;) {
    const chosen = await promptDialog({
      title: 'Save as Preset', label: 'Preset name', value: name, confirmLabel: 'Save Preset', maxLength: 64,
      description: 'The look and the adjustments are saved. Crop, straighten and rotation stay with each photo.',
      testid: 'preset-name-dialog', error: problem,
    });
    if (chosen == null) return null;
    name = chosen;
    problem = null;
    let replace = false;
    for (;;) {
      try {
        const preset = await api.savePreset(name, recipeOf(steps), { replace });
        store.reloadPresets().catch(() => {});
        toast.success(replace ? `Replaced the preset “${preset?.name || name}”.` : `Saved the preset “${preset?.name || name}”.`);
        return preset;
      } catch (e) {
        if (e.status === 409 && !replace) {
          replace = await confirmDialog({
            title: `Replace the preset “${name}”?`,
            message: 'A preset of that name exists. Replacing it changes what it applies from now on; photos edited with it keep their edits.',
            confirmLabel: 'Replace', testid: 'preset-replace-dialog',
          });
          if (replace) continue;
        } else if (e.status === 422 || e.status === 400) {
          problem = e.message;
        } else {
          toast.error(e, 'The preset could not be saved.');
          return null;
        }
        break; // back to the name
      }
    }
  }
}

/** Asks first; resolves true when the preset is deleted. */
export async function deletePreset(preset) {
  const ok = await confirmDialog({
    title: `Delete the preset “${preset.name}”?`,
    message: 'Photos edited with it keep their edits.',
    confirmLabel: 'Delete Preset', destructive: true, testid: 'preset-delete-dialog',
  });
  if (!ok) return false;
  try {
    await api.deletePreset(preset.id);
    await store.reloadPresets().catch(() => {});
    toast(`Deleted the preset “${preset.name}”.`);
    return true;
  } catch (e) {
    toast.error(e, 'The preset could not be deleted.');
    return false;
  }
}

/** The user's presets in a dialog, each with Delete. */
export async function managePresets() {
  let list;
  try { list = await store.presets(); } catch (e) { toast.error(e, 'The presets could not be loaded.'); return; }
  const ul = h('ul', { class: 'preset-list', 'data-testid': 'preset-list' });
  let d;
  const done = h('button', { type: 'button', class: 'btn primary', 'data-testid': 'presets-done', onclick: () => d.close() }, 'Done');
  const render = (items) => {
    ul.replaceChildren(...items.map((p) => h('li', { class: 'preset-row', 'data-testid': 'preset-row', 'data-preset-id': p.id },
      h('span', { class: 'preset-name' }, p.name),
      h('span', { class: 'preset-steps hint' }, plural(portableSteps(p.recipe).length, 'step')),
      h('button', {
        type: 'button', class: 'btn small ghost danger-text', 'data-testid': 'preset-delete', aria: { label: `Delete the preset “${p.name}”` },
        onclick: async () => {
          const at = items.indexOf(p);
          if (!(await deletePreset(p))) return;
          items = items.filter((x) => x !== p);
          render(items);
          (ul.querySelectorAll('[data-testid="preset-delete"]')[Math.min(at, items.length - 1)] || done).focus();
        },
      }, icon('trash'), 'Delete'))));
    if (!items.length) ul.append(h('li', { class: 'hint', 'data-testid': 'preset-empty' }, 'No presets. In the editor, choose Save as Preset.'));
  };
  render([...list]);
  d = openDialog({ title: 'Presets', body: ul, actions: [done], testid: 'presets-dialog', initialFocus: () => done });
}

/**
 * The items of the selection's Apply Preset menu (the presets read afresh), or [] after saying why there are none.
 */
export async function presetMenuItems(ids, lookup) {
  let list;
  try { list = await store.reloadPresets(); } catch (e) { toast.error(e, 'The presets could not be loaded.'); return []; }
  if (!list.length) { toast('No presets yet. In the editor, adjust a photo and choose Save as Preset.'); return []; }
  return list.map((p) => ({ label: p.name, icon: 'preset', testid: 'preset-menu-item', attrs: { 'data-preset-id': p.id }, run: () => applyPreset(ids, p, lookup) }));
}

export { parseRecipe };
