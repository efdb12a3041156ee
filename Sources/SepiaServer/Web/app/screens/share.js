// The public share page (/s/<token>), no account needed: one photo, or an album's photos as a grid with
// a viewer. Expired (410) and unknown (404) links are explained.
import { api } from '../api.js';
import { h, bucket, dpr, formatDate, formatCoordinate, plural, clamp } from '../util.js';
import { icon } from '../icons.js';

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
    main.replaceChildren(...[
      h('h1', { class: 'share-title' }, data.title || 'Shared photo'),
      h('figure', { class: 'share-figure' }, h('img', { src: img(a.id, px), alt: data.title ? `Shared photo: ${data.title}` : 'Shared photo', 'data-testid': 'share-image' }), meta(a)),
      expiry(data)].filter(Boolean));
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
    const addCells = (list, start) => grid.append(...list.map((a, k) => h('li', {}, h('button', { type: 'button', class: 'share-cell', 'data-testid': 'share-cell', aria: { label: `Photo ${start + k + 1}` }, onclick: () => viewer(start + k) },
      h('img', { src: img(a.id, px, 'fill'), alt: '', loading: 'lazy', decoding: 'async' })))));
    const updateCount = () => { count.textContent = cursor ? `${plural(assets.length, 'photo')} so far` : plural(assets.length, 'photo'); };
    addCells(assets, 0);
    updateCount();
    main.replaceChildren(...[
      h('h1', { class: 'share-title' }, data.title || 'Shared album'),
      count,
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
      const countLabel = h('span', { class: 'viewer-count', 'aria-live': 'polite' });
      const info = h('div', { class: 'viewer-meta' });
      const show = () => {
        const a = assets[i];
        big.src = img(a.id, bucket(Math.ceil(Math.max(window.innerWidth, window.innerHeight) * dpr())));
        big.alt = `Photo ${i + 1} of ${assets.length}`;
        countLabel.textContent = `${i + 1} of ${assets.length}${cursor ? '+' : ''}`;
        info.replaceChildren(meta(a) || '');
      };
      const step = (d) => { i = clamp(i + d, 0, assets.length - 1); show(); if (i >= assets.length - 3) loadMore(); };
      const closeBtn = h('button', { type: 'button', class: 'btn icon on-dark', aria: { label: 'Close' }, onclick: () => close() }, icon('close'));
      const dlg = h('dialog', { class: 'share-viewer', aria: { label: 'Photo viewer' } },
        h('div', { class: 'viewer-bar' }, countLabel, closeBtn),
        big,
        h('button', { type: 'button', class: 'nav-arrow prev', aria: { label: 'Previous photo' }, onclick: () => step(-1) }, icon('chevronLeft')),
        h('button', { type: 'button', class: 'nav-arrow next', aria: { label: 'Next photo' }, onclick: () => step(1) }, icon('chevronRight')),
        info);
      dlg.addEventListener('keydown', (e) => { if (e.key === 'ArrowLeft') step(-1); else if (e.key === 'ArrowRight') step(1); });
      // Swipe between photos on touch screens.
      let sx = null;
      big.addEventListener('pointerdown', (e) => { sx = e.clientX; });
      big.addEventListener('pointerup', (e) => { if (sx == null) return; const dx = e.clientX - sx; sx = null; if (dx < -50) step(1); else if (dx > 50) step(-1); });
      dlg.addEventListener('close', () => { dlg.remove(); returnTo?.focus(); });
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
