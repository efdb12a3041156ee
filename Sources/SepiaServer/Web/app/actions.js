// Operations on photos shared by the library selection and the detail view: favourite, hide, delete (to
// Recently Deleted, with a confirmation that says how many and for how long), recover and delete for good
// from Recently Deleted, download, add to album, copy and paste edits.
import { api } from './api.js';
import { h, plural, download, pool } from './util.js';
import { store } from './store.js';
import { confirmDialog, openDialog } from './components/dialog.js';
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
  const [catalog, panel] = await Promise.all([store.catalog().catch(() => []), store.adjustments().catch(() => null)]);
  const bar = h('progress', { class: 'progress', max: String(ids.length), value: '0', 'data-testid': 'paste-progress', aria: { label: 'Paste progress' } });
  const status = h('p', { role: 'status' }, `Pasting edits to ${plural(ids.length, 'photo')}…`);
  const errors = h('ul', { class: 'error-list', 'data-testid': 'paste-errors' });
  let d;
  const close = h('button', { type: 'button', class: 'btn primary', onclick: () => d.close() }, 'Close');
  d = openDialog({ title: 'Paste Edits', body: h('div', { class: 'stack' }, status, bar, errors), actions: [close], testid: 'paste-dialog' });
  let done = 0;
  let failed = 0;
  await pool(ids, 3, async (id) => {
    const asset = lookup(id) || store.assets.get(id) || await api.asset(id);
    const edit = await api.edit(id);
    const recipe = pasteInto(edit?.current?.recipe || null, asset, catalog, copied.steps, panel);
    const updated = await api.saveEdit(id, recipe);
    return updated;
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
    status.textContent = `Pasted ${done - failed} of ${ids.length}` + (failed ? ` · ${failed} failed` : '');
  });
  status.textContent = failed ? `Pasted edits to ${plural(ids.length - failed, 'photo')}; ${failed} failed (see below).` : `Pasted edits to ${plural(ids.length, 'photo')}.`;
  if (!failed) setTimeout(() => d.close(), 1200);
}

export { parseRecipe };
