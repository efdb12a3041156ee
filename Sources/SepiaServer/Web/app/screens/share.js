// The public share page (/s/<token>), no account needed: one photo or video, or an album's as a grid with a
// viewer. Videos play in the browser's player (their poster first); a Live Photo's motion plays, muted, while it
// is pressed or hovered. Expired (410) and unknown (404) links are explained.
import { api } from '../api.js';
import { h, bucket, dpr, formatDate, formatCoordinate, formatDuration, photosAndVideos, clamp, isVideo, isLivePhoto, kindOf, download } from '../util.js';
import { icon } from '../icons.js';
import { downloadDialog } from '../components/download-dialog.js';

export function mountShare(container, params) {
  const token = params.token;
  const main = h('main', { class: 'share-page', id: 'main' },
    h('div', { class: 'share-loading', role: 'status' }, h('span', { class: 'spinner large' }), h('span', {}, 'Opening the shared photos…')));
  const page = h('div', { class: 'share-root' },
    h('header', { class: 'share-head' }, h('img', { src: '/favicon.svg', alt: '', width: '28', height: '28' }), h('span', { class: 'brand-name' }, 'Sepia'), h('span', { class: 'hint share-tag' }, 'Shared with you')),
    main);
  container.append(page);

  const versions = new Map();
  const img = (id, px, mode = 'fit') => api.sharedImageURL(token, id, { size: `${px}x${px}`, mode, v: versions.get(id) });

  /**
   * Gives `use` the URL of an item's motion once the server can play it; while its playable version is being made
   * (202), asks again every Retry-After seconds, for as long as `wanted()` says the item is still on screen.
   */
  async function whenPlayable(id, use, wanted, onWait) {
    const url = await api.whenPlayable(api.sharedVideoURL(token, id), { wanted, onWait, credentials: 'omit' });
    if (url) use(url);
  }

  /** A player for a shared video: its poster the rendition, the movie once it can be played. */
  function player(a, posterURL, label, testid) {
    const video = h('video', { controls: true, playsinline: true, preload: 'metadata', poster: posterURL, 'data-testid': testid, aria: { label } });
    const note = h('p', { class: 'hint share-wait', role: 'status', hidden: true }, 'Preparing this video for playback…');
    const wanted = () => video.isConnected;
    requestAnimationFrame(() => whenPlayable(a.id, (url) => { note.hidden = true; video.src = url; }, wanted, () => { note.hidden = false; }));
    video.addEventListener('error', () => {
      if (video.getAttribute('src')) { note.hidden = false; note.textContent = 'This video cannot be played in this browser.'; }
    });
    return { video, note };
  }

  /** A Live Photo's still, whose motion plays, muted, while the pointer presses or rests on it. */
  function livePhoto(a, still) {
    const motion = h('video', { class: 'share-live-video', playsinline: true, preload: 'none', tabindex: '-1', 'aria-hidden': 'true', 'data-testid': 'share-live-video', props: { muted: true, defaultMuted: true } });
    const badge = h('span', { class: 'cell-badge share-live-badge', 'aria-hidden': 'true' }, icon('live'), h('span', {}, 'LIVE'));
    const box = h('div', { class: 'share-live' }, still, motion, badge);
    let ready = false;
    const play = () => {
      if (!ready) { ready = true; whenPlayable(a.id, (url) => { motion.src = url; if (box.classList.contains('playing')) motion.play().catch(() => {}); }, () => box.isConnected); }
      box.classList.add('playing');
      motion.currentTime = 0;
      if (motion.getAttribute('src')) motion.play().catch(() => {});
    };
    const stop = () => { box.classList.remove('playing'); motion.pause(); };
    box.addEventListener('pointerenter', play);
    box.addEventListener('pointerdown', play);
    box.addEventListener('pointerleave', stop);
    box.addEventListener('pointerup', (e) => { if (e.pointerType !== 'mouse') stop(); });
    motion.addEventListener('ended', stop);
    return box;
  }

  function problem(title, text) {
    document.title = `${title} — Sepia`;
    main.replaceChildren(h('div', { class: 'empty', role: 'alert', 'data-testid': 'share-problem' }, icon('link', { cls: 'empty-icon' }), h('h1', {}, title), h('p', {}, text)));
  }

  async function load() {
    try {
      const data = await api.shared(token);
      for (const a of data.assets || []) if (a.version) versions.set(a.id, a.version);
      document.title = `${data.title || 'Shared photos'} — Sepia`;
      if (data.kind === 'asset' || (data.assets?.length === 1 && data.kind !== 'album')) showOne(data, data.assets?.[0]);
      else showAlbum(data);
    } catch (e) {
      if (e.status === 410) problem('This link has expired', 'The person who shared it set an end date, and it has passed. Ask them for a new link.');
      else if (e.status === 404) problem('This link does not work', 'It may have been revoked, or the address is incomplete. Check that you have the whole link, or ask for a new one.');
      else problem('The shared photos could not be loaded', e.message);
    }
  }

  function meta(a) {
    if (!a) return null;
    const parts = [];
    if (a.creationDate) parts.push(formatDate(a.creationDate, a.creationDateOffset));
    const cam = [a.cameraMake, a.cameraModel].filter(Boolean).join(' ');
    if (cam) parts.push(cam);
    if (a.location?.latitude != null) parts.push(`${formatCoordinate(a.location.latitude, 'N', 'S')}, ${formatCoordinate(a.location.longitude, 'E', 'W')}`);
    return parts.length ? h('p', { class: 'share-meta hint' }, parts.join(' · ')) : null;
  }

  function showOne(data, a) {
    if (!a) { problem('Nothing to show', 'This link shows no photo any more.'); return; }
    const px = bucket(Math.ceil(Math.max(window.innerWidth, window.innerHeight) * dpr()));
    const label = `Shared ${kindOf(a).toLowerCase()}` + (data.title && data.kind === 'album' ? `: ${data.title}` : '');
    let shown;
    if (isVideo(a)) {
      const { video, note } = player(a, img(a.id, px), label, 'share-video');
      shown = [video, note];
    } else {
      const still = h('img', { src: img(a.id, px), alt: label, 'data-testid': 'share-image' });
      shown = [isLivePhoto(a) ? livePhoto(a, still) : still];
    }
    const title = data.kind === 'asset' ? `Shared ${kindOf(a).toLowerCase()}` : data.title;
    document.title = `${title || 'Shared photo'} — Sepia`;
    main.replaceChildren(...[
      h('h1', { class: 'share-title' }, title || 'Shared photo'),
      h('figure', { class: 'share-figure' }, ...shown, meta(a)),
      downloadButton(data),
      expiry(data)].filter(Boolean));
  }

  /** The Download button, when the link's owner allows downloads: one ZIP file, as shown or the originals. */
  function downloadButton(data) {
    if (!data.allowDownload) return null;
    const label = data.kind === 'album' ? 'Download All' : 'Download';
    return h('div', { class: 'share-actions' }, h('button', {
      type: 'button', class: 'btn', 'data-testid': 'share-download',
      onclick: async () => {
        const version = await downloadDialog({
          title: data.kind === 'album' ? `Download “${data.title || 'album'}”` : 'Download this photo',
          message: 'It downloads as one ZIP file.', initial: 'current',
        });
        if (version) download(api.sharedDownloadURL(token, version));
      },
    }, icon('download'), label));
  }

  function expiry(data) {
    return data.expiresAt ? h('p', { class: 'hint share-exp' }, `This link works until ${new Date(data.expiresAt).toLocaleString()}.`) : null;
  }

  function showAlbum(data) {
    const assets = [...(data.assets || [])];
    let cursor = data.nextCursor || null;
    const px = bucket(Math.ceil(200 * dpr()));
    const grid = h('ul', { class: 'share-grid', 'data-testid': 'share-grid' });
    const count = h('p', { class: 'hint' });
    const more = h('div', { class: 'share-more', role: 'status' });
    const addCells = (list, start) => grid.append(...list.map((a, k) => h('li', {}, h('button', { type: 'button', class: 'share-cell', 'data-testid': 'share-cell', aria: { label: `${kindOf(a)} ${start + k + 1}` + (isVideo(a) && a.duration != null ? `, ${formatDuration(a.duration)}` : '') }, onclick: () => viewer(start + k) },
      h('img', { src: img(a.id, px, 'fill'), alt: '', loading: 'lazy', decoding: 'async' }),
      isLivePhoto(a) ? h('span', { class: 'cell-badge cell-live', 'aria-hidden': 'true' }, icon('live'), h('span', {}, 'LIVE')) : null,
      isVideo(a) && a.duration != null ? h('span', { class: 'cell-badge cell-duration', 'aria-hidden': 'true', 'data-testid': 'share-cell-duration' }, formatDuration(a.duration)) : null))));
    // "3 photos", "2 photos, 1 video", as Photos counts them.
    const counted = () => {
      const videos = assets.filter(isVideo).length;
      const photos = assets.length - videos;
      return photosAndVideos(photos, videos);
    };
    const updateCount = () => { count.textContent = cursor ? `${counted()} so far` : counted(); };
    addCells(assets, 0);
    updateCount();
    main.replaceChildren(...[
      h('h1', { class: 'share-title' }, data.title || 'Shared album'),
      count,
      downloadButton(data),
      assets.length ? grid : h('p', { class: 'empty' }, 'This album is empty.'),
      more,
      expiry(data)].filter(Boolean));

    // The album's photos come a page at a time: the next page loads as the end comes into view.
    let loading = false;
    const loadMore = async () => {
      if (!cursor || loading) return;
      loading = true;
      more.replaceChildren(h('span', { class: 'spinner' }), ' Loading more photos…');
      try {
        const page = await api.shared(token, { cursor });
        const list = page.assets || [];
        for (const a of list) if (a.version) versions.set(a.id, a.version);
        const start = assets.length;
        assets.push(...list);
        addCells(list, start);
        cursor = page.nextCursor || null;
        more.replaceChildren();
      } catch (e) {
        more.replaceChildren(h('span', { class: 'form-error' }, `More photos could not be loaded: ${e.message}`));
        cursor = null;
      } finally {
        loading = false;
        updateCount();
        if (cursor && more.getBoundingClientRect().top < window.innerHeight + 600) loadMore();
      }
    };
    new IntersectionObserver((entries) => { if (entries.some((x) => x.isIntersecting)) loadMore(); }, { rootMargin: '600px' }).observe(more);

    function viewer(start) {
      let i = start;
      const returnTo = document.activeElement;
      const big = h('img', { class: 'viewer-img', alt: '', 'data-testid': 'share-viewer-image' });
      const slot = h('div', { class: 'viewer-slot' }, big);
      const countLabel = h('span', { class: 'viewer-count', 'aria-live': 'polite' });
      const info = h('div', { class: 'viewer-meta' });
      const show = () => {
        const a = assets[i];
        const url = img(a.id, bucket(Math.ceil(Math.max(window.innerWidth, window.innerHeight) * dpr())));
        const label = `${kindOf(a)} ${i + 1} of ${assets.length}`;
        // A video replaces the still in the slot (and is dropped, releasing its decoder, when the viewer moves on).
        if (isVideo(a)) {
          const { video, note } = player(a, url, label, 'share-viewer-video');
          video.classList.add('viewer-img');
          slot.replaceChildren(video, note);
        } else {
          big.src = url;
          big.alt = label;
          slot.replaceChildren(isLivePhoto(a) ? livePhoto(a, big) : big);
        }
        countLabel.textContent = `${i + 1} of ${assets.length}${cursor ? '+' : ''}`;
        info.replaceChildren(meta(a) || '');
      };
      const step = (d) => { i = clamp(i + d, 0, assets.length - 1); show(); if (i >= assets.length - 3) loadMore(); };
      const closeBtn = h('button', { type: 'button', class: 'btn icon on-dark', aria: { label: 'Close' }, onclick: () => close() }, icon('close'));
      const dlg = h('dialog', { class: 'share-viewer', aria: { label: 'Photo viewer' } },
        h('div', { class: 'viewer-bar' }, countLabel, closeBtn),
        slot,
        h('button', { type: 'button', class: 'nav-arrow prev', aria: { label: 'Previous photo' }, onclick: () => step(-1) }, icon('chevronLeft')),
        h('button', { type: 'button', class: 'nav-arrow next', aria: { label: 'Next photo' }, onclick: () => step(1) }, icon('chevronRight')),
        info);
      dlg.addEventListener('keydown', (e) => {
        if (e.target?.tagName === 'VIDEO' && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) return; // the player seeks
        if (e.key === 'ArrowLeft') step(-1); else if (e.key === 'ArrowRight') step(1);
      });
      // Swipe between photos on touch screens.
      let sx = null;
      big.addEventListener('pointerdown', (e) => { sx = e.clientX; });
      big.addEventListener('pointerup', (e) => { if (sx == null) return; const dx = e.clientX - sx; sx = null; if (dx < -50) step(1); else if (dx > 50) step(-1); });
      dlg.addEventListener('close', () => { slot.replaceChildren(); dlg.remove(); returnTo?.focus(); });
      const close = () => dlg.close();
      document.body.append(dlg);
      dlg.showModal();
      closeBtn.focus();
      show();
    }
  }

  load();
  return { el: page, unmount() { page.remove(); } };
}
