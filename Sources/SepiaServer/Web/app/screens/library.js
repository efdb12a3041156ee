// Library screens: the timeline (grouped by month, with the scrubber), Favorites, Recently Added,
// Edited, Hidden, Recently Deleted, an album's photos, a person's (whose page adds its own tools: extend), a
// place's (a city's or a country's), Search and a smart album's (a saved search's: what its query finds now; its page
// adds its tools). All share the virtualised grid and selection mode; all but Recently Deleted, a person's page, a
// place's and a smart album's Add Photos (picker and drag-and-drop) and Take Photo. Recently Deleted shows the
// days each item has left, and recovers or deletes for good what is selected. Search offers Save as Smart Album.
import { api } from '../api.js';
import { h, plural, photosAndVideos, debounce, keyBelongsToControl } from '../util.js';
import { icon } from '../icons.js';
import { store } from '../store.js';
import { MonthSource, ListSource } from '../sources.js';
import { VirtualGrid } from '../components/virtual-grid.js';
import { TimelineScrubber } from '../components/timeline-scrubber.js';
import { Selection, selectionBar } from '../components/selection-bar.js';
import { uploads, pickAndUpload, dragHasFiles, setUploadContext } from '../components/upload-queue.js';
import { toast } from '../components/toast.js';
import { confirmDialog, promptDialog } from '../components/dialog.js';
import { shareLinkDialog } from '../components/share-dialog.js';
import * as actions from '../actions.js';
import { adjustDateDialog } from '../components/metadata.js';
import { searchBox, searchTerms, SEARCH_MAX, SEARCH_MAX_TERMS } from '../components/search-box.js';
import { saveAsSmartAlbum } from '../smart-albums.js';
import { menuButton } from '../components/menu.js';

/** What one can search for, said under the field when nothing is typed and when nothing is found. */
const SEARCH_FINDS = 'Search finds the start of words in titles, captions, keywords, file names, cameras, places, albums and '
  + 'people’s names; kinds such as videos, favorites or screenshots; and dates such as 2023, June 2023, 2023-06-14 or summer 2023.';

const VIEWS = {
  library: {
    title: 'Library', source: () => new MonthSource(),
    empty: { icon: 'imagePlus', title: 'No photos yet', text: 'Add Photos or Take Photo to start your library. You can also drop photos anywhere on this page.', textNoCamera: 'Add Photos to start your library. You can also drop photos anywhere on this page.' },
  },
  favorites: {
    title: 'Favorites', source: () => new ListSource({ favorites: true }),
    empty: { icon: 'heart', title: 'No favorites yet', text: 'Open a photo and tap the heart, or select photos and choose Favorite. They will appear here.' },
  },
  recents: {
    title: 'Recently Added', source: () => new ListSource({ sort: 'addedDate', order: 'desc' }),
    empty: { icon: 'clock', title: 'Nothing added yet', text: 'Photos you add appear here, newest first. Add Photos or Take Photo.' },
  },
  edited: {
    title: 'Edited', source: () => new ListSource({ edited: true }),
    empty: { icon: 'wand', title: 'No edited photos', text: 'Open a photo and choose Edit to apply a filter, crop or straighten it. Edited photos gather here.' },
  },
  hidden: {
    title: 'Hidden', source: () => new ListSource({ hidden: true }),
    empty: { icon: 'eyeOff', title: 'No hidden photos', text: 'Hidden photos stay out of the library. Open a photo and choose Hide to move it here.' },
  },
  // #/search/<text>: what the words find (GET /search: words, kinds and dates, all of them), newest first, as it is
  // typed; the field offers the places, keywords, albums and people the last word may mean (components/search-box.js).
  search: {
    title: 'Search', source: (text) => searchSource(text),
    empty: (text) => ({ icon: 'search', title: `No results for “${text}”`, text: `Try fewer words, or others. ${SEARCH_FINDS}` }),
    prompt: { icon: 'search', title: 'Search your photos', text: `The photos show as you type. ${SEARCH_FINDS}` },
  },
  // #/searches/<id>: a smart album, a saved search's photos — what its query finds now, newest first, read as a search
  // is (screens/saved-search.js adds Rename, Edit Query and Delete; the title and the query are the saved search's).
  'saved-search': {
    title: 'Smart Album', source: (text) => searchSource(text),
    empty: (text) => ({ icon: 'smartAlbum', title: 'No photos found yet', text: `Nothing in your library matches “${text}” now; photos that do appear here as they are added or described. Edit Query to search for other words.` }),
  },
  // #/person/<id>: the photos with one of the person's faces, newest first (screens/person.js adds the name and tools).
  person: {
    title: 'Person', source: (id) => new ListSource({ person: id, order: 'desc' }),
    empty: { icon: 'user', title: 'No photos of this person', text: 'Their photos may be hidden, or in Recently Deleted.' },
  },
  // #/places/<city id> and #/places/country/<code>: the photos placed in a city or a country, newest first
  // (screens/place.js puts the place's name in the title).
  place: {
    title: 'Place', source: (id) => new ListSource({ place: id, order: 'desc' }),
    empty: { icon: 'pin', title: 'No photos here', text: 'The photos taken here may be hidden, in Recently Deleted, or have been given another location.' },
  },
  country: {
    title: 'Place', source: (code) => new ListSource({ country: code, order: 'desc' }),
    empty: { icon: 'pin', title: 'No photos here', text: 'The photos taken here may be hidden, in Recently Deleted, or have been given another location.' },
  },
  'recently-deleted': {
    title: 'Recently Deleted',
    source: () => new ListSource({}, {
      fetch: (params, signal) => api.recentlyDeleted(params, signal).then((page) => { store.noteRetention(page.retentionDays); return page; }),
    }),
    empty: { icon: 'trash', title: 'No recently deleted items', text: () => `Photos and videos you delete stay here for ${plural(store.retentionDays, 'day')}, with their edits and albums, so that you can recover them.` },
  },
};

/**
 * The list a search shows, paged by cursor: what the words find, newest first. Each page's answer says how the words
 * were read (`terms`); the source keeps the latest with the words it was for, so that an older answer is never shown
 * as the reading of newer words.
 */
function searchSource(text) {
  const source = new ListSource({ q: text }, {
    fetch: (params, signal) => api.search(params, signal).then((page) => {
      if (params.q === source.params.q) source.readAs = { q: params.q, terms: page.terms || [] };
      return page;
    }),
  });
  source.readAs = null;
  return source;
}

/**
 * mountLibrary(container, {view: 'library'|'favorites'|…|'album'|'person'|'place'|'country'|'search'|'saved-search', albumId,
 * extend}, ctx) (`albumId`: the album's, the person's, the city's or the saved search's id, the country's code or the
 * search's words).
 * `extend({titleEl, tools, refresh, el})` may add to the top bar (a person's page: its name, Hide, Merge; a place's:
 * its name) and returns {unmount()}.
 * Returns the screen: {el, unmount, neighbors(id), revealAsset(id), show(), hide()}
 */
export function mountLibrary(container, params, ctx) {
  const isAlbum = params.view === 'album';
  const isDeleted = params.view === 'recently-deleted';
  const isPerson = params.view === 'person';
  const isPlace = params.view === 'place' || params.view === 'country';
  /** A smart album: a saved search's photos. */
  const isSaved = params.view === 'saved-search';
  /** Nothing is added here: Recently Deleted, a person's photos (faces decide who is in them), a place's (locations
   *  decide where they were taken), a smart album's (its query decides what it shows). */
  const addsNothing = isDeleted || isPerson || isPlace || isSaved;
  const view = isAlbum ? null : VIEWS[params.view] || VIEWS.library;
  let album = isAlbum ? store.albums.find((a) => a.id === params.albumId) || null : null;
  const isSearch = params.view === 'search';
  /** The saved search shown (its title and query), as last read. */
  let saved = isSaved ? store.savedSearches.find((x) => x.id === params.albumId) || null : null;
  /** The words searched for: as in the address (they change as they are typed), or the saved search's query. */
  let searchText = isSearch ? (params.albumId || '').trim().slice(0, SEARCH_MAX) : isSaved ? saved?.query || '' : '';
  const source = isAlbum ? new ListSource({ album: params.albumId }) : view.source(isSearch || isSaved ? searchText : params.albumId);
  const selection = new Selection();
  const offs = [];

  // ----- Top bar
  const titleEl = h('h1', { class: 'topbar-title', 'data-testid': 'screen-title' }, isAlbum ? (album?.title || 'Album') : isSaved ? (saved?.title || view.title) : view.title);
  const subtitle = h('span', { class: 'topbar-subtitle', 'data-testid': 'photo-count' }, '');
  const menuBtn = h('button', { type: 'button', class: 'btn icon ghost menu-btn', 'data-testid': 'menu-button', aria: { label: 'Open menu', controls: 'sidebar' }, onclick: () => ctx.shell.openMenu() }, icon('menu'));
  const selectBtn = h('button', { type: 'button', class: 'btn', 'data-testid': 'selection-toggle', aria: { pressed: 'false' }, onclick: () => (selection.active ? selection.stop() : selection.start()) }, 'Select');
  const addBtn = h('button', { type: 'button', class: 'btn primary', 'data-testid': 'add-photos', onclick: () => pickAndUpload(uploadOptions()) }, icon('plus'), h('span', { class: 'label-wide' }, 'Add Photos'));
  addBtn.setAttribute('aria-label', 'Add Photos');
  const cameraBtn = h('button', { type: 'button', class: 'btn', 'data-testid': 'take-photo', aria: { label: 'Take Photo' }, onclick: () => { location.hash = '#/camera' + (isAlbum ? `?album=${params.albumId}` : ''); } }, icon('camera'), h('span', { class: 'label-wide' }, 'Take Photo'));
  cameraBtn.hidden = !store.cameraAvailable || addsNothing;
  addBtn.hidden = addsNothing;
  offs.push(store.on('camera', (ok) => { cameraBtn.hidden = !ok || addsNothing; if (source.loaded && !source.total) afterLayout(); }));

  // An album's tools: icons on a wide screen; on a phone, one menu, so that the album's title keeps its room.
  const albumActions = [
    { testid: 'album-download', text: 'Download', label: 'Download album', title: 'Download the album as a ZIP file', glyph: 'download', run: () => downloadAlbum() },
    { testid: 'album-share-link', text: 'Share Link', label: 'Share album link', title: 'Share a link to this album', glyph: 'link', run: () => shareLinkDialog({ albumID: params.albumId }, `“${album?.title || 'album'}”`) },
    { testid: 'album-rename', text: 'Rename', label: 'Rename album', title: 'Rename album', glyph: 'pencil', run: () => renameAlbum() },
    { testid: 'album-delete', text: 'Delete', label: 'Delete album', title: 'Delete album', glyph: 'trash', run: () => deleteAlbum(), danger: true },
  ];
  const albumTools = isAlbum ? h('div', { class: 'topbar-group album-tools' },
    ...albumActions.map((a) => h('button', { type: 'button', class: 'btn icon ghost album-tool', 'data-testid': a.testid, aria: { label: a.label }, title: a.title, onclick: a.run }, icon(a.glyph))),
    menuButton({
      label: 'Album actions', testid: 'album-more', cls: 'btn icon ghost album-more',
      items: albumActions.map((a) => ({ label: a.text, icon: a.glyph, testid: a.testid.replace('album-', 'album-menu-'), danger: a.danger, run: a.run })),
    })) : null;

  const zoomOut = h('button', { type: 'button', class: 'btn icon ghost wide-only', 'data-testid': 'zoom-out', aria: { label: 'Smaller thumbnails' }, title: 'Smaller thumbnails (−)', onclick: () => zoom(-1) }, icon('zoomOut'));
  const zoomIn = h('button', { type: 'button', class: 'btn icon ghost wide-only', 'data-testid': 'zoom-in', aria: { label: 'Larger thumbnails' }, title: 'Larger thumbnails (+)', onclick: () => zoom(1) }, icon('zoomIn'));
  const zoomGroup = h('div', { class: 'topbar-group zoom-group', role: 'group', aria: { label: 'Thumbnail size' } }, zoomOut, zoomIn);
  // Search: the one search box on the search screen (its words search as they are typed, and it offers places,
  // keywords, albums and people), a button that opens it elsewhere.
  const box = isSearch ? searchBox({ value: searchText, onSearch: (text) => search(text), go: (hash) => ctx.go(hash) }) : null;
  const searchField = box?.el || null;
  const searchBtn = isSearch ? null : h('button', { type: 'button', class: 'btn icon ghost', 'data-testid': 'search-open', aria: { label: 'Search' }, title: 'Search by words, places, people, kinds or dates', onclick: () => { location.hash = '#/search/'; } }, icon('search'));
  // Save as Smart Album: the words shown kept as a smart album (shown while there are words).
  const saveBtn = isSearch ? h('button', {
    type: 'button', class: 'btn search-save', 'data-testid': 'search-save', aria: { label: 'Save as Smart Album' },
    title: 'Save this search as a smart album: its photos stay what the words find', onclick: () => saveSearch(),
  }, icon('smartAlbum'), h('span', { class: 'label-wide' }, 'Save as Smart Album')) : null;
  if (saveBtn) saveBtn.hidden = !searchText;
  const extraTools = params.extend ? h('div', { class: 'topbar-group extra-tools' }) : null;
  const topbar = h('header', { class: 'topbar' },
    menuBtn,
    isAlbum ? h('a', { href: '#/albums', class: 'btn icon ghost back-btn', aria: { label: 'All albums' } }, icon('back')) : null,
    isPerson ? h('a', { href: '#/people', class: 'btn icon ghost back-btn', 'data-testid': 'person-back', aria: { label: 'All people' } }, icon('back')) : null,
    isPlace ? h('a', { href: '#/places', class: 'btn icon ghost back-btn', 'data-testid': 'place-back', aria: { label: 'All places' } }, icon('back')) : null,
    isSaved ? h('a', { href: '#/albums', class: 'btn icon ghost back-btn', 'data-testid': 'smart-album-back', aria: { label: 'All albums' } }, icon('back')) : null,
    h('div', { class: 'topbar-titles' }, titleEl, subtitle),
    searchField || h('div', { class: 'topbar-spacer' }),
    saveBtn, searchBtn, zoomGroup, albumTools, extraTools, selectBtn, cameraBtn, addBtn);

  // ----- Content
  const scroller = h('div', { class: 'scroller', 'data-testid': 'grid-scroller' });
  const status = h('div', { class: 'grid-status' });
  const grid = new VirtualGrid({
    scroller, source, selection,
    label: isAlbum ? `Photos in ${album?.title || 'album'}` : isSaved ? `Photos in ${saved?.title || 'the smart album'}` : view.title,
    reorderable: isAlbum,
    onOpen: (asset) => {
      const q = isAlbum ? `?album=${params.albumId}` : isDeleted ? '?deleted=1' : isPerson ? `?person=${encodeURIComponent(params.albumId)}`
        : isPlace ? `?${params.view === 'country' ? 'country' : 'place'}=${encodeURIComponent(params.albumId)}`
          : isSaved ? `?savedSearch=${encodeURIComponent(params.albumId)}` : '';
      location.hash = `#/photo/${asset.id}${q}`;
    },
    onMove: isAlbum ? moveInAlbum : null,
    onSectionChange: () => {},
  });
  const retentionText = () => `Items stay here for ${plural(store.retentionDays, 'day')}, with their edits and albums; then they are deleted for good. Each shows the days it has left. Select items to recover them or to delete them now.`;
  const hint = isAlbum ? h('p', { class: 'album-hint hint' }, 'Drag photos to change their order, or focus one and press Alt + arrow keys.')
    : isDeleted ? h('p', { class: 'album-hint hint', 'data-testid': 'recently-deleted-hint' }, retentionText()) : null;
  if (isDeleted) offs.push(store.on('retention', () => { hint.textContent = retentionText(); }));
  // A search's terms as the server read them ("summer 2023", "Favorites"), over its results.
  const reading = isSearch || isSaved ? h('div', { class: 'search-read-wrap' }) : null;
  scroller.append(...[grid.sticky, hint, reading, status, grid.el, grid.live].filter(Boolean));
  let scrubber = null;
  if (source.grouped) scrubber = new TimelineScrubber(grid);

  function zoom(delta) {
    const z = Math.max(0, Math.min(2, VirtualGrid.zoom + delta));
    grid.setZoom(z);
    syncZoom();
  }
  function syncZoom() {
    zoomOut.disabled = VirtualGrid.zoom === 0;
    zoomIn.disabled = VirtualGrid.zoom === 2;
  }
  syncZoom();

  // ----- Selection bar (Delete, Recover and Delete Now always in view, in words; the rest may go into More)
  const deletedActions = [
    { id: 'recover', label: 'Recover', icon: 'recover', pinned: true, run: async (ids) => { if (await actions.recoverPhotos(ids)) { source.removeIds(ids); selection.stop(); } } },
    { id: 'delete-now', label: 'Delete Now', icon: 'trash', danger: true, pinned: true, run: async (ids) => { if (await actions.deletePhotosNow(ids)) { source.removeIds(ids); selection.stop(); } } },
  ];
  const selActions = isDeleted ? deletedActions : [
    { id: 'favorite', label: 'Favorite', icon: 'heart', run: (ids) => toggleFavorite(ids), labelFor: (ids) => (allFavorite(ids) ? 'Unfavorite' : 'Favorite') },
    { id: 'add-to-album', label: 'Add to Album', short: 'Album', icon: 'album', run: (ids) => actions.addToAlbum(ids) },
    isAlbum ? { id: 'remove-from-album', label: 'Remove from Album', short: 'Remove', icon: 'close', run: removeFromAlbum } : null,
    { id: 'hide', label: params.view === 'hidden' ? 'Unhide' : 'Hide', icon: params.view === 'hidden' ? 'eye' : 'eyeOff', run: async (ids) => { if (await actions.setHidden(ids, params.view !== 'hidden')) { source.removeIds(ids); selection.stop(); } } },
    { id: 'adjust-date', label: 'Adjust Date & Time', short: 'Date', icon: 'calendar', run: adjustDates },
    { id: 'download', label: 'Download', icon: 'download', run: (ids) => actions.downloadPhotos(ids) },
    { id: 'copy-edits', label: 'Copy Edits', short: 'Copy', icon: 'copy', enabled: (ids) => ids.length === 1, run: (ids) => actions.copyEditsOf(ids[0]).then(() => bar.update()) },
    { id: 'paste-edits', label: 'Paste Edits', short: 'Paste', icon: 'paste', enabled: () => !!store.copiedEdit(), run: (ids) => actions.pasteEdits(ids, (id) => source.find(id)?.asset) },
    { id: 'apply-preset', label: 'Apply Preset', short: 'Preset', icon: 'preset', menuTestid: 'preset-menu', menu: (ids) => actions.presetMenuItems(ids, (id) => source.find(id)?.asset) },
    { id: 'delete', label: 'Delete', icon: 'trash', danger: true, pinned: true, iconAlone: true, run: async (ids) => { if (await actions.deletePhotos(ids)) { source.removeIds(ids); selection.stop(); } } },
  ].filter(Boolean);
  const bar = selectionBar(selection, selActions);
  offs.push(store.on('copied', () => bar.update()));
  offs.push(selection.on('change', () => {
    selectBtn.textContent = selection.active ? 'Cancel' : 'Select';
    selectBtn.setAttribute('aria-pressed', String(selection.active));
    el.classList.toggle('selecting', selection.active);
  }));

  // ----- Drop overlay
  // (Not in Recently Deleted: there is nothing to add there.)
  const dropOverlay = h('div', { class: 'drop-overlay', 'data-testid': 'drop-overlay', 'aria-hidden': 'true' },
    h('div', { class: 'drop-card' }, icon('upload', { cls: 'drop-icon' }), h('p', { class: 'drop-title' }, isAlbum ? `Drop photos and videos to add them to “${album?.title || 'this album'}”` : 'Drop photos and videos to add them to your library'), h('p', { class: 'hint' }, 'Photos: JPEG, PNG, WebP, HEIC, AVIF, TIFF and camera RAW (DNG, CR2, NEF, ARW, RAF, ORF, RW2, …). Videos: MOV, MP4, M4V, 3GP, MKV, WebM, AVI and MTS.')));
  dropOverlay.hidden = true;

  const wrap = h('div', { class: ['scroll-wrap', scrubber && 'has-scrubber'] }, scroller, scrubber?.el);
  const el = h('section', { class: ['screen', 'library-screen', isSearch && 'search-screen', isPerson && 'person-screen', isPlace && 'place-screen', isSaved && 'smart-album-screen', isAlbum && 'album-screen'], aria: { labelledby: 'screen-title-' + params.view } }, topbar, wrap, bar, dropOverlay);
  titleEl.id = 'screen-title-' + params.view;
  container.append(el);

  function uploadOptions() {
    return { album: isAlbum ? params.albumId : null };
  }
  setUploadContext(uploadOptions());

  // ----- Loading
  async function load() {
    if (isSearch && !searchText) { source.clear(); return; }
    // A search's next words keep the photos of the last ones on screen until theirs come.
    if (!source.loaded) {
      status.replaceChildren(h('div', { class: 'grid-loading', role: 'status' }, h('span', { class: 'spinner' }), 'Loading photos…'),
        h('div', { class: 'skeleton-grid', 'aria-hidden': 'true' }, Array.from({ length: 18 }, () => h('div', { class: 'skeleton' }))));
    }
    try {
      if (isAlbum) await loadAlbumInfo();
      if (isSaved) await loadSavedInfo();
      await (isSearch || isSaved ? source.show({ q: searchText }) : source.load());
    } catch (e) {
      status.replaceChildren(h('div', { class: 'empty', role: 'alert' },
        icon('cloudOff', { cls: 'empty-icon' }), h('h2', {}, 'The photos could not be loaded'), h('p', {}, e.message),
        h('div', { class: 'actions' }, h('button', { type: 'button', class: 'btn primary', onclick: load }, 'Try Again'))));
    }
  }

  // ----- Search as you type: the photos follow the field after a short pause (the search box's), the address keeps
  // the words (in place, without a navigation), and a newer search cancels an older one still in flight
  // (ListSource.load).
  function search(text) {
    saveBtn.hidden = !text;
    if (text === searchText) return;
    searchText = text;
    ctx.renameBase('#/search/' + encodeURIComponent(text));
    if (selection.active) selection.stop();
    scroller.scrollTop = 0;
    load();
  }

  /** Save as Smart Album: what is typed is searched for at once, and those words are saved under a title. */
  function saveSearch() {
    box.searchNow();
    if (searchText) saveAsSmartAlbum(searchText, { go: (hash) => ctx.go(hash) });
  }

  /** A smart album's title and query, from the saved searches (read first when they are not yet). */
  async function loadSavedInfo() {
    if (!store.savedSearchesLoaded) {
      await (store.savedSearchesReading ? store.savedSearchesReading.catch(() => store.loadSavedSearches()) : store.loadSavedSearches());
    }
    const found = store.savedSearches.find((x) => x.id === params.albumId);
    if (!found) throw new Error('This smart album no longer exists. It may have been deleted in another window.');
    showSaved(found);
  }

  function showSaved(found) {
    saved = found;
    searchText = found.query;
    titleEl.textContent = found.title;
    grid.el.setAttribute('aria-label', `Photos in ${found.title}`);
    document.title = `${found.title} — Sepia`;
  }

  async function loadAlbumInfo() {
    try {
      album = await api.album(params.albumId);
      titleEl.textContent = album.title;
      grid.el.setAttribute('aria-label', `Photos in ${album.title}`);
      dropOverlay.querySelector('.drop-title').textContent = `Drop photos and videos to add them to “${album.title}”`;
    } catch (e) {
      if (e.status === 404) throw new Error('This album no longer exists. It may have been deleted in another window.');
      throw e;
    }
  }

  // How many of the items are videos: the months say (the timeline), else the server is asked (a list's section
  // counts everything): "12 photos, 3 videos", as Photos counts. The count shown stays until the answer comes; a
  // later layout's answer wins.
  let countAsked = 0;
  async function describeCount(total) {
    const asked = ++countAsked;
    if (isDeleted) { subtitle.textContent = plural(total, 'item'); return; }
    if (isSearch || isSaved) { describeSearchCount(total, asked); return; }
    const filter = source.kind === 'list' ? source.params : {};
    let videos = 0;
    if (source.kind === 'months') videos = source.sections.reduce((n, s) => n + s.videos, 0);
    else if (filter.mediaType === 'video') videos = total;
    else if (filter.mediaType !== 'image' && total > 0) {
      try { videos = (await api.assets({ ...filter, mediaType: 'video', limit: 1 })).total || 0; } catch {
        // Unknown: the count without saying which are videos.
        if (asked === countAsked && source.loaded) subtitle.textContent = plural(total, 'item');
        return;
      }
    }
    if (asked === countAsked && source.loaded) subtitle.textContent = photosAndVideos(Math.max(0, total - videos), Math.min(total, videos));
  }

  // A search's videos: the same words with "videos" added, as every term must hold (none when the words ask for
  // photos, all when they ask for videos).
  async function describeSearchCount(total, asked) {
    const q = source.params.q;
    const terms = source.readAs?.q === q ? source.readAs.terms : null;
    const kinds = (terms || []).filter((t) => t.kind === 'kind').map((t) => t.value);
    let videos = null;
    if (kinds.includes('video')) videos = total;
    else if (kinds.includes('photo') || !total) videos = 0;
    else if (terms && terms.length < SEARCH_MAX_TERMS && q.length + ' videos'.length <= SEARCH_MAX) {
      try { videos = (await api.search({ q: `${q} videos`, limit: 1 })).total || 0; } catch { videos = null; }
    }
    if (asked !== countAsked || !source.loaded) return;
    // Unknown (the words too long to add to, or the question unanswered): the count without saying which are videos.
    subtitle.textContent = videos === null ? plural(total, 'item') : photosAndVideos(Math.max(0, total - videos), Math.min(total, videos));
  }

  /** How the search's words were read, over the results (when the reading says more than the words typed). */
  function showReading() {
    if (!reading) return;
    const terms = source.loaded && searchText && source.readAs?.q === searchText ? source.readAs.terms : [];
    if (!terms.some((t) => t.kind !== 'word')) { reading.replaceChildren(); return; }
    reading.replaceChildren(searchTerms(terms));
  }

  function afterLayout() {
    const total = source.total;
    const prompting = isSearch && !searchText;
    showReading();
    if (!source.loaded || prompting) {
      countAsked++;
      subtitle.textContent = '';
    } else describeCount(total);
    if (!source.loaded) return;
    if (!total) {
      const e = isAlbum
        ? { icon: 'album', title: 'This album is empty', text: 'Add Photos here, or select photos in the Library and choose Add to Album.' }
        : prompting ? view.prompt : typeof view.empty === 'function' ? view.empty(searchText) : view.empty;
      const emptyActions = h('div', { class: 'actions' });
      if (params.view !== 'hidden' && !addsNothing && !isSearch) {
        emptyActions.append(h('button', { type: 'button', class: 'btn primary', 'data-testid': 'empty-add-photos', onclick: () => pickAndUpload(uploadOptions()) }, icon('plus'), 'Add Photos'));
        if (store.cameraAvailable) emptyActions.append(h('button', { type: 'button', class: 'btn', 'data-testid': 'empty-take-photo', onclick: () => { location.hash = '#/camera'; } }, icon('camera'), 'Take Photo'));
      }
      const chosen = !store.cameraAvailable && e.textNoCamera ? e.textNoCamera : e.text;
      const text = typeof chosen === 'function' ? chosen() : chosen;
      status.replaceChildren(h('div', { class: 'empty', 'data-testid': 'empty-state' }, icon(e.icon, { cls: 'empty-icon' }), h('h2', {}, e.title), h('p', {}, text), emptyActions));
    } else status.replaceChildren();
    scrubber?.update();
    grid.el.hidden = !total;
    selectBtn.disabled = !total;
  }
  offs.push(source.on('layout', afterLayout));
  offs.push(source.on('data', () => { store.rememberAssets(source.loadedAssets().slice(-400)); }));
  offs.push(source.on('error', (e) => toast.error(e, 'Some photos could not be loaded.')));

  // ----- Live changes
  const pendingUpdated = new Set();
  const refresh = debounce(async () => {
    if (isSearch && !searchText) return; // nothing asked yet: nothing to read again
    box?.forget();
    try {
      if (isAlbum) await loadAlbumInfo();
      if (isSaved && !saved) { await load(); return; }
      await source.refresh();
    } catch (e) { toast.error(e, 'The library could not be refreshed.'); }
  }, 250);
  const fetchUpdated = debounce(async () => {
    const ids = [...pendingUpdated].filter((id) => source.find(id));
    pendingUpdated.clear();
    if (ids.length > 60) { refresh(); return; }
    for (const id of ids) {
      try {
        const a = await api.asset(id);
        store.rememberAssets([a]);
        // A list filtered by a property (favorites, hidden, edited) may lose it: reload then.
        if (!source.grouped && ['favorites', 'hidden', 'edited'].includes(params.view)) { refresh(); return; }
        source.updateAsset(a);
      } catch (e) {
        if (e.status === 404) source.removeIds([id]);
      }
    }
  }, 150);
  offs.push(store.on('change', (data) => {
    const a = data?.assets || {};
    const al = data?.albums || {};
    // Moved to Recently Deleted: gone from every view but that one; recovered, the other way round.
    const gone = [...(a.deleted || []), ...((isDeleted ? a.recovered : a.trashed) || [])];
    const arrived = [...(a.inserted || []), ...((isDeleted ? a.trashed : a.recovered) || [])];
    if (gone.length) { source.removeIds(gone); selection.remove(gone); }
    if (arrived.length || gone.length) refresh();
    if (a.updated?.length) {
      if (source.grouped || params.view === 'recents' || isAlbum) { a.updated.forEach((id) => pendingUpdated.add(id)); fetchUpdated(); }
      else refresh();
    }
    if (isAlbum && (al.updated?.includes(params.albumId) || al.deleted?.includes(params.albumId))) refresh();
  }));
  offs.push(store.on('reset', refresh));
  // A smart album renamed, or its query edited (here or in another window): the title follows, and the photos are
  // those of the new query.
  if (isSaved) {
    offs.push(store.on('searches', (list) => {
      const now = list.find((x) => x.id === params.albumId);
      if (!now || !saved) return;
      const queryChanged = now.query !== saved.query;
      showSaved(now);
      if (queryChanged) { scroller.scrollTop = 0; load(); }
    }));
  }
  offs.push(store.on('assets-updated', (list) => {
    for (const a of list) source.updateAsset(a);
    if (['favorites', 'hidden', 'edited'].includes(params.view)) refresh();
  }));
  offs.push(store.on('assets-deleted', (ids) => { source.removeIds(ids); selection.remove(ids); }));
  offs.push(store.on('assets-recovered', (ids) => {
    if (isDeleted) { source.removeIds(ids); selection.remove(ids); } else refresh();
  }));
  offs.push(uploads.onItemDone((item) => { if (item.state === 'done') refresh(); }));

  // ----- Actions
  function allFavorite(ids) {
    const loaded = ids.map((id) => source.find(id)?.asset).filter(Boolean);
    return loaded.length > 0 && loaded.every((a) => a.isFavorite);
  }

  async function toggleFavorite(ids) {
    const updated = await actions.setFavorite(ids, !allFavorite(ids));
    if (updated) { for (const a of updated) source.updateAsset(a); bar.update(); }
  }

  /** Adjust Date & Time for the selection: one photo's date, or a shift of them all; the grid re-sorts. */
  async function adjustDates(ids) {
    let assets;
    try {
      assets = await Promise.all(ids.map((id) => { const a = source.find(id)?.asset; return a?.localCreationDate ? a : api.asset(id); }));
    } catch (e) { toast.error(e, 'The photos could not be loaded.'); return; }
    assets.sort((a, b) => String(a.creationDate).localeCompare(String(b.creationDate)));
    const updated = await adjustDateDialog(assets);
    if (updated) { selection.stop(); refresh(); }
  }

  async function removeFromAlbum(ids) {
    try {
      await api.removeFromAlbum(params.albumId, ids);
      source.removeIds(ids);
      selection.stop();
      store.loadAlbums().catch(() => {});
      toast(`Removed ${plural(ids.length, 'photo')} from the album. ${ids.length === 1 ? 'It stays' : 'They stay'} in your library.`);
    } catch (e) { toast.error(e, 'The photos could not be removed from the album.'); }
  }

  async function moveInAlbum(ids, index) {
    source.moveLocal(ids, index);
    try {
      await api.moveInAlbum(params.albumId, ids, index);
    } catch (e) {
      toast.error(e, 'The new order could not be saved.');
      refresh();
    }
  }

  function downloadAlbum() {
    if (source.loaded && !source.total) { toast('This album is empty: there is nothing to download.'); return; }
    actions.downloadAlbum(album || { id: params.albumId, title: titleEl.textContent });
  }

  async function renameAlbum() {
    const title = await promptDialog({ title: 'Rename Album', label: 'Album name', value: album?.title || '', confirmLabel: 'Rename', testid: 'album-rename-dialog' });
    if (!title) return;
    try {
      album = await api.renameAlbum(params.albumId, title);
      titleEl.textContent = album.title;
      store.loadAlbums().catch(() => {});
      toast.success('Album renamed.');
    } catch (e) { toast.error(e, 'The album could not be renamed.'); }
  }

  async function deleteAlbum() {
    const ok = await confirmDialog({
      title: `Delete the album “${album?.title || ''}”?`,
      message: 'The album goes away; its photos stay in your library.',
      confirmLabel: 'Delete Album', destructive: true, testid: 'album-delete-dialog',
    });
    if (!ok) return;
    try {
      await api.deleteAlbum(params.albumId);
      await store.loadAlbums().catch(() => {});
      toast('Album deleted. Its photos are still in your library.');
      ctx.go('#/albums', { keepMessages: true });
    } catch (e) { toast.error(e, 'The album could not be deleted.'); }
  }

  // ----- Drag and drop files
  let dragDepth = 0;
  const onDragEnter = (e) => { if (!dragHasFiles(e) || ctx.overlayActive()) return; dragDepth++; dropOverlay.hidden = false; requestAnimationFrame(() => dropOverlay.classList.add('in')); };
  const onDragOver = (e) => { if (!dragHasFiles(e) || ctx.overlayActive()) return; e.preventDefault(); e.dataTransfer.dropEffect = 'copy'; };
  const onDragLeave = (e) => { if (!dragHasFiles(e)) return; dragDepth = Math.max(0, dragDepth - 1); if (!dragDepth) hideDrop(); };
  const onDrop = (e) => {
    if (!dragHasFiles(e) || ctx.overlayActive()) return;
    e.preventDefault();
    dragDepth = 0;
    hideDrop();
    const files = [...(e.dataTransfer.files || [])];
    if (files.length) uploads.add(files, uploadOptions());
  };
  function hideDrop() { dropOverlay.classList.remove('in'); dropOverlay.hidden = true; }
  if (!addsNothing) {
    document.addEventListener('dragenter', onDragEnter);
    document.addEventListener('dragover', onDragOver);
    document.addEventListener('dragleave', onDragLeave);
    document.addEventListener('drop', onDrop);
  }

  // ----- Keyboard: Escape leaves selection mode
  const onKey = (e) => {
    if (ctx.overlayActive() || keyBelongsToControl(e)) return;
    if (!e.ctrlKey && !e.metaKey && !e.altKey && (e.key === '+' || e.key === '=' || e.key === '-')) {
      e.preventDefault();
      zoom(e.key === '-' ? -1 : 1);
      return;
    }
    if (e.key === 'Escape' && selection.active) { e.preventDefault(); selection.stop(); grid.focus(); }
    else if ((e.key === 'Delete' || e.key === 'Backspace') && selection.active && selection.size) {
      e.preventDefault();
      const ids = [...selection.ids];
      (isDeleted ? actions.deletePhotosNow(ids) : actions.deletePhotos(ids)).then((ok) => { if (ok) { source.removeIds(ids); selection.stop(); } });
    }
  };
  document.addEventListener('keydown', onKey);

  const extension = params.extend?.({ titleEl, tools: extraTools, refresh: () => refresh(), el }) || null;
  load();
  if (isSearch && !searchText) requestAnimationFrame(() => box.input.focus());

  return {
    el,
    source,
    neighbors: (id) => source.neighbors(id),
    /** A photo opened by a link: load its month (or the first page) so that previous/next exist. */
    prepare(asset) {
      if (!asset || source.find(asset.id)) return;
      if (source.grouped && asset.creationDate) {
        const d = new Date(asset.creationDate);
        const keys = new Set([d.toISOString().slice(0, 7), new Date(d.getTime() + (asset.creationDateOffset || 0) * 1000).toISOString().slice(0, 7)]);
        source.sections.forEach((sec, si) => { if (keys.has(sec.key)) source.ensure(si, sec.count - 1); });
      } else if (source.sections[0]) source.ensure(0, source.sections[0].count - 1);
    },
    revealAsset: (id) => grid.revealAsset(id),
    focusAsset: (id) => { const p = source.find(id); if (p) grid.focusCell(p.g); },
    show() { el.hidden = false; el.inert = false; setUploadContext(uploadOptions()); requestAnimationFrame(() => grid.renderNow(true)); },
    hide() { el.inert = true; },
    unmount() {
      offs.forEach((off) => off());
      bar.destroy?.();
      grid.destroy();
      scrubber?.destroy();
      document.removeEventListener('dragenter', onDragEnter);
      document.removeEventListener('dragover', onDragOver);
      document.removeEventListener('dragleave', onDragLeave);
      document.removeEventListener('drop', onDrop);
      document.removeEventListener('keydown', onKey);
      box?.destroy();
      extension?.unmount?.();
      el.remove();
    },
  };
}
