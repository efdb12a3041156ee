// Smart albums: saved searches, whose photos are what their query finds now (GET /search?q=, as the search screen
// asks). The changes the screens share — Save as Smart Album (from the search screen), Rename, Edit Query and Delete
// (with Undo, which saves it again) — each asks in a small dialog, sends, reads the list again (the sidebar and the
// albums follow, 'searches') and says so in a message. The server's refusals (a title or a query too long, a query
// that reads as nothing to look for, a library with as many saved searches as it keeps) are said under the field, in
// its words.
import { api } from './api.js';
import { store } from './store.js';
import { promptDialog } from './components/dialog.js';
import { toast } from './components/toast.js';
import { SEARCH_MAX } from './components/search-box.js';

/** How long a message with Undo stays (the pointer or the keyboard on it keeps it longer). */
const UNDO_TIMEOUT = 8000;

/** The longest title the server keeps, in characters. */
export const SMART_ALBUM_TITLE_MAX = 200;

/** What a smart album's query may say, under the field that edits it. */
const QUERY_HELP = 'Its photos are what these words find, now and as the library changes: words of titles, captions, '
  + 'keywords, places, albums and people’s names; kinds such as videos or favorites; dates such as 2023 or summer 2023.';

/**
 * Asks in `dialog` (promptDialog's options) and sends the answer with `send`; a refusal of the server's (400, 422) asks
 * again with its sentence under the field. Resolves to what `send` resolved to, or null (cancelled, or failed: said).
 */
async function askAndSend(dialog, send, failed) {
  let value = dialog.value;
  let problem = null;
  for (;;) {
    const answer = await promptDialog({ ...dialog, value, error: problem });
    if (answer == null) return null;
    value = answer;
    try {
      return await send(answer);
    } catch (e) {
      if (e.status === 422 || e.status === 400) { problem = e.message; continue; }
      toast.error(e, failed);
      return null;
    }
  }
}

const refreshList = () => store.loadSavedSearches().catch(() => {});

/**
 * Save as Smart Album: the words searched for, kept under a title (the words themselves unless another is typed).
 * `go(hash)` opens it from the message. Resolves to the saved search, or null.
 */
export async function saveAsSmartAlbum(query, { go } = {}) {
  const q = String(query || '').trim().slice(0, SEARCH_MAX);
  if (!q) return null;
  const saved = await askAndSend({
    title: 'Save as Smart Album', label: 'Name', value: q.slice(0, SMART_ALBUM_TITLE_MAX), confirmLabel: 'Save',
    maxLength: SMART_ALBUM_TITLE_MAX, testid: 'smart-album-save-dialog',
    description: `Its photos are what “${q}” finds, now and as the library changes.`,
  }, (title) => api.createSavedSearch(title, q), 'The search could not be saved.');
  if (!saved) return null;
  await refreshList();
  toast.success(`Saved as the smart album “${saved.title}”.`, {
    action: go ? { label: 'Show', run: () => go(`#/searches/${encodeURIComponent(saved.id)}`) } : null,
  });
  return saved;
}

/** Rename: resolves to the saved search renamed, or null. */
export async function renameSmartAlbum(saved) {
  const renamed = await askAndSend({
    title: 'Rename Smart Album', label: 'Name', value: saved.title, confirmLabel: 'Rename',
    maxLength: SMART_ALBUM_TITLE_MAX, testid: 'smart-album-rename-dialog',
  }, (title) => (title === saved.title ? saved : api.patchSavedSearch(saved.id, { title })), 'The smart album could not be renamed.');
  if (!renamed || renamed === saved) return renamed;
  await refreshList();
  toast.success(`Smart album renamed to “${renamed.title}”.`);
  return renamed;
}

/** Edit Query: other words for the smart album to find. Resolves to the saved search changed, or null. */
export async function editSmartAlbumQuery(saved) {
  const changed = await askAndSend({
    title: 'Edit Query', label: 'Search for', value: saved.query, confirmLabel: 'Save', maxLength: SEARCH_MAX,
    description: QUERY_HELP, emptyText: 'Enter the words to search for.', testid: 'smart-album-query-dialog',
  }, (q) => (q === saved.query ? saved : api.patchSavedSearch(saved.id, { query: q })), 'The query could not be changed.');
  if (!changed || changed === saved) return changed;
  await refreshList();
  toast.success(`“${changed.title}” now shows what “${changed.query}” finds.`);
  return changed;
}

/**
 * Delete, at once, with Undo in the message: Undo saves the search again (a new id, the same title and query) and
 * `go(hash)` opens it. Resolves true when it is deleted.
 */
export async function deleteSmartAlbum(saved, { go } = {}) {
  try {
    await api.deleteSavedSearch(saved.id);
  } catch (e) {
    // Gone already (deleted in another window): as deleted here.
    if (e.status !== 404) { toast.error(e, 'The smart album could not be deleted.'); return false; }
  }
  await refreshList();
  toast(`Smart album “${saved.title}” deleted. Its photos stay in your library.`, {
    timeout: UNDO_TIMEOUT,
    action: { label: 'Undo', run: () => restoreSmartAlbum(saved, { go }) },
  });
  return true;
}

async function restoreSmartAlbum(saved, { go }) {
  try {
    const again = await api.createSavedSearch(saved.title, saved.query);
    await refreshList();
    toast.success(`Smart album “${again.title}” restored.`);
    go?.(`#/searches/${encodeURIComponent(again.id)}`);
  } catch (e) { toast.error(e, 'The smart album could not be restored.'); }
}
