// A smart album (#/searches/<id>): a saved search's photos — what its query finds now, newest first — in the search
// screen's grid (screens/library.js, view 'saved-search', which reads the title and the query, and follows their
// changes and the library's), with Rename, Edit Query and Delete (with Undo; the albums are shown after it), in words
// as a person's page has its tools. On a phone the three are in a menu, so that the title keeps its room. A smart
// album deleted in another window says so and leaves for the albums.
import { h } from '../util.js';
import { icon } from '../icons.js';
import { store } from '../store.js';
import { toast } from '../components/toast.js';
import { menuButton } from '../components/menu.js';
import { mountLibrary } from './library.js';
import { renameSmartAlbum, editSmartAlbumQuery, deleteSmartAlbum } from '../smart-albums.js';

export function mountSavedSearch(container, { id }, ctx) {
  return mountLibrary(container, { view: 'saved-search', albumId: id, extend: (screen) => smartAlbumTools(id, screen, ctx) }, ctx);
}

function smartAlbumTools(id, { tools }, ctx) {
  const current = () => store.savedSearches.find((s) => s.id === id) || null;
  /** Whether this smart album was in the list once (a link to one long gone is said by the grid, not here). */
  let seen = !!current();
  let deleting = false;
  const go = (hash) => ctx.go(hash, { keepMessages: true });

  const rename = async () => { const s = current(); if (s) await renameSmartAlbum(s); };
  const editQuery = async () => { const s = current(); if (s) await editSmartAlbumQuery(s); };
  const remove = async () => {
    const s = current();
    if (!s || deleting) return;
    deleting = true;
    if (await deleteSmartAlbum(s, { go })) ctx.go('#/albums', { keepMessages: true });
    else deleting = false;
  };

  const button = (testid, text, label, title, glyph, run) => h('button', {
    type: 'button', class: 'btn smart-album-tool', 'data-testid': testid, aria: { label }, title, onclick: run,
  }, icon(glyph), h('span', { class: 'label-wide' }, text));
  const buttons = [
    button('smart-album-rename', 'Rename', 'Rename smart album', 'Rename this smart album', 'pencil', rename),
    button('smart-album-edit-query', 'Edit Query', 'Edit query', 'Change the words this smart album searches for', 'sliders', editQuery),
    button('smart-album-delete', 'Delete', 'Delete smart album', 'Delete this smart album (its photos stay in your library)', 'trash', remove),
  ];
  const more = menuButton({
    label: 'Smart album actions', testid: 'smart-album-more', cls: 'btn icon ghost smart-album-more',
    items: [
      { label: 'Rename', icon: 'pencil', testid: 'smart-album-menu-rename', disabled: () => !current(), run: rename },
      { label: 'Edit Query', icon: 'sliders', testid: 'smart-album-menu-edit-query', disabled: () => !current(), run: editQuery },
      { label: 'Delete', icon: 'trash', testid: 'smart-album-menu-delete', danger: true, disabled: () => !current(), run: remove },
    ],
  });
  tools.append(...buttons, more);

  function draw() {
    for (const b of buttons) b.disabled = !current();
  }

  const off = store.on('searches', (list) => {
    const here = list.some((s) => s.id === id);
    if (here) seen = true;
    draw();
    if (here || !seen || deleting) return;
    // Deleted elsewhere while it was shown here.
    deleting = true;
    toast('This smart album was deleted in another window. Its photos are still in your library.');
    ctx.go('#/albums', { keepMessages: true });
  });

  draw();
  return { unmount() { off(); } };
}
