// The app shell: sidebar navigation (a slide-in menu on phones) with the library's views (Duplicates among them),
// People, Places, the Map, the albums and the smart albums (saved searches, under their own heading), the main area,
// the phone tab bar and the live-connection indicator.
import { h, clear } from '../util.js';
import { icon } from '../icons.js';
import { store } from '../store.js';
import { api } from '../api.js';
import { promptDialog } from './dialog.js';
import { toast, carryMessagesTo } from './toast.js';

const LIBRARY_LINKS = [
  { route: 'library', label: 'Library', icon: 'photos', testid: 'nav-library' },
  { route: 'favorites', label: 'Favorites', icon: 'heart', testid: 'nav-favorites' },
  { route: 'recents', label: 'Recently Added', icon: 'clock', testid: 'nav-recents' },
  { route: 'edited', label: 'Edited', icon: 'wand', testid: 'nav-edited' },
  { route: 'hidden', label: 'Hidden', icon: 'eyeOff', testid: 'nav-hidden' },
  { route: 'recently-deleted', label: 'Recently Deleted', icon: 'trash', testid: 'nav-recently-deleted', count: () => store.recentlyDeletedCount },
  { route: 'duplicates', label: 'Duplicates', icon: 'duplicates', testid: 'nav-duplicates' },
];

export async function createAlbumFlow({ navigate = true } = {}) {
  const title = await promptDialog({ title: 'New Album', label: 'Album name', confirmLabel: 'Create', placeholder: 'Summer 2024', testid: 'album-create-dialog' });
  if (!title) return null;
  try {
    const album = await api.createAlbum(title);
    await store.loadAlbums().catch(() => {});
    toast.success(`Album “${album.title}” created.`);
    if (navigate) {
      carryMessagesTo(`#/album/${album.id}`);
      location.hash = `#/album/${album.id}`;
    }
    return album;
  } catch (e) {
    toast.error(e, 'The album could not be created.');
    return null;
  }
}

export function createShell() {
  const navLink = (l) => h('a', { href: `#/${l.route}`, class: 'nav-link', 'data-route': l.route, 'data-testid': l.testid }, icon(l.icon), h('span', { class: l.count ? 'nav-text' : null }, l.label),
    l.count ? h('span', { class: 'nav-count', 'data-count-for': l.route }, '') : null);
  const albumList = h('ul', { class: 'nav-list album-nav', 'data-testid': 'sidebar-albums' });
  const newAlbum = h('button', {
    type: 'button', class: 'btn icon small ghost', 'data-testid': 'album-create-sidebar', aria: { label: 'New album' },
    onclick: () => createAlbumFlow(),
  }, icon('plus'));
  // Smart albums: the saved searches, each a link to its photos (#/searches/<id>) with what it finds now counted.
  const smartAlbumList = h('ul', { class: 'nav-list smart-album-nav', 'data-testid': 'sidebar-smart-albums' });
  const newSmartAlbum = h('a', {
    href: '#/search/', class: 'btn icon small ghost', 'data-testid': 'smart-album-create-sidebar',
    aria: { label: 'New smart album: search, then Save as Smart Album' }, title: 'Search, then Save as Smart Album',
  }, icon('plus'));
  const live = h('div', { class: 'live-status', 'data-testid': 'live-status', role: 'status', 'data-state': 'connecting' },
    h('span', { class: 'live-dot', 'aria-hidden': 'true' }), h('span', { class: 'live-text' }, 'Connecting…'));

  const skip = h('button', { type: 'button', class: 'skip-link', onclick: () => { const t = main.querySelector('[tabindex="0"], h1') || main; if (t.tabIndex < 0 && t !== main) t.tabIndex = -1; t.focus(); } }, 'Skip to content');
  const sidebar = h('aside', { class: 'sidebar', id: 'sidebar', 'data-testid': 'sidebar', aria: { label: 'Sidebar' } },
    skip,
    h('div', { class: 'brand' }, h('img', { src: '/favicon.svg', alt: '', width: '28', height: '28' }), h('span', { class: 'brand-name' }, 'Sepia'),
      h('button', { type: 'button', class: 'btn icon ghost small drawer-close', aria: { label: 'Close menu' }, onclick: () => closeMenu() }, icon('close'))),
    h('nav', { class: 'nav', aria: { label: 'Library' } },
      h('ul', { class: 'nav-list' }, LIBRARY_LINKS.map((l) => h('li', {}, navLink(l))))),
    h('nav', { class: 'nav nav-people', aria: { label: 'People, Places and Map' } },
      h('ul', { class: 'nav-list' },
        h('li', {}, navLink({ route: 'people', label: 'People', icon: 'users', testid: 'nav-people' })),
        h('li', {}, navLink({ route: 'places', label: 'Places', icon: 'pin', testid: 'nav-places' })),
        h('li', {}, navLink({ route: 'map', label: 'Map', icon: 'map', testid: 'nav-map' })))),
    h('div', { class: 'nav-heading' },
      h('a', { href: '#/albums', class: 'nav-heading-link', 'data-route': 'albums', 'data-testid': 'nav-albums' }, 'Albums'), newAlbum),
    h('nav', { class: 'nav nav-albums', aria: { label: 'Albums' } }, albumList),
    h('div', { class: 'nav-heading' }, h('span', { class: 'nav-heading-text' }, 'Smart Albums'), newSmartAlbum),
    h('nav', { class: 'nav nav-smart-albums', aria: { label: 'Smart Albums' } }, smartAlbumList),
    h('div', { class: 'nav-bottom' },
      h('a', { href: '#/settings', class: 'nav-link', 'data-route': 'settings', 'data-testid': 'nav-settings' }, icon('gear'), h('span', {}, 'Settings'))));

  const main = h('main', { id: 'main', class: 'main', tabindex: '-1' });
  const tab = (route, label, ic, testid) => h('a', { href: `#/${route}`, class: 'tab', 'data-route': route, 'data-testid': testid }, icon(ic), h('span', {}, label));
  const tabbar = h('nav', { class: 'tabbar', aria: { label: 'Sections' } },
    tab('library', 'Library', 'photos', 'tab-library'), tab('favorites', 'Favorites', 'heart', 'tab-favorites'),
    tab('people', 'People', 'users', 'tab-people'), tab('albums', 'Albums', 'albums', 'tab-albums'), tab('settings', 'Settings', 'gear', 'tab-settings'));
  const scrim = h('div', { class: 'drawer-scrim', onclick: () => closeMenu() });
  const overlay = h('div', { class: 'overlay-root', id: 'overlay-root' });
  main.append(live); // inside a landmark; fixed-positioned by CSS
  const root = h('div', { class: 'shell' }, sidebar, scrim, main, tabbar, overlay);

  function renderAlbums() {
    for (const l of LIBRARY_LINKS.filter((x) => x.count)) {
      const n = l.count();
      const el = sidebar.querySelector(`[data-count-for="${l.route}"]`);
      if (el) el.textContent = n ? n.toLocaleString() : '';
    }
    clear(albumList);
    if (!store.albums.length) {
      albumList.append(h('li', { class: 'nav-empty' }, store.albumsLoaded ? 'No albums yet' : 'Loading…'));
    }
    for (const a of store.albums) {
      albumList.append(h('li', {}, h('a', { href: `#/album/${a.id}`, class: 'nav-link', 'data-route': 'album/' + a.id, 'data-testid': 'nav-album' }, icon('album'), h('span', { class: 'nav-text' }, a.title), h('span', { class: 'nav-count' }, a.assetCount ? String(a.assetCount) : ''))));
    }
    setActive(currentRoute);
  }

  function renderSmartAlbums() {
    clear(smartAlbumList);
    if (!store.savedSearches.length) {
      smartAlbumList.append(h('li', { class: 'nav-empty' }, store.savedSearchesLoaded ? 'No smart albums yet' : 'Loading…'));
    }
    for (const s of store.savedSearches) {
      smartAlbumList.append(h('li', {}, h('a', {
        href: `#/searches/${encodeURIComponent(s.id)}`, class: 'nav-link', 'data-route': 'searches/' + s.id, 'data-testid': 'nav-smart-album',
        'data-search-id': s.id, title: `Photos that “${s.query}” finds`,
      }, icon('smartAlbum'), h('span', { class: 'nav-text' }, s.title), h('span', { class: 'nav-count' }, s.assetCount ? s.assetCount.toLocaleString() : ''))));
    }
    setActive(currentRoute);
  }

  let currentRoute = '';
  function setActive(route) {
    currentRoute = route;
    for (const a of root.querySelectorAll('[data-route]')) {
      const r = a.dataset.route;
      const on = r === route || (r === 'albums' && /^(album|searches)\//.test(route) && a.classList.contains('tab')) || (r === 'people' && route.startsWith('person/'))
        || (r === 'places' && route.startsWith('places/'));
      if (on) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
    }
  }

  let menuOpen = false;
  let menuReturn = null;
  function openMenu() {
    menuOpen = true;
    menuReturn = document.activeElement;
    root.classList.add('menu-open');
    // The drawer is modal: the page behind it cannot be reached until it closes.
    main.inert = true;
    tabbar.inert = true;
    sidebar.querySelector('.nav-link')?.focus();
  }
  function closeMenu() {
    if (!menuOpen) return;
    menuOpen = false;
    root.classList.remove('menu-open');
    main.inert = false;
    tabbar.inert = false;
    menuReturn?.focus?.();
  }
  sidebar.addEventListener('click', (e) => { if (e.target.closest('a')) closeMenu(); });
  sidebar.addEventListener('keydown', (e) => { if (e.key === 'Escape' && menuOpen) { e.stopPropagation(); closeMenu(); } });

  function setLive(state) {
    live.dataset.state = state;
    live.querySelector('.live-text').textContent = state === 'open' ? 'Live' : state === 'down' ? 'Reconnecting…' : 'Connecting…';
    live.title = state === 'open' ? 'Changes from other windows appear here at once.' : 'The connection to the server dropped; trying again.';
    document.body.classList.toggle('live-down', state === 'down');
  }

  store.on('albums', renderAlbums);
  store.on('searches', renderSmartAlbums);
  renderAlbums();
  renderSmartAlbums();
  return { root, main, overlay, sidebar, setActive, openMenu, closeMenu, setLive, get menuOpen() { return menuOpen; } };
}
