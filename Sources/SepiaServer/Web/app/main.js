// Boot and routing. Paths: /setup → first run or invitation, /login, /s/<token> → public share page;
// everything else is the app with hash routes:
//   #/library #/favorites #/recents #/edited #/hidden #/recently-deleted #/duplicates #/albums #/album/<id> #/settings
//   #/people #/person/<id> #/search/<text> #/searches/<id> (a smart album: a saved search's photos)
//   #/places #/places/<city id> #/places/country/<code> #/map                             (base screens)
//   #/photo/<id>[?album=<id> | ?deleted=1 | ?person=<id> | ?place=<city id> | ?country=<code> | ?savedSearch=<id>]
//   #/edit/<id> #/camera[?album=<id>]                                                      (overlays)
// An overlay opens above the base screen, which stays mounted (scroll position, loaded photos) and
// gives the detail view its previous/next photos.
import { api } from './api.js';
import { h, clear, debounce } from './util.js';
import { store } from './store.js';
import { createShell } from './components/sidebar.js';
import { toast, carryMessagesTo, messagesNavigated } from './components/toast.js';
import { fileInput, uploads } from './components/upload-queue.js';
import { mountLibrary } from './screens/library.js';
import { mountAlbums } from './screens/albums.js';
import { mountPeople } from './screens/people.js';
import { mountPerson } from './screens/person.js';
import { mountPlace } from './screens/place.js';
import { mountSavedSearch } from './screens/saved-search.js';
import { people } from './people.js';
import { lazyScreen, preloadScreens } from './lazy-screen.js';

// Loaded when first opened (lazy-screen.js): none of them is the first screen of the app.
const mountDetail = lazyScreen(() => import('./screens/detail.js'), 'mountDetail');
const mountEditor = lazyScreen(() => import('./screens/editor.js'), 'mountEditor');
const mountCamera = lazyScreen(() => import('./screens/camera.js'), 'mountCamera');
const mountSettings = lazyScreen(() => import('./screens/settings.js'), 'mountSettings');
const mountPlaces = lazyScreen(() => import('./screens/places.js'), 'mountPlaces');
const mountMap = lazyScreen(() => import('./screens/map.js'), 'mountMap');
const mountDuplicates = lazyScreen(() => import('./screens/duplicates.js'), 'mountDuplicates');
const mountSetup = lazyScreen(() => import('./screens/setup.js'), 'mountSetup');
const mountLogin = lazyScreen(() => import('./screens/login.js'), 'mountLogin');
const mountShare = lazyScreen(() => import('./screens/share.js'), 'mountShare');

const app = document.getElementById('app');
const BASE_ROUTES = new Set(['library', 'favorites', 'recents', 'edited', 'hidden', 'recently-deleted', 'duplicates', 'albums', 'album', 'people', 'person', 'places', 'map', 'settings', 'search', 'searches']);
const OVERLAY_ROUTES = new Set(['photo', 'edit', 'camera']);
const TITLES = { library: 'Library', favorites: 'Favorites', recents: 'Recently Added', edited: 'Edited', hidden: 'Hidden', 'recently-deleted': 'Recently Deleted', duplicates: 'Duplicates', albums: 'Albums', album: 'Album', people: 'People', person: 'Person', places: 'Places', map: 'Map', settings: 'Settings', search: 'Search', searches: 'Smart Album', photo: 'Photo', edit: 'Edit', camera: 'Take Photo' };

let shell = null;
let base = null;     // {key, name, screen}
let overlay = null;  // {key, name, screen, id}
let changes = null;
let stack = [];      // visited hashes, to know whether "back" stays in the app
let pendingReplace = false;
let restoring = false;
let lastHash = '';

function parseHash(hash = location.hash) {
  const raw = hash.replace(/^#\/?/, '');
  const [path, qs] = raw.split('?');
  const parts = path.split('/').filter(Boolean);
  // `sub`: a third part, as in #/places/country/<code>.
  return { name: parts[0] || '', id: parts[1] ? decodeURIComponent(parts[1]) : null, sub: parts[2] ? decodeURIComponent(parts[2]) : null, query: new URLSearchParams(qs || ''), raw };
}

const ctx = {
  get shell() { return shell; },
  get base() { return base?.screen; },
  overlayActive: () => !!overlay,
  /**
   * Leaves an overlay: back in history when we came from inside the app, else to `fallback`. With
   * `keepMessages` the screen's toasts go along (the leaving is what they speak of: "Saved").
   */
  back(fallback, { keepMessages = false } = {}) {
    const target = stack.length > 1 ? stack[stack.length - 2] : fallback || baseHashFor();
    if (keepMessages) carryMessagesTo(target);
    if (stack.length > 1) history.back();
    else location.replace(target);
  },
  /** Goes to `hash` in place of this entry of history (the next photo); `keepMessages` as for back(). */
  replace(hash, { keepMessages = false } = {}) {
    if (keepMessages) carryMessagesTo(hash);
    pendingReplace = true;
    location.replace(hash);
  },
  /**
   * The base screen now shows what `hash` names (a search's words, as they are typed): the address changes in
   * place and is no navigation — nothing is mounted again, history gets no entry, the toasts stay.
   */
  renameBase(hash) {
    history.replaceState(null, '', hash);
    lastHash = location.hash;
    stack[stack.length - 1] = location.hash;
    if (base) base.key = baseKey(parseHash());
  },
  /** Goes to `hash` (a new entry of history); `keepMessages` as for back(). */
  go(hash, { keepMessages = false } = {}) {
    if (keepMessages) carryMessagesTo(hash);
    location.hash = hash;
  },
  start: () => startApp(),
  signOut: () => signOut(),
};

/** What tells base screens apart: the route, and for an album, a person, a search or a smart album its id or words, for
 *  a place its id or its country's code ('places' alone is the Places list). */
const baseKey = ({ name, id, sub }) => (['album', 'search', 'searches', 'person'].includes(name) ? `${name}/${id || ''}`
  : name === 'places' && id ? ['places', id, sub].filter(Boolean).join('/') : name);

function baseHashFor() {
  const q = parseHash().query;
  if (q.get('person')) return `#/person/${encodeURIComponent(q.get('person'))}`;
  if (q.get('place')) return `#/places/${encodeURIComponent(q.get('place'))}`;
  if (q.get('country')) return `#/places/country/${encodeURIComponent(q.get('country'))}`;
  if (q.get('savedSearch')) return `#/searches/${encodeURIComponent(q.get('savedSearch'))}`;
  return q.get('album') ? `#/album/${q.get('album')}` : q.get('deleted') ? '#/recently-deleted' : '#/library';
}

// ---------------------------------------------------------------- boot
async function boot() {
  const path = location.pathname;
  if (path === '/setup' || path.startsWith('/setup/')) return mountStandalone(mountSetup, {});
  if (path.startsWith('/s/')) return mountStandalone(mountShare, { token: decodeURIComponent(path.slice(3).split('/')[0]) });
  if (path === '/login') {
    try {
      const s = await api.session();
      if (s?.user) { history.replaceState(null, '', '/#/library'); return startApp(s); }
    } catch { /* not signed in */ }
    return showLogin({});
  }
  return startApp();
}

function mountStandalone(mount, params) {
  clear(app);
  app.className = 'standalone';
  return mount(app, params, ctx);
}

function showLogin({ notice, returnHash } = {}) {
  teardown();
  if (location.pathname !== '/login') history.replaceState(null, '', '/login');
  clear(app);
  app.className = 'standalone';
  document.title = 'Sign in — Sepia';
  mountLogin(app, { notice, returnHash }, ctx);
}

async function startApp(session) {
  try {
    session = session || await api.session();
  } catch (e) {
    if (e.status === 401 || e.status === 403) return showLogin({ returnHash: location.hash && location.hash !== '#/' ? location.hash : null });
    clear(app);
    app.className = 'standalone';
    app.append(h('main', { class: 'auth', id: 'main' }, h('div', { class: 'auth-card' },
      h('h1', { class: 'auth-title' }, 'Sepia is not reachable'),
      h('p', { class: 'form-error', role: 'alert' }, e.message),
      h('button', { type: 'button', class: 'btn primary block', onclick: () => location.reload() }, 'Try Again'))));
    return;
  }
  store.user = session.user;
  store.credential = session.credential || null;
  api.setCsrfToken(session.csrfToken);
  if (location.pathname !== '/') history.replaceState(null, '', '/' + (location.hash || '#/library'));

  teardown();
  clear(app);
  app.className = '';
  shell = createShell();
  app.append(shell.root);
  shell.sidebar.append(fileInput());

  api.onUnauthorized(() => {
    if (!shell) return;
    showLogin({ notice: 'Your session has ended. Sign in again to continue.', returnHash: location.hash });
  });

  store.loadAlbums().catch((e) => toast.error(e, 'The albums could not be loaded.'));
  store.loadSavedSearches().catch((e) => toast.error(e, 'The smart albums could not be loaded.'));
  store.detectCamera();
  navigator.mediaDevices?.addEventListener?.('devicechange', () => store.detectCamera());

  openChanges();
  window.addEventListener('hashchange', onHashChange);
  window.addEventListener('keydown', globalKeys);
  if (!location.hash || location.hash === '#' || location.hash === '#/') history.replaceState(null, '', '#/library');
  stack = [location.hash];
  lastHash = location.hash;
  route(true);
  preloadScreens();
}

function teardown() {
  changes?.close();
  changes = null;
  window.removeEventListener('hashchange', onHashChange);
  window.removeEventListener('keydown', globalKeys);
  overlay?.screen.unmount();
  base?.screen.unmount();
  overlay = null;
  base = null;
  shell = null;
}

async function signOut() {
  if (uploads.active) toast('Uploads in progress were cancelled.');
  try { await api.logout(); } catch (e) { if (e.status !== 401) { toast.error(e, 'Signing out failed.'); return; } }
  api.setCsrfToken(null);
  store.user = null;
  store.presetsPromise = null; // presets are each user's own
  store.savedSearches = []; // and so are saved searches
  store.savedSearchesLoaded = false;
  people.reset();
  showLogin({ notice: 'You are signed out.' });
}

// ---------------------------------------------------------------- live changes
const refreshAlbums = debounce(() => store.loadAlbums().catch(() => {}), 400);
// A smart album's count is what its query finds now: any photo added, changed (a title, a keyword, a date) or gone,
// or an album renamed (album names are searched), may change it. Read again when there are smart albums to count.
const refreshSavedSearches = debounce(() => store.loadSavedSearches().catch(() => {}), 400);
function openChanges() {
  changes = api.changes({
    open: () => shell?.setLive('open'),
    down: () => shell?.setLive('down'),
    change: (data) => {
      store.emit('change', data);
      const al = data?.albums || {};
      const as = data?.assets || {};
      if (al.inserted?.length || al.updated?.length || al.deleted?.length || as.inserted?.length || as.deleted?.length
        || as.trashed?.length || as.recovered?.length) refreshAlbums();
      if (store.savedSearches.length && (as.inserted?.length || as.updated?.length || as.deleted?.length || as.trashed?.length
        || as.recovered?.length || al.inserted?.length || al.updated?.length || al.deleted?.length)) refreshSavedSearches();
    },
    reset: () => { store.emit('reset'); refreshAlbums(); refreshSavedSearches(); },
    progress: (data) => {
      store.emit('progress', data?.assets || {});
      // How far the library's faces are found (0 to 1), while they are being found.
      if (typeof data?.faces === 'number') store.emit('faces-progress', data.faces);
    },
  });
}

// ---------------------------------------------------------------- routing
async function onHashChange() {
  if (restoring) { restoring = false; lastHash = location.hash; return; }
  const hash = location.hash;
  // An editor with unsaved changes asks first.
  if (overlay?.screen.confirmLeave && !overlay.screen.canLeave()) {
    const ok = await overlay.screen.confirmLeave();
    if (!ok) {
      restoring = true;
      pendingReplace = false;
      location.hash = lastHash;
      return;
    }
  }
  if (pendingReplace) { pendingReplace = false; stack[stack.length - 1] = hash; }
  else if (stack.length > 1 && stack[stack.length - 2] === hash) stack.pop();
  else stack.push(hash);
  if (stack.length > 200) stack = stack.slice(-200);
  lastHash = hash;
  messagesNavigated(hash);
  route(false);
}

function route(initial) {
  const r = parseHash();
  if (!r.name) { location.replace('#/library'); return; }
  const isOverlay = OVERLAY_ROUTES.has(r.name);
  if (!isOverlay && !BASE_ROUTES.has(r.name)) {
    toast.error(`There is no page “${r.raw}”. Showing the library.`);
    carryMessagesTo('#/library');
    location.replace('#/library');
    return;
  }

  if (isOverlay) {
    if (!base) {
      const q = r.query;
      mountBase(q.get('album') ? { name: 'album', id: q.get('album') } : q.get('deleted') ? { name: 'recently-deleted' } : q.get('person') ? { name: 'person', id: q.get('person') }
        : q.get('place') ? { name: 'places', id: q.get('place') } : q.get('country') ? { name: 'places', id: 'country', sub: q.get('country') }
          : q.get('savedSearch') ? { name: 'searches', id: q.get('savedSearch') } : { name: 'library' });
    }
    const key = r.name;
    if (overlay && overlay.name === key && overlay.screen.update && r.name === 'photo') {
      overlay.screen.update({ id: r.id, query: r.query });
    } else {
      const previous = overlay;
      overlay?.screen.unmount();
      overlay = null;
      const mount = { photo: mountDetail, edit: mountEditor, camera: mountCamera }[r.name];
      const screen = mount(shell.overlay, { id: r.id, query: r.query }, ctx);
      overlay = { name: key, screen, id: r.id };
      if (!previous) base.screen.hide?.();
      document.body.classList.add('has-overlay');
      uploads.setDocked(true);
    }
    overlay.id = r.id;
    document.title = `${TITLES[r.name]} — Sepia`;
    shell.setActive(['album', 'person', 'searches'].includes(base.name) ? `${base.name}/${base.id}` : base.name === 'places' ? base.key : base.name);
    return;
  }

  // A base route: close any overlay.
  let returnTo = null;
  if (overlay) {
    returnTo = overlay.name === 'photo' || overlay.name === 'edit' ? overlay.id : null;
    overlay.screen.unmount();
    overlay = null;
    document.body.classList.remove('has-overlay');
    uploads.setDocked(false);
  }
  const key = baseKey(r);
  // Before the screen is mounted: a screen that knows its own title (a smart album's) may say it at once.
  document.title = `${TITLES[r.name] || 'Sepia'} — Sepia`;
  if (!base || base.key !== key) {
    base?.screen.unmount();
    base = null;
    mountBase({ name: r.name, id: r.id, sub: r.sub, query: r.query });
    if (!initial) focusHeading();
  } else {
    base.screen.show?.();
    if (returnTo && base.screen.focusAsset) requestAnimationFrame(() => base.screen.focusAsset(returnTo));
  }
  shell.setActive(key);
}

function mountBase({ name, id, sub, query }) {
  const key = baseKey({ name, id, sub });
  let screen;
  if (name === 'albums') screen = mountAlbums(shell.main, {}, ctx);
  else if (name === 'settings') screen = mountSettings(shell.main, {}, ctx);
  else if (name === 'people') screen = mountPeople(shell.main, {}, ctx);
  else if (name === 'person') screen = mountPerson(shell.main, { id }, ctx);
  // #/places: the list; #/places/<city id> and #/places/country/<code>: a place's photos.
  else if (name === 'places' && id === 'country' && sub) screen = mountPlace(shell.main, { country: sub }, ctx);
  else if (name === 'places' && id && id !== 'country') screen = mountPlace(shell.main, { id }, ctx);
  else if (name === 'places') screen = mountPlaces(shell.main, {}, ctx);
  else if (name === 'map') screen = mountMap(shell.main, {}, ctx);
  else if (name === 'duplicates') screen = mountDuplicates(shell.main, {}, ctx);
  // #/searches/<id>: a smart album's photos; #/searches alone: the albums, where the smart albums are listed.
  else if (name === 'searches') screen = id ? mountSavedSearch(shell.main, { id }, ctx) : mountAlbums(shell.main, {}, ctx);
  else screen = mountLibrary(shell.main, { view: name, albumId: id, query }, ctx);
  base = { key, name, id, screen };
}

function focusHeading() {
  const h1 = shell?.main.querySelector('h1');
  if (h1) { h1.tabIndex = -1; h1.focus({ preventScroll: true }); }
}

function globalKeys(e) {
  if (e.key === 'Escape' && shell?.menuOpen) shell.closeMenu();
}

boot().catch((e) => {
  console.error(e);
  clear(app);
  app.append(h('p', { class: 'form-error', role: 'alert' }, `Sepia could not start: ${e.message}`));
});
