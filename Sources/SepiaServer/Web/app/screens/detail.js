// Detail: one photo as large as the screen allows. The grid's thumbnail shows at once, then a rendition
// sized for the screen × devicePixelRatio replaces it. Previous/next by arrow keys, buttons and swipe;
// an info panel with the metadata, its title, caption, keywords, rating, date and place editable, and the city
// it was taken in (a link to the city's photos);
// favourite, rotate (saved as an edit), hide, delete, download, share.
// An item in Recently Deleted (opened from there) offers only Recover and Delete Now, and says how many
// days it has left.
//
// A video plays in the browser's own player, its poster frame (the same rendition) shown first; Space plays
// and pauses. A Live Photo shows its still, and its movie plays muted over it while the still is pressed
// or the LIVE badge hovered, as in Photos; the Live button turns that off for the photo (kept in
// localStorage). Leaving an item pauses its movie and lets the browser drop it (no src).
//
// Faces (the button, or F) outlines the faces of a photo with their people's names (components/face-overlay.js).
import { api } from '../api.js';
import { h, bucket, dpr, shared, formatDate, formatOffset, formatBytes, formatCoordinate, formatExposure, formatDuration, placeName, download, keyBelongsToControl, mediaKind, isVideo, isLivePhoto, isRAWPair, kindOf, daysLeftText, inLastDays } from '../util.js';
import { icon } from '../icons.js';
import { store } from '../store.js';
import { toast } from '../components/toast.js';
import { menuButton } from '../components/menu.js';
import { shareLinkDialog } from '../components/share-dialog.js';
import * as actions from '../actions.js';
import { parseRecipe, rotateClockwise, buildRecipe, isEmptyRecipe } from '../recipe.js';
import { metadataEditor } from '../components/metadata.js';
import { faceOverlay } from '../components/face-overlay.js';

export function mountDetail(container, params, ctx) {
  let id = params.id;
  /** Photos deleted from this view, whose 'deleted' change event must not be taken for someone else's. */
  const removedHere = new Set();
  let asset = store.assets.get(id) || null;
  let full = null; // asset with metadata
  let infoOpen = window.matchMedia('(min-width: 1100px)').matches && localStorage.getItem('sepia.infoOpen') === '1';
  let busy = false;
  let token = 0;

  const titleMain = h('h1', { class: 'detail-title', id: 'detail-title' }, '');
  const titleSub = h('span', { class: 'detail-subtitle' }, '');
  const back = h('button', { type: 'button', class: 'btn icon ghost', 'data-testid': 'detail-close', aria: { label: 'Back to photos' }, onclick: () => ctx.back() }, icon('back'));
  const favBtn = h('button', { type: 'button', class: 'btn icon ghost', 'data-testid': 'detail-favorite', aria: { label: 'Favorite', pressed: 'false' }, onclick: toggleFavorite }, icon('heart'));
  const rotateBtn = h('button', { type: 'button', class: 'btn icon ghost', 'data-testid': 'detail-rotate', aria: { label: 'Rotate 90° clockwise' }, title: 'Rotate 90° clockwise (R)', onclick: rotate }, icon('rotate'));
  const infoBtn = h('button', { type: 'button', class: 'btn icon ghost', 'data-testid': 'detail-info', aria: { label: 'Info', pressed: String(infoOpen), controls: 'detail-info-panel' }, title: 'Info (I)', onclick: () => setInfo(!infoOpen) }, icon('info'));
  const shareBtn = h('button', { type: 'button', class: 'btn icon ghost', 'data-testid': 'detail-share', aria: { label: 'Share' }, title: 'Share', onclick: share }, icon('share'));
  const deleteBtn = h('button', { type: 'button', class: 'btn icon ghost', 'data-testid': 'detail-delete', aria: { label: 'Delete' }, title: 'Delete', onclick: remove }, icon('trash'));
  const editBtn = h('a', { class: 'btn primary', 'data-testid': 'detail-edit', href: `#/edit/${id}`, onclick: (e) => { if (editBtn.getAttribute('aria-disabled') === 'true') { e.preventDefault(); toast(NO_VIDEO_EDITS); } } }, icon('sliders'), h('span', {}, 'Edit'));
  const liveBtn = h('button', { type: 'button', class: 'btn icon ghost', 'data-testid': 'detail-live-toggle', aria: { label: 'Live', pressed: 'true' }, title: 'Turn Live off', hidden: true, onclick: () => setLive(!liveOn()) }, icon('live'));
  const more = menuButton({
    label: 'More actions', testid: 'detail-more',
    items: [
      { label: 'Share Link…', icon: 'link', testid: 'detail-menu-share-link', run: () => shareLinkDialog({ assetID: id }, 'this photo') },
      { label: 'Add to Album…', icon: 'album', testid: 'detail-add-to-album', run: () => actions.addToAlbum([id]) },
      { label: 'Download Original', icon: 'download', testid: 'detail-download-original', run: () => download(api.originalURL(id)) },
      { label: 'Download Current Version', icon: 'download', testid: 'detail-download-current', run: () => download(api.currentURL(id)) },
      { label: 'Copy Edits', icon: 'copy', testid: 'detail-copy-edits', hidden: () => !asset?.hasAdjustments, run: () => actions.copyEditsOf(id) },
      { label: () => (asset?.isHidden ? 'Unhide' : 'Hide'), icon: 'eyeOff', testid: 'detail-hide', run: toggleHidden },
    ],
  });
  // Also reachable without the menu.
  const linkBtn = h('button', { type: 'button', class: 'btn icon ghost', 'data-testid': 'share-link', aria: { label: 'Create a share link' }, title: 'Share link', onclick: () => shareLinkDialog({ assetID: id }, 'this photo') }, icon('link'));
  // An item in Recently Deleted: its days left (under the date), Recover and Delete Now instead of the actions above.
  const daysLeft = h('span', { class: 'detail-days-left', 'data-testid': 'detail-days-left' });
  const recoverBtn = h('button', { type: 'button', class: 'btn', 'data-testid': 'detail-recover', hidden: true, onclick: recover }, icon('recover'), h('span', {}, 'Recover'));
  const deleteNowBtn = h('button', { type: 'button', class: 'btn danger', 'data-testid': 'detail-delete-now', hidden: true, onclick: deleteNow }, icon('trash'), h('span', {}, 'Delete Now'));

  const img = h('img', { class: 'detail-img', alt: '', 'data-testid': 'detail-image', draggable: 'false' });
  // The grid's (square, cached) thumbnail, shown at once over the photo's own shape until the large one loads.
  const thumb = h('img', { class: 'detail-thumb', alt: '', 'aria-hidden': 'true', draggable: 'false' });
  const spinner = h('span', { class: 'spinner large detail-spinner', role: 'status', aria: { label: 'Loading photo' } });
  const prevBtn = h('button', { type: 'button', class: 'nav-arrow prev', 'data-testid': 'detail-prev', aria: { label: 'Previous photo' }, onclick: () => go(-1) }, icon('chevronLeft'));
  const nextBtn = h('button', { type: 'button', class: 'nav-arrow next', 'data-testid': 'detail-next', aria: { label: 'Next photo' }, onclick: () => go(1) }, icon('chevronRight'));
  const position = h('span', { class: 'detail-position', 'aria-live': 'polite' });
  // A video: the browser's player, its poster the rendition the photo would get. A Live Photo: its movie,
  // muted, over the still (it lets the pointer through to the still), and the LIVE badge.
  const video = h('video', { class: 'detail-video', 'data-testid': 'detail-video', controls: true, playsinline: true, preload: 'metadata', hidden: true });
  const liveVideo = h('video', { class: 'detail-live-video', 'data-testid': 'detail-live-video', playsinline: true, preload: 'none', tabindex: '-1', 'aria-hidden': 'true', props: { muted: true, defaultMuted: true } });
  const liveLabel = h('span', { class: 'live-badge-text' }, 'LIVE');
  const liveBadge = h('button', { type: 'button', class: 'live-badge', 'data-testid': 'detail-live-badge', aria: { label: 'Play Live Photo' }, title: 'Play the Live Photo (or press and hold the photo)', hidden: true, onclick: () => { if (!livePlaying) playLive('once'); } }, icon('live'), liveLabel);
  // While a video's playable version is being made: how far it has come (the change stream's progress events).
  const preparing = h('div', { class: 'detail-preparing', role: 'status', 'data-testid': 'detail-preparing', hidden: true });
  const stage = h('div', { class: 'detail-stage', 'data-testid': 'detail-stage', 'data-toast-anchor': '48' }, thumb, img, liveVideo, video, spinner, liveBadge, preparing, prevBtn, nextBtn, position);
  const faces = faceOverlay({ stage, picture: img, go: (hash) => ctx.go(hash) });
  const normalActions = [favBtn, rotateBtn, shareBtn, linkBtn, deleteBtn, more.el || more, editBtn];
  const topbar = h('header', { class: 'detail-bar' },
    back, h('div', { class: 'detail-titles' }, titleMain, titleSub), h('div', { class: 'topbar-spacer' }),
    h('div', { class: 'detail-actions', role: 'toolbar', aria: { label: 'Photo actions' } }, liveBtn, favBtn, faces.button, rotateBtn, infoBtn, shareBtn, linkBtn, deleteBtn, more, recoverBtn, deleteNowBtn),
    editBtn);
  const info = h('aside', { class: 'info-panel', id: 'detail-info-panel', 'data-testid': 'info-panel', aria: { label: 'Photo info' } });
  const body = h('div', { class: 'detail-body' }, stage, info);
  const el = h('section', { class: 'screen overlay-screen detail-screen', 'data-testid': 'detail', aria: { labelledby: 'detail-title' } }, topbar, body);
  container.append(el);

  function setInfo(open) {
    infoOpen = open;
    el.classList.toggle('info-open', open);
    infoBtn.setAttribute('aria-pressed', String(open));
    try { localStorage.setItem('sepia.infoOpen', open ? '1' : '0'); } catch { /* ignore */ }
    if (open) renderInfo();
    requestAnimationFrame(loadLarge);
  }

  // ----- Loading
  async function load(newId) {
    id = newId;
    const my = ++token;
    asset = store.assets.get(id) || null;
    full = null;
    img.classList.remove('ready');
    thumb.hidden = true;
    applyMedia();
    renderHeader();
    faces.setAsset(asset);
    updateNav();
    if (asset) showThumbnail();
    else { img.removeAttribute('src'); spinner.hidden = false; }
    try {
      const a = await api.asset(id);
      if (my !== token) return;
      full = a;
      asset = a;
      store.rememberAssets([a]);
      ctx.base?.prepare?.(a);
      applyMedia();
      settled = true;
      renderHeader();
      faces.setAsset(a);
      if (!img.dataset.large && thumb.hidden) showThumbnail();
      loadLarge();
      if (infoOpen) renderInfo();
    } catch (e) {
      if (my !== token) return;
      spinner.hidden = true;
      if (e.status === 404) {
        stage.replaceChildren(h('div', { class: 'empty', role: 'alert' }, icon('image', { cls: 'empty-icon' }), h('h2', {}, 'This photo is not in your library'), h('p', {}, 'It may have been deleted, perhaps in another window.'), h('div', { class: 'actions' }, h('button', { type: 'button', class: 'btn primary', onclick: () => ctx.back() }, 'Back to Library'))));
      } else toast.error(e, 'The photo could not be loaded.');
    }
    preloadNeighbors();
  }

  function showThumbnail() {
    spinner.hidden = false;
    img.removeAttribute('src');
    img.alt = describe(asset);
    const px = shared.thumbPx || 256;
    thumb.src = api.imageURL(asset.id, { size: `${px}x${px}`, mode: 'fill', v: asset.version });
    thumb.hidden = false;
    placeThumb();
    loadLarge();
  }

  /** Sizes the placeholder to where the photo will be drawn (contain), filled by the square thumbnail. */
  function placeThumb() {
    if (!asset?.width || thumb.hidden) return;
    const r = stage.getBoundingClientRect();
    const pad = window.matchMedia('(max-width: 760px)').matches ? 0 : 16;
    const bw = r.width - 2 * pad;
    const bh = r.height - 2 * pad;
    const k = Math.min(bw / asset.width, bh / asset.height);
    const w = asset.width * k;
    const hh = asset.height * k;
    Object.assign(thumb.style, { left: `${pad + (bw - w) / 2}px`, top: `${pad + (bh - hh) / 2}px`, width: `${w}px`, height: `${hh}px` });
  }

  function largeURL(a) {
    const r = stage.getBoundingClientRect();
    const side = Math.max(r.width, r.height) * dpr();
    const b = bucket(Math.max(256, Math.ceil(side)));
    return api.imageURL(a.id, { size: `${b}x${b}`, mode: 'fit', v: a.version });
  }

  function loadLarge() {
    if (!asset) return;
    const url = largeURL(asset);
    if (img.dataset.large === url) return;
    const my = token;
    const loader = new Image();
    loader.decoding = 'async';
    loader.onload = () => {
      if (my !== token) return;
      // A video's poster is this rendition (set at once in applyMedia; again here after a resize).
      if (media.mode === 'video') { if (video.getAttribute('poster') !== url) video.poster = url; } else img.src = url;
      img.dataset.large = url;
      img.classList.add('ready');
      thumb.hidden = true;
      spinner.hidden = true;
    };
    loader.onerror = () => {
      if (my !== token) return;
      spinner.hidden = true;
      toast.error('The full-size photo could not be loaded. The server may not decode this file.');
    };
    loader.src = url;
  }

  function describe(a) {
    return `${kindOf(a)} taken ${formatDate(a.creationDate, a.creationDateOffset)}${a.originalFilename ? ', ' + a.originalFilename : ''}`;
  }

  // ----- Videos and Live Photos
  /** What the stage shows for the current item: 'photo', 'video' or 'live'. */
  let media = { id: null, mode: 'photo' };
  let livePlaying = false;
  /** Set once the first item's details came; until then the keyboard's starting place may still change. */
  let settled = false;

  function applyMedia() {
    const mode = mediaKind(asset).stage;
    if (media.id === id && media.mode === mode) return;
    releaseMedia();
    media = { id, mode };
    el.dataset.media = mode;
    img.hidden = mode === 'video';
    video.hidden = mode !== 'video';
    if (mode === 'video') {
      // Opened by its address, the item's kind is known only now: the keyboard moves from Back to the player.
      if (!settled && document.activeElement === back) requestAnimationFrame(() => video.focus({ preventScroll: true }));
      video.setAttribute('aria-label', describe(asset));
      video.poster = largeURL(asset);
      whenPlayable(id, (url) => { video.src = url; }, true);
    }
    liveBadge.hidden = mode !== 'live';
    liveBtn.hidden = mode !== 'live';
    if (mode === 'live') syncLive();
    // Videos cannot be edited yet (the server refuses): Edit and Rotate say so instead of failing.
    const still = mediaKind(asset).isEditable;
    if (still) editBtn.href = `#/edit/${id}`; else editBtn.removeAttribute('href');
    if (still) {
      for (const a of ['role', 'aria-disabled', 'tabindex', 'title']) editBtn.removeAttribute(a);
    } else {
      editBtn.setAttribute('role', 'link');
      editBtn.setAttribute('aria-disabled', 'true');
      editBtn.tabIndex = 0;
      editBtn.title = NO_VIDEO_EDITS;
    }
    editBtn.classList.toggle('disabled', !still);
    if (!busy) rotateBtn.disabled = !still;
    rotateBtn.title = still ? 'Rotate 90° clockwise (R)' : 'Videos cannot be rotated yet';
  }

  /**
   * Gives `use` the URL of the item's motion once the server can play it: at once when the original plays or its
   * playable version exists; while the version is being made (202), after asking again every Retry-After seconds,
   * saying so once when `announce`. Stops asking when the view moves to another item.
   */
  let waitingFor = null;
  async function whenPlayable(itemID, use, announce) {
    if (waitingFor === itemID) return;
    waitingFor = itemID;
    let told = false;
    const onWait = () => {
      if (!announce || told) return;
      told = true;
      // The status over the poster says it (and how far it has come); a toast would cover it.
      preparing.textContent = 'Preparing for playback…';
      preparing.hidden = false;
    };
    try {
      const url = await api.whenPlayable(api.videoURL(itemID), { wanted: () => id === itemID, onWait });
      if (url) { preparing.hidden = true; use(url); }
    } finally {
      if (id !== itemID) preparing.hidden = true;
      if (waitingFor === itemID) waitingFor = null;
    }
  }

  /** Pauses the item's movie and lets the browser drop it: no src, then load() to release the decoder. */
  function releaseMedia() {
    stopLive();
    for (const v of [video, liveVideo]) {
      v.pause();
      if (v.hasAttribute('src')) { v.removeAttribute('src'); v.load(); }
    }
    video.removeAttribute('poster');
    video.hidden = true;
    img.hidden = false;
  }

  const LIVE_OFF_KEY = 'sepia.liveOff';
  function liveOffIds() {
    try { const v = JSON.parse(localStorage.getItem(LIVE_OFF_KEY) || '[]'); return Array.isArray(v) ? v : []; } catch { return []; }
  }
  function liveOn() { return !liveOffIds().includes(id); }

  function setLive(on) {
    const ids = liveOffIds().filter((x) => x !== id);
    if (!on) ids.push(id);
    // The newest 1000 choices are kept.
    try { localStorage.setItem(LIVE_OFF_KEY, JSON.stringify(ids.slice(-1000))); } catch { /* ignore */ }
    if (!on) stopLive();
    syncLive();
  }

  function syncLive() {
    const on = liveOn();
    liveBtn.replaceChildren(icon(on ? 'live' : 'liveOff'));
    liveBtn.setAttribute('aria-pressed', String(on));
    liveBtn.title = on ? 'Turn Live off' : 'Turn Live on';
    liveBadge.replaceChildren(icon(on ? 'live' : 'liveOff'), liveLabel);
    liveLabel.textContent = on ? 'LIVE' : 'LIVE OFF';
    liveBadge.disabled = !on;
    liveBadge.setAttribute('aria-label', on ? 'Play Live Photo' : 'Live is off for this photo');
    liveBadge.title = on ? 'Play the Live Photo (or press and hold the photo)' : 'Live is off for this photo: turn it on with the Live button';
  }

  /** Plays the Live Photo's movie over the still, muted: while held ('hold') or through once ('once'). */
  function playLive(how = 'hold') {
    if (media.mode !== 'live' || !liveOn()) return;
    if (!liveVideo.getAttribute('src')) {
      // Asked for once; played when the server has a version the browser plays, if still held by then.
      livePlaying = how;
      whenPlayable(id, (url) => {
        liveVideo.src = url;
        const still = livePlaying;
        livePlaying = null;
        if (still) playLive(still);
      }, false);
      return;
    }
    livePlaying = how;
    liveVideo.muted = true;
    try { liveVideo.currentTime = 0; } catch { /* not loaded yet */ }
    liveVideo.play().catch((e) => {
      if (e?.name === 'AbortError') return; // stopped before it started
      stopLive();
      toast.error('The Live Photo’s movie could not be played in this browser.');
    });
  }

  function stopLive() {
    livePlaying = false;
    liveVideo.pause();
    stage.classList.remove('live-playing');
    if (liveVideo.readyState > 0) { try { liveVideo.currentTime = 0; } catch { /* ignore */ } }
  }

  video.addEventListener('error', () => {
    if (video.getAttribute('src')) toast.error('This video cannot be played in this browser. Download Original (under More) gives you the file.');
  });

  // The movie covers the still only once its frames come, and hands back to the still when it ends.
  liveVideo.addEventListener('playing', () => { if (livePlaying) stage.classList.add('live-playing'); });
  liveVideo.addEventListener('ended', stopLive);
  liveBadge.addEventListener('pointerenter', (e) => { if (e.pointerType === 'mouse') playLive('hover'); });
  liveBadge.addEventListener('pointerleave', (e) => { if (e.pointerType === 'mouse' && livePlaying === 'hover') stopLive(); });

  // Press and hold on the still: a mouse button plays at once; a finger after a moment without moving (a
  // moving finger is a swipe to the next photo).
  let hold = null;
  img.addEventListener('pointerdown', (e) => {
    if (media.mode !== 'live' || !liveOn() || (e.pointerType === 'mouse' && e.button !== 0)) return;
    try { img.setPointerCapture(e.pointerId); } catch { /* ignore */ }
    hold = { id: e.pointerId, x: e.clientX, y: e.clientY, timer: null };
    if (e.pointerType === 'mouse') { e.preventDefault(); playLive('hold'); } else hold.timer = setTimeout(() => playLive('hold'), 250);
  });
  img.addEventListener('pointermove', (e) => {
    if (!hold || e.pointerId !== hold.id || livePlaying) return;
    if (Math.hypot(e.clientX - hold.x, e.clientY - hold.y) > 10) { clearTimeout(hold.timer); hold = null; }
  });
  const release = (e) => {
    if (!hold || e.pointerId !== hold.id) return;
    clearTimeout(hold.timer);
    hold = null;
    if (livePlaying === 'hold') stopLive();
  };
  img.addEventListener('pointerup', release);
  img.addEventListener('pointercancel', release);
  img.addEventListener('lostpointercapture', release);
  // A long press on a phone would open the image's menu.
  img.addEventListener('contextmenu', (e) => { if (media.mode === 'live') e.preventDefault(); });

  function toggleVideo() {
    if (video.paused || video.ended) video.play().catch((e) => { if (e?.name !== 'AbortError') toast.error('This video cannot be played in this browser. Download Original (under More) gives you the file.'); });
    else video.pause();
  }

  /** Whether the item is in Recently Deleted: only Recover and Delete Now apply to it. */
  const isDeleted = () => !!asset?.trashedDate;

  function renderHeader() {
    const deleted = isDeleted();
    for (const control of normalActions) control.hidden = deleted;
    recoverBtn.hidden = !deleted;
    deleteNowBtn.hidden = !deleted;
    el.classList.toggle('deleted-item', deleted);
    if (!asset) { titleMain.textContent = 'Photo'; titleSub.textContent = ''; return; }
    titleMain.textContent = formatDate(asset.creationDate, asset.creationDateOffset, { withTime: false });
    const time = asset.creationDate ? new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit', timeZone: asset.creationDateOffset != null ? 'UTC' : undefined })
      .format(new Date(new Date(asset.creationDate).getTime() + (asset.creationDateOffset || 0) * 1000)) : '';
    const when = [time, formatOffset(asset.creationDateOffset)].filter(Boolean).join(' · ');
    if (deleted) {
      daysLeft.textContent = `${daysLeftText(asset.daysLeft ?? 0)} left`;
      daysLeft.classList.toggle('soon', inLastDays(asset.daysLeft ?? 0));
      titleSub.replaceChildren(daysLeft, when ? ` · ${when}` : '');
    } else titleSub.textContent = when;
    favBtn.replaceChildren(icon(asset.isFavorite ? 'heartFill' : 'heart'));
    favBtn.setAttribute('aria-pressed', String(!!asset.isFavorite));
    favBtn.setAttribute('aria-label', asset.isFavorite ? 'Unfavorite' : 'Favorite');
    favBtn.title = asset.isFavorite ? 'Unfavorite (.)' : 'Favorite (.)';
    favBtn.classList.toggle('fav-on', !!asset.isFavorite);
  }

  function updateNav() {
    const n = ctx.base?.neighbors?.(id);
    prevBtn.hidden = !n?.prev;
    nextBtn.hidden = !n?.next;
    position.textContent = n && n.index >= 0 && n.total > 1 ? `${(n.index + 1).toLocaleString()} of ${n.total.toLocaleString()}` : '';
  }

  function preloadNeighbors() {
    const n = ctx.base?.neighbors?.(id);
    for (const a of [n?.next, n?.prev]) if (a) { const i = new Image(); i.src = largeURL(a); }
  }

  function go(delta) {
    const n = ctx.base?.neighbors?.(id);
    const target = delta < 0 ? n?.prev : n?.next;
    if (!target) return;
    store.rememberAssets([target]);
    const q = location.hash.includes('?') ? location.hash.slice(location.hash.indexOf('?')) : '';
    // Show it now (rapid key presses each advance); the router's update for the same id does nothing.
    img.dataset.large = '';
    load(target.id);
    ctx.replace(`#/photo/${target.id}${q}`);
  }

  // ----- Info panel
  /** Draws Info again (after a save, or a change from elsewhere), keeping the keyboard where it was: the
   *  focused field or button gets the focus back, with what was typed in it since it was last saved. */
  let infoDrawnFor = null;
  function renderInfo() {
    const same = infoDrawnFor === id;
    const kept = same ? focusIn(info) : null;
    const scroll = info.scrollTop;
    drawInfo();
    infoDrawnFor = id;
    if (same) info.scrollTop = scroll;
    if (kept) restoreFocus(info, kept);
  }

  function drawInfo() {
    const a = full || asset;
    if (!a) { info.replaceChildren(h('p', { class: 'hint' }, 'Loading…')); return; }
    const m = a.metadata || {};
    const pick = (...keys) => { for (const k of keys) if (m[k] != null && m[k] !== '') return m[k]; return null; };
    const rows = [];
    const row = (label, value, testid) => { if (value != null && value !== '') rows.push(h('dt', {}, label), h('dd', { 'data-testid': testid }, value)); };
    row('Date', formatDate(a.creationDate, a.creationDateOffset, { weekday: true }), 'info-date');
    row('Time zone', a.creationDateOffset != null ? formatOffset(a.creationDateOffset) : 'Unknown (shown in your time zone)', 'info-offset');
    row('Camera', [a.cameraMake, a.cameraModel].filter(Boolean).join(' ').replace(/^(\w+) \1 /i, '$1 '), 'info-camera');
    row('Lens', pick('lensModel', 'lens') ? (m.lensMake && !String(pick('lensModel', 'lens')).startsWith(m.lensMake) ? `${m.lensMake} ${pick('lensModel', 'lens')}` : pick('lensModel', 'lens')) : pick('lensMake'), 'info-lens');
    const fnum = pick('fNumber', 'aperture', 'fnumber');
    const exp = pick('exposureTime', 'exposure');
    const iso = pick('iso', 'isoSpeed', 'ISO', 'isoSpeedRatings');
    const focal = pick('focalLength', 'focalLengthMM');
    const expo = [fnum ? `ƒ/${Number(fnum).toFixed(1).replace(/\.0$/, '')}` : null, exp ? (typeof exp === 'number' ? formatExposure(exp) : String(exp)) : null, iso ? `ISO ${iso}` : null, focal ? `${Number(focal).toFixed(0)} mm` : null].filter(Boolean).join(' · ');
    row('Exposure', expo, 'info-exposure');
    if (a.location && a.location.latitude != null) {
      const loc = a.location;
      const coordinates = `${formatCoordinate(loc.latitude, 'N', 'S')}, ${formatCoordinate(loc.longitude, 'E', 'W')}${loc.altitude != null ? ` · ${Math.round(loc.altitude)} m` : ''}`;
      // The city nearest the location, over the coordinates: a link to the photos taken there.
      row('Place', a.place
        ? h('span', { class: 'info-place' },
          h('a', { href: `#/places/${encodeURIComponent(a.place.id)}`, class: 'info-place-name', 'data-testid': 'info-place-name', title: `Photos taken in ${a.place.city}` }, placeName(a.place)),
          h('span', { class: 'info-coordinates' }, coordinates))
        : coordinates, 'info-place');
    }
    const mp = a.width && a.height ? ` (${((a.width * a.height) / 1e6).toFixed(1)} MP)` : '';
    row('Size', a.width ? `${a.width} × ${a.height} pixels${mp}` : null, 'info-size');
    if (isVideo(a)) row('Duration', formatDuration(a.duration), 'info-duration');
    if (isLivePhoto(a)) row('Live Photo', 'Yes — a movie goes with the still', 'info-live');
    if (a.hasAdjustments && a.originalWidth && (a.originalWidth !== a.width || a.originalHeight !== a.height)) row('Original size', `${a.originalWidth} × ${a.originalHeight} pixels`);
    if (isRAWPair(a)) {
      const showsRAW = a.originalFormat === 'raw';
      const other = showsRAW ? 'JPEG' : 'RAW';
      const use = h('button', { type: 'button', class: 'btn small', 'data-testid': 'info-use-raw', disabled: a.hasAdjustments || null, title: a.hasAdjustments ? 'Revert the edit first: it was made on the file shown' : null, onclick: () => useRAW(!showsRAW) }, `Use ${other} as Original`);
      row('RAW+JPEG', h('span', { class: 'info-raw' }, `Showing the ${showsRAW ? 'RAW' : 'JPEG'}; the ${other} is kept with it. `, use), 'info-raw-pair');
    }
    row('File', a.originalFilename, 'info-file');
    row('Format', [a.originalFormat ? String(a.originalFormat).toUpperCase() : null, formatBytes(a.originalByteCount)].filter(Boolean).join(' · '), 'info-format');
    row('Software', pick('software'));
    row('Colour profile', pick('colorProfile', 'colourProfile', 'iccProfile', 'profile'));
    row('Edited', a.hasAdjustments ? 'Yes — the original is kept' : 'No', 'info-edited');
    row('Added', formatDate(a.addedDate, null), 'info-added');
    info.replaceChildren(...[
      h('div', { class: 'info-head' }, h('h2', {}, 'Info'), h('button', { type: 'button', class: 'btn icon small ghost', aria: { label: 'Close info' }, onclick: () => setInfo(false) }, icon('close'))),
      // Title, caption, keywords, rating, Adjust Date & Time and the location, editable once the photo is loaded.
      full ? metadataEditor(full, { onChange: metadataChanged }) : null,
      h('dl', { class: 'info-list' }, rows),
      full ? null : h('p', { class: 'hint' }, 'Loading details…')].filter(Boolean));
  }

  function metadataChanged(updated) {
    asset = { ...asset, ...updated };
    full = full ? { ...full, ...updated } : full;
    renderHeader();
    renderInfo();
  }

  // ----- Actions
  async function useRAW(raw) {
    try {
      const updated = await api.patchAsset(id, { useRAW: raw });
      asset = { ...asset, ...updated };
      full = full ? { ...full, ...updated } : full;
      load(id);
      toast(raw ? 'The RAW is the original now. The JPEG is kept.' : 'The JPEG is the original again. The RAW is kept.');
    } catch (e) {
      toast(e.message || 'The original could not be changed.');
    }
  }

  async function toggleFavorite() {
    if (!asset || isDeleted()) return;
    const updated = await actions.setFavorite([id], !asset.isFavorite);
    if (updated?.[0]) { asset = { ...asset, ...updated[0] }; if (full) full = { ...full, ...updated[0] }; renderHeader(); }
  }

  async function toggleHidden() {
    if (!asset) return;
    const hide = !asset.isHidden;
    const n = ctx.base?.neighbors?.(id);
    const updated = await actions.setHidden([id], hide);
    if (updated?.[0]) {
      asset = { ...asset, ...updated[0] };
      if (hide) leaveAfterRemoval(n);
    }
  }

  async function remove() {
    if (isDeleted()) return deleteNow();
    const n = ctx.base?.neighbors?.(id);
    const removing = id;
    removedHere.add(removing);
    if (await actions.deletePhotos([removing])) leaveAfterRemoval(n);
    else removedHere.delete(removing);
  }

  /** Recently Deleted: back into the library and its albums; the view moves on to the next deleted item. */
  async function recover() {
    const n = ctx.base?.neighbors?.(id);
    const recovering = id;
    removedHere.add(recovering);
    if (await actions.recoverPhotos([recovering])) leaveAfterRemoval(n);
    else removedHere.delete(recovering);
  }

  /** Recently Deleted: for good, after a confirmation that says it cannot be undone. */
  async function deleteNow() {
    const n = ctx.base?.neighbors?.(id);
    const removing = id;
    removedHere.add(removing);
    if (await actions.deletePhotosNow([removing])) leaveAfterRemoval(n);
    else removedHere.delete(removing);
  }

  function leaveAfterRemoval(n) {
    const target = n?.next || n?.prev;
    // The view the item was opened from stays the base (an album, Recently Deleted).
    const q = location.hash.includes('?') ? location.hash.slice(location.hash.indexOf('?')) : '';
    // The message of what was done ("moved to Recently Deleted", with Undo) comes along.
    if (target) ctx.replace(`#/photo/${target.id}${q}`, { keepMessages: true });
    else ctx.back(undefined, { keepMessages: true });
  }

  async function rotate() {
    if (!asset || busy || !mediaKind(asset).isEditable || isDeleted()) return;
    busy = true;
    rotateBtn.disabled = true;
    rotateBtn.replaceChildren(h('span', { class: 'spinner' }));
    el.classList.add('rotating');
    try {
      const [edit, catalog, panel, a] = await Promise.all([api.edit(id), store.catalog(), store.adjustments().catch(() => null), full ? Promise.resolve(full) : api.asset(id)]);
      const current = edit?.current?.recipe || null;
      const { state } = parseRecipe(current, a, catalog, panel);
      const next = rotateClockwise(state);
      const recipe = buildRecipe(next, catalog, panel);
      const updated = isEmptyRecipe(recipe) ? await api.revertEdit(id) : await api.saveEdit(id, recipe);
      asset = updated;
      full = { ...(full || {}), ...updated };
      store.rememberAssets([updated]);
      store.emit('assets-updated', [updated]);
      img.dataset.large = '';
      loadLarge();
      renderHeader();
      faces.setAsset(updated);
      if (infoOpen) renderInfo();
      toast('Rotated. The original is kept: Revert in the editor undoes it.');
    } catch (e) {
      toast.error(e, 'The photo could not be rotated.');
    } finally {
      busy = false;
      rotateBtn.disabled = !mediaKind(asset).isEditable;
      rotateBtn.replaceChildren(icon('rotate'));
      el.classList.remove('rotating');
    }
  }

  async function share() {
    if (!asset) return;
    const name = currentFileName(asset);
    try {
      shareBtn.disabled = true;
      const blob = await api.blob(api.currentURL(id));
      const file = new File([blob], name, { type: blob.type || 'image/jpeg' });
      if (navigator.canShare?.({ files: [file] })) {
        await navigator.share({ files: [file], title: name });
      } else {
        download(blob, name);
        toast('This browser cannot share files, so the photo was downloaded instead.');
      }
    } catch (e) {
      if (e?.name !== 'AbortError') toast.error(e, 'The photo could not be shared.');
    } finally { shareBtn.disabled = false; }
  }

  // ----- Swipe
  let swipe = null;
  stage.addEventListener('pointerdown', (e) => {
    if (e.pointerType === 'mouse' || e.target.closest('button')) return;
    swipe = { x: e.clientX, y: e.clientY, id: e.pointerId, dx: 0 };
  });
  stage.addEventListener('pointermove', (e) => {
    if (!swipe || e.pointerId !== swipe.id) return;
    swipe.dx = e.clientX - swipe.x;
    if (Math.abs(swipe.dx) > 8 && Math.abs(swipe.dx) > Math.abs(e.clientY - swipe.y)) (media.mode === 'video' ? video : img).style.transform = `translateX(${swipe.dx}px)`;
  });
  const endSwipe = (e) => {
    if (!swipe || e.pointerId !== swipe.id) return;
    const dx = swipe.dx;
    swipe = null;
    img.style.transform = '';
    video.style.transform = '';
    if (dx < -60) go(1); else if (dx > 60) go(-1);
  };
  stage.addEventListener('pointerup', endSwipe);
  stage.addEventListener('pointercancel', endSwipe);

  // ----- Keyboard
  const onKey = (e) => {
    if (keyBelongsToControl(e)) return;
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    switch (e.key) {
      case 'ArrowLeft': e.preventDefault(); go(-1); break;
      case 'ArrowRight': e.preventDefault(); go(1); break;
      case 'Escape': e.preventDefault(); if (infoOpen && !window.matchMedia('(min-width: 1100px)').matches) setInfo(false); else ctx.back(); break;
      case 'i': case 'I': setInfo(!infoOpen); break;
      case '.': toggleFavorite(); break;
      case 'f': case 'F': if (!faces.button.hidden) faces.toggle(); break;
      case 'r': case 'R': rotate(); break;
      case 'e': case 'E': if (isDeleted()) break; if (media.mode === 'video') toast(NO_VIDEO_EDITS); else location.hash = `#/edit/${id}`; break;
      case ' ':
        // Space plays and pauses a video (and never scrolls what is behind); on a button it presses it.
        if (media.mode !== 'video' || e.target.closest?.('button, a[href], summary, [role="link"], .upload-panel')) break;
        e.preventDefault();
        toggleVideo();
        break;
      default: break;
    }
  };
  document.addEventListener('keydown', onKey);
  // Chromium's player toggles on Space's keyup when it has the focus, whatever the keydown did: the keydown
  // above already toggled, so the keyup does not reach the player.
  const onKeyUp = (e) => { if (e.key === ' ' && media.mode === 'video' && e.target === video) { e.preventDefault(); e.stopPropagation(); } };
  document.addEventListener('keyup', onKeyUp, true);

  const onResize = () => { placeThumb(); loadLarge(); };
  window.addEventListener('resize', onResize);
  const baseSource = ctx.base?.source;
  const offs = [
    ...(baseSource ? [baseSource.on('data', updateNav), baseSource.on('layout', () => { updateNav(); if (asset) ctx.base?.prepare?.(asset); })] : []),
    store.on('progress', (running) => {
      if (!preparing.hidden && running[id] != null) preparing.textContent = `Preparing for playback… ${Math.round(running[id] * 100)} %`;
    }),
    store.on('change', (d) => {
      const a = d?.assets || {};
      // Gone from where it was opened: deleted (for good, or to Recently Deleted), or recovered from there.
      const gone = a.deleted?.includes(id) || (isDeleted() ? a.recovered?.includes(id) : a.trashed?.includes(id));
      if (gone) {
        // A change made here is already being handled (remove, recover, deleteNow); only one made elsewhere leaves the view.
        if (removedHere.has(id)) return;
        toast(isDeleted() && a.recovered?.includes(id) ? 'This photo was recovered in another window.' : 'This photo was deleted in another window.');
        ctx.back(undefined, { keepMessages: true });
        return;
      }
      if (a.updated?.includes(id)) api.asset(id).then((x) => { asset = x; full = x; store.rememberAssets([x]); renderHeader(); faces.setAsset(x); loadLarge(); if (infoOpen) renderInfo(); }).catch(() => {});
      updateNav();
    }),
  ];

  el.classList.toggle('info-open', infoOpen);
  load(id);
  // The keyboard starts on Back; on a video, on the player, so that Space plays it.
  requestAnimationFrame(() => (media.mode === 'video' ? video : back).focus({ preventScroll: true }));


  return {
    el,
    update(p) { if (p.id !== id) { img.dataset.large = ''; load(p.id); } },
    get id() { return id; },
    unmount() { releaseMedia(); faces.destroy(); document.removeEventListener('keydown', onKey); document.removeEventListener('keyup', onKeyUp, true); window.removeEventListener('resize', onResize); offs.forEach((o) => o()); el.remove(); },
  };
}

const NO_VIDEO_EDITS = 'Videos cannot be edited yet.';

/** The focused control inside `container` (by its data-testid), and for a text field what was typed in it
 *  and not yet saved (its value, unlike its defaultValue) and where the caret was. */
function focusIn(container) {
  const el = document.activeElement;
  if (!el || !container.contains(el) || !el.dataset.testid) return null;
  const text = el.tagName === 'TEXTAREA' || (el.tagName === 'INPUT' && el.type === 'text');
  return {
    testid: el.dataset.testid,
    typed: text && el.value !== el.defaultValue ? el.value : null,
    caret: text ? [el.selectionStart, el.selectionEnd] : null,
  };
}

function restoreFocus(container, kept) {
  const el = container.querySelector(`[data-testid="${kept.testid}"]`);
  if (!el) return;
  el.focus({ preventScroll: true });
  if (kept.typed != null) el.value = kept.typed;
  if (kept.caret) el.setSelectionRange(...kept.caret);
}

function currentFileName(a) {
  const base = (a.originalFilename || 'photo').replace(/\.[^.]+$/, '');
  return a.hasAdjustments ? `${base} (edited).jpg` : (a.originalFilename || 'photo.jpg');
}

