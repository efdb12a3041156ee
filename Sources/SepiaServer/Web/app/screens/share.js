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
    const assets = data.assets || [];
    const px = bucket(Math.ceil(200 * dpr()));
    const grid = h('ul', { class: 'share-grid', 'data-testid': 'share-grid' },
      assets.map((a, i) => h('li', {}, h('button', { type: 'button', class: 'share-cell', 'data-testid': 'share-cell', aria: { label: `Photo ${i + 1} of ${assets.length}` }, onclick: () => viewer(i) },
        h('img', { src: img(a.id, px, 'fill'), alt: '', loading: 'lazy', decoding: 'async' })))));
    main.replaceChildren(...[
      h('h1', { class: 'share-title' }, data.title || 'Shared album'),
      h('p', { class: 'hint' }, plural(assets.length, 'photo')),
      assets.length ? grid : h('p', { class: 'empty' }, 'This album is empty.'),
      expiry(data)].filter(Boolean));

    function viewer(start) {
      let i = start;
      const returnTo = document.activeElement;
      const big = h('img', { class: 'viewer-img', alt: '', 'data-testid': 'share-viewer-image' });
      const count = h('span', { class: 'viewer-count', 'aria-live': 'polite' });
      const info = h('div', { class: 'viewer-meta' });
      const show = () => {
        const a = assets[i];
        big.src = img(a.id, bucket(Math.ceil(Math.max(window.innerWidth, window.innerHeight) * dpr())));
        big.alt = `Photo ${i + 1} of ${assets.length}`;
        count.textContent = `${i + 1} of ${assets.length}`;
        info.replaceChildren(meta(a) || '');
      };
      const step = (d) => { i = clamp(i + d, 0, assets.length - 1); show(); };
      const closeBtn = h('button', { type: 'button', class: 'btn icon on-dark', aria: { label: 'Close' }, onclick: () => close() }, icon('close'));
      const dlg = h('dialog', { class: 'share-viewer', aria: { label: 'Photo viewer' } },
        h('div', { class: 'viewer-bar' }, count, closeBtn),
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
