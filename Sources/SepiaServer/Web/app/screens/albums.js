// Albums: the list of the user's albums as cards (cover, title, count), with New Album; the smart albums (saved
// searches: their cover and what they find now) the same way; then the collections (Favorites, Recently Added, …).
// An album's own photos are shown by the library screen (view 'album'), a smart album's by screens/saved-search.js.
import { api } from '../api.js';
import { h, plural } from '../util.js';
import { icon } from '../icons.js';
import { store } from '../store.js';
import { createAlbumFlow } from '../components/sidebar.js';
import { toast } from '../components/toast.js';

const SMART = [
  { id: 'smart/favorites', route: 'favorites', title: 'Favorites', icon: 'heart' },
  { id: 'smart/recents', route: 'recents', title: 'Recently Added', icon: 'clock' },
  { id: 'smart/edited', route: 'edited', title: 'Edited', icon: 'wand' },
  { id: 'smart/hidden', route: 'hidden', title: 'Hidden', icon: 'eyeOff' },
  { id: 'smart/recentlyDeleted', route: 'recently-deleted', title: 'Recently Deleted', icon: 'trash' },
];

export function mountAlbums(container, params, ctx) {
  const list = h('ul', { class: 'album-grid', 'data-testid': 'album-list' });
  const smart = h('ul', { class: 'smart-list' });
  const searches = h('ul', { class: 'album-grid', 'data-testid': 'smart-album-list' });
  const create = h('button', { type: 'button', class: 'btn primary', 'data-testid': 'album-create', aria: { label: 'New Album' }, onclick: () => createAlbumFlow() }, icon('plus'), h('span', { class: 'label-wide' }, 'New Album'));
  const el = h('section', { class: 'screen albums-screen', aria: { labelledby: 'albums-title' } },
    h('header', { class: 'topbar' },
      h('button', { type: 'button', class: 'btn icon ghost menu-btn', aria: { label: 'Open menu', controls: 'sidebar' }, onclick: () => ctx.shell.openMenu() }, icon('menu')),
      h('div', { class: 'topbar-titles' }, h('h1', { id: 'albums-title', class: 'topbar-title' }, 'Albums'), h('span', { class: 'topbar-subtitle', 'data-testid': 'album-count' })),
      h('div', { class: 'topbar-spacer' }), create),
    h('div', { class: 'scroller page-pad' },
      h('h2', { class: 'section-title' }, 'My Albums'), list,
      h('h2', { class: 'section-title' }, 'Smart Albums'), searches,
      h('h2', { class: 'section-title' }, 'Collections'), smart));
  container.append(el);

  function render() {
    const albums = store.albums;
    el.querySelector('[data-testid="album-count"]').textContent = store.albumsLoaded ? plural(albums.length, 'album') : '';
    list.replaceChildren();
    if (!store.albumsLoaded) {
      for (let i = 0; i < 4; i++) list.append(h('li', { class: 'album-card', 'aria-hidden': 'true' }, h('div', { class: 'album-cover skeleton' }), h('div', { class: 'album-meta' }, '\u00a0')));
      return;
    }
    if (!albums.length) {
      list.append(h('li', { class: 'album-empty', 'data-testid': 'empty-state' },
        icon('album', { cls: 'empty-icon' }), h('p', {}, 'No albums yet. Create one, then add photos to it from the Library with Select → Add to Album.')));
    }
    for (const a of albums) {
      const cover = a.coverAssetID
        ? h('img', { src: api.imageURL(a.coverAssetID, { size: '512x512', mode: 'fill' }), alt: '', loading: 'lazy' })
        : h('span', { class: 'album-cover-empty' }, icon('album'));
      list.append(h('li', { class: 'album-card' },
        h('a', { href: `#/album/${a.id}`, class: 'album-link', 'data-testid': 'album-card', 'data-album-id': a.id },
          h('div', { class: 'album-cover' }, cover),
          h('div', { class: 'album-meta' }, h('span', { class: 'album-title' }, a.title), h('span', { class: 'hint' }, plural(a.assetCount || 0, 'photo'))))));
    }
    renderSearches();
    smart.replaceChildren(...SMART.map((s) => {
      const info = store.smartAlbums.find((x) => x.id === s.id);
      return h('li', {}, h('a', { href: `#/${s.route}`, class: 'smart-link' }, icon(s.icon), h('span', {}, s.title), h('span', { class: 'hint' }, info ? String(info.assetCount ?? '') : '')));
    }));
  }
  /** The smart albums, as the albums are shown; while there are none, how to make one. */
  function renderSearches() {
    if (!store.savedSearchesLoaded && !store.savedSearches.length) { searches.replaceChildren(); return; }
    if (!store.savedSearches.length) {
      searches.replaceChildren(h('li', { class: 'album-empty' },
        icon('smartAlbum', { cls: 'empty-icon' }), h('p', {}, 'No smart albums yet. Search, then choose Save as Smart Album: it shows what the search finds, as the library changes.')));
      return;
    }
    searches.replaceChildren(...store.savedSearches.map((x) => {
      const cover = x.coverAssetID
        ? h('img', { src: api.imageURL(x.coverAssetID, { size: '512x512', mode: 'fill' }), alt: '', loading: 'lazy' })
        : h('span', { class: 'album-cover-empty' }, icon('smartAlbum'));
      return h('li', { class: 'album-card' },
        h('a', { href: `#/searches/${encodeURIComponent(x.id)}`, class: 'album-link', 'data-testid': 'smart-album-card', 'data-search-id': x.id },
          h('div', { class: 'album-cover' }, cover),
          h('div', { class: 'album-meta' }, h('span', { class: 'album-title' }, x.title), h('span', { class: 'hint' }, plural(x.assetCount || 0, 'photo')))));
    }));
  }

  const offs = [store.on('albums', render), store.on('searches', renderSearches)];
  render();
  store.loadAlbums().catch((e) => toast.error(e, 'The albums could not be loaded.'));
  store.loadSavedSearches().catch(() => {});
  return { el, unmount() { offs.forEach((off) => off()); el.remove(); }, show() { el.inert = false; }, hide() { el.inert = true; } };
}
