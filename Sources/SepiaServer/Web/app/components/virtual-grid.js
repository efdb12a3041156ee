// VirtualGrid: a sectioned grid of square thumbnails where only the rows near the viewport exist in the
// DOM. The layout (section offsets, rows) is computed from the source's counts, so 100 000 photos cost a
// few hundred numbers; each visible section asks its source for its photos by cursor.
//
// Keyboard: roving tabindex (one cell is tabbable); arrows move, Home/End, PageUp/PageDown, Enter opens,
// Space selects, Shift+arrows extend the selection, Ctrl/⌘+A selects all loaded photos,
// Alt+arrows move a photo (when reorderable).
import { api } from '../api.js';
import { h, clamp, bucket, dpr, formatDate, formatDuration, mediaKind, rafThrottle, shared, daysLeftText, inLastDays, photosAndVideos } from '../util.js';
import { icon } from '../icons.js';

const HEADER_H = 56;
const SECTION_GAP = 8;
const OVERSCAN = 800; // px above and below the viewport kept rendered
const PREFETCH = 1600; // px beyond the viewport whose photos are fetched

export class VirtualGrid {
  /** Thumbnail size step: 0 small, 1 medium, 2 large (kept in localStorage). */
  static get zoom() {
    let raw = null;
    try { raw = localStorage.getItem('sepia.zoom'); } catch { raw = null; }
    const z = raw == null ? 1 : Number(raw);
    return Number.isInteger(z) && z >= 0 && z <= 2 ? z : 1;
  }
  static set zoom(z) { try { localStorage.setItem('sepia.zoom', String(z)); } catch { /* ignore */ } }

  /**
   * @param {object} o
   * @param {HTMLElement} o.scroller the element that scrolls
   * @param {object} o.source MonthSource or ListSource
   * @param {string} o.label accessible name
   * @param {object} o.selection Selection (see selection-bar.js)
   * @param {(asset, g) => void} o.onOpen
   * @param {boolean} [o.reorderable]
   * @param {(ids, index) => void} [o.onMove] index in the list without the moved photos
   * @param {(si) => void} [o.onSectionChange] the section at the top changed
   */
  constructor(o) {
    Object.assign(this, o);
    this.rows = new Map(); // key → {el, sig}
    this.headers = new Map();
    this.focusG = 0;
    this.anchorG = null;
    this.layoutData = null;
    this.el = h('div', {
      class: 'vgrid', role: 'grid', 'data-testid': 'grid', aria: { label: this.label, multiselectable: 'true' },
    });
    if (!this.source.grouped) this.el.classList.add('flat');
    this.sticky = h('div', { class: 'vgrid-sticky', 'aria-hidden': 'true' }, h('span', { class: 'vgrid-sticky-title' }));
    this.sticky.hidden = true;
    this.live = h('div', { class: 'visually-hidden', 'aria-live': 'polite' });
    this.dropLine = h('div', { class: 'vgrid-drop-line', hidden: true });
    this.el.append(this.dropLine);

    this.render = rafThrottle(() => this.renderNow());
    // Photos are fetched for where the view settles: during a fast scroll or a scrubber jump, the months
    // flying past are not requested.
    this.onScroll = () => {
      const t = performance.now();
      const y = this.scroller.scrollTop;
      this.velocity = this.lastT != null ? Math.abs(y - this.lastY) / Math.max(1, t - this.lastT) : 0;
      this.lastY = y;
      this.lastT = t;
      this.render();
      clearTimeout(this.idleTimer);
      this.idleTimer = setTimeout(() => { this.velocity = 0; this.fetchVisible(); }, 120);
    };
    this.scroller.addEventListener('scroll', this.onScroll, { passive: true });
    this.resizeObserver = new ResizeObserver(() => { this.layout(); this.render(); });
    this.resizeObserver.observe(this.scroller);
    this.el.addEventListener('click', (e) => this.onClick(e));
    this.el.addEventListener('keydown', (e) => this.onKey(e));
    this.el.addEventListener('focusin', (e) => {
      const cell = e.target.closest('.cell');
      if (cell) { this.focusG = Number(cell.dataset.g); this.updateTabStops(); }
    });
    if (this.reorderable) this.setupDrag();
    this.offs = [
      this.source.on('layout', () => { this.layout(); this.renderNow(true); }),
      this.source.on('data', () => this.renderNow(true)),
    ];
    if (this.selection) this.offs.push(this.selection.on('change', () => this.refreshSelection()));
    this.layout();
  }

  destroy() {
    clearTimeout(this.idleTimer);
    this.scroller.removeEventListener('scroll', this.onScroll);
    this.resizeObserver.disconnect();
    this.offs.forEach((off) => off());
  }

  // ---------- Layout ----------
  layout() {
    const width = this.el.clientWidth || this.scroller.clientWidth;
    if (!width) return;
    const phone = width < 600;
    const gap = phone ? 2 : 4;
    const zoom = VirtualGrid.zoom;
    const target = phone ? [64, 96, 150][zoom] : [112, width > 1400 ? 200 : 176, 300][zoom];
    const cols = clamp(Math.round((width + gap) / (target + gap)), 3, 14);
    const cell = (width - gap * (cols - 1)) / cols;
    const grouped = this.source.grouped;
    let y = 0;
    const secs = this.source.sections.map((s, si) => {
      const header = grouped || s.title ? HEADER_H : 0;
      const rows = Math.ceil(s.count / cols);
      const top = y;
      const height = header + (rows ? rows * (cell + gap) - gap : 0) + SECTION_GAP;
      y += height;
      return { si, top, header, rows, height, gridTop: top + header };
    });
    this.layoutData = { width, gap, cols, cell, secs, total: y };
    this.el.style.height = `${Math.max(y, 1)}px`;
    // Small cells keep the Live badge's icon and drop its word.
    this.el.classList.toggle('small-cells', cell < 96);
    this.thumbPx = bucket(Math.ceil(cell * dpr()));
    shared.thumbPx = this.thumbPx;
    // Size changed: every row is rebuilt.
    for (const r of this.rows.values()) r.el.remove();
    this.rows.clear();
    for (const hd of this.headers.values()) hd.remove();
    this.headers.clear();
  }

  /** Changes the thumbnail size, keeping the photo at the top of the view in place. */
  setZoom(z) {
    const L = this.layoutData;
    let anchor = null;
    if (L) {
      const y = this.scroller.scrollTop - this.originY;
      const si = this.sectionAtY(Math.max(0, y));
      const sec = L.secs[si];
      const row = Math.max(0, Math.floor((y - sec.gridTop) / (L.cell + L.gap)));
      anchor = this.source.globalIndex(si, Math.min(row * L.cols, Math.max(0, this.source.sections[si].count - 1)));
    }
    VirtualGrid.zoom = z;
    this.layout();
    if (anchor != null && this.scroller.scrollTop > 0) {
      const r = this.cellRect(anchor);
      if (r) this.scroller.scrollTop = r.y + this.originY - (this.source.grouped ? HEADER_H : 0);
    }
    this.renderNow(true);
  }

  /** Offset of the grid inside the scroller (toolbars above it scroll too). */
  get originY() { return this.el.offsetTop; }

  sectionAtY(y) {
    const secs = this.layoutData?.secs || [];
    let lo = 0; let hi = secs.length - 1; let ans = 0;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (secs[mid].top <= y) { ans = mid; lo = mid + 1; } else hi = mid - 1;
    }
    return ans;
  }

  /** y (inside the grid) of the cell for global index g. */
  cellRect(g) {
    const p = this.source.locate(g);
    const L = this.layoutData;
    if (!p || !L) return null;
    const sec = L.secs[p.si];
    const row = Math.floor(p.i / L.cols);
    const col = p.i % L.cols;
    return { si: p.si, i: p.i, row, col, x: col * (L.cell + L.gap), y: sec.gridTop + row * (L.cell + L.gap), size: L.cell };
  }

  // ---------- Rendering ----------
  renderNow(force = false) {
    const L = this.layoutData;
    if (!L || !this.el.isConnected) return;
    if (force) for (const r of this.rows.values()) r.sig = null;
    const viewTop = this.scroller.scrollTop - this.originY;
    const viewH = this.scroller.clientHeight;
    const top = viewTop - OVERSCAN;
    const bottom = viewTop + viewH + OVERSCAN;
    const wanted = new Set();
    const wantedHeaders = new Set();
    const secs = L.secs;
    let si = this.sectionAtY(Math.max(0, top));
    for (; si < secs.length && secs[si].top < bottom; si++) {
      const sec = secs[si];
      const s = this.source.sections[si];
      if (!s) break;
      if (sec.header && sec.top + sec.header > top) {
        wantedHeaders.add(si);
        this.renderHeader(si, sec, s);
      }
      const rowH = L.cell + L.gap;
      const r0 = Math.max(0, Math.floor((top - sec.gridTop) / rowH));
      const r1 = Math.min(sec.rows - 1, Math.floor((bottom - sec.gridTop) / rowH));
      for (let r = r0; r <= r1; r++) {
        const key = si + ':' + r;
        wanted.add(key);
        this.renderRow(key, si, r, sec, s);
      }
    }
    for (const [key, r] of this.rows) if (!wanted.has(key)) { r.el.remove(); this.rows.delete(key); }
    for (const [key, el] of this.headers) if (!wantedHeaders.has(key)) { el.remove(); this.headers.delete(key); }

    if (force || !this.velocity || this.velocity < 4) this.fetchVisible();
    this.updateSticky(viewTop);
    this.updateTabStops();
  }

  /** Asks the source for the photos of the sections within the prefetch margin. */
  fetchVisible() {
    const L = this.layoutData;
    if (!L || !this.el.isConnected) return;
    const secs = L.secs;
    const viewTop = this.scroller.scrollTop - this.originY;
    const viewH = this.scroller.clientHeight;
    const pTop = viewTop - PREFETCH / 2;
    const pBottom = viewTop + viewH + PREFETCH;
    for (let k = this.sectionAtY(Math.max(0, pTop)); k < secs.length && secs[k].top < pBottom; k++) {
      const sec = secs[k];
      const rowH = L.cell + L.gap;
      const lastRow = Math.min(sec.rows - 1, Math.floor((pBottom - sec.gridTop) / rowH));
      const upTo = Math.min(this.source.sections[k].count - 1, (lastRow + 1) * L.cols - 1);
      if (upTo >= 0) this.source.ensure(k, upTo);
    }
  }

  renderHeader(si, sec, s) {
    let el = this.headers.get(si);
    if (!el) {
      el = h('div', { class: 'vgrid-header', role: 'row' },
        h('div', { role: 'columnheader', class: 'vgrid-header-cell' },
          h('h2', { class: 'vgrid-title' }, s.title || ''),
          h('span', { class: 'vgrid-count' }, s.count ? photosAndVideos(Math.max(0, s.count - (s.videos || 0)), Math.min(s.count, s.videos || 0)) : '')));
      el.style.transform = `translateY(${sec.top}px)`;
      el.style.height = `${sec.header}px`;
      this.el.append(el);
      this.headers.set(si, el);
    }
  }

  renderRow(key, si, r, sec, s) {
    const L = this.layoutData;
    const start = r * L.cols;
    const end = Math.min(s.count, start + L.cols);
    let sig = '';
    for (let i = start; i < end; i++) {
      const a = s.items[i];
      sig += a ? a.id + a.version + (a.isFavorite ? 'f' : '') + '|' : '_|';
    }
    let row = this.rows.get(key);
    if (row && row.sig === sig) return;
    if (!row) {
      const el = h('div', { class: 'vgrid-row', role: 'row' });
      el.style.transform = `translateY(${sec.gridTop + r * (L.cell + L.gap)}px)`;
      el.style.height = `${L.cell}px`;
      el.style.gap = `${L.gap}px`;
      this.el.append(el);
      row = { el, sig: null };
      this.rows.set(key, row);
    }
    // Reuse cells whose photo did not change (keeps loaded images).
    const old = new Map([...row.el.children].map((c) => [c.dataset.key, c]));
    const cells = [];
    const g0 = this.source.globalIndex(si, 0);
    for (let i = start; i < end; i++) {
      const a = s.items[i];
      const k = a ? a.id + ':' + a.version + ':' + (a.isFavorite ? 1 : 0) : 'skeleton:' + i;
      let cell = old.get(k);
      if (cell) old.delete(k); else cell = this.makeCell(a, i);
      cell.dataset.g = String(g0 + i);
      cell.style.width = `${L.cell}px`;
      cells.push(cell);
    }
    row.el.replaceChildren(...cells);
    row.sig = sig;
    this.refreshSelection(row.el);
  }

  makeCell(a, i) {
    if (!a) {
      return h('div', { class: 'cell skeleton', role: 'gridcell', tabindex: '-1', 'data-key': 'skeleton:' + i, aria: { label: 'Loading photo', busy: 'true' } });
    }
    // What it is comes first ("Video, 0:02, …", "Live Photo, …"); the badges themselves are hidden from
    // screen readers, which hear this label instead.
    const itemKind = mediaKind(a);
    const video = itemKind.isMovie;
    const live = itemKind.stage === 'live';
    const duration = video ? formatDuration(a.duration) : '';
    const raw = itemKind.badge;
    const kind = itemKind.spoken + (duration ? ', ' + duration : '');
    // In Recently Deleted: the days it has left before it is deleted for good, on the cell and in its label.
    const left = a.trashedDate ? daysLeftText(a.daysLeft) : '';
    const label = `${kind}, ${formatDate(a.creationDate, a.creationDateOffset, { withTime: false })}${a.isFavorite ? ', favorite' : ''}${a.hasAdjustments ? ', edited' : ''}${left ? `, deleted, ${left} left` : ''}`;
    const size = `${this.thumbPx}x${this.thumbPx}`;
    const img = h('img', {
      alt: '', decoding: 'async', draggable: 'false',
      src: api.imageURL(a.id, { size, mode: 'fill', v: a.version }),
    });
    img.addEventListener('load', () => img.classList.add('loaded'), { once: true });
    img.addEventListener('error', () => { img.classList.add('failed'); cell.classList.add('broken'); cell.title = 'This thumbnail could not be loaded.'; }, { once: true });
    const cell = h('div', {
      class: 'cell', role: 'gridcell', tabindex: '-1',
      'data-testid': 'grid-cell', 'data-asset-id': a.id, 'data-key': a.id + ':' + a.version + ':' + (a.isFavorite ? 1 : 0),
      aria: { label },
      draggable: this.reorderable ? 'true' : null,
    },
    img,
    live ? h('span', { class: 'cell-badge cell-live', 'aria-hidden': 'true' }, icon('live'), h('span', { class: 'cell-badge-text' }, 'LIVE')) : null,
    duration ? h('span', { class: 'cell-badge cell-duration', 'aria-hidden': 'true' }, duration) : null,
    raw && !live ? h('span', { class: 'cell-badge cell-raw', 'aria-hidden': 'true' }, raw) : null,
    left ? h('span', { class: ['cell-badge', 'cell-days', inLastDays(a.daysLeft) && 'soon'], 'data-testid': 'cell-days-left', 'aria-hidden': 'true' }, left) : null,
    a.isFavorite ? h('span', { class: 'cell-fav' }, icon('heartFill')) : null,
    h('span', { class: 'cell-check' }, icon('check')));
    return cell;
  }

  updateSticky(viewTop) {
    const L = this.layoutData;
    if (!L || !this.source.grouped || !L.secs.length || viewTop < 1) { this.sticky.hidden = true; this.currentSection(0); return; }
    const si = this.sectionAtY(viewTop);
    const s = this.source.sections[si];
    this.sticky.hidden = false;
    this.sticky.firstChild.textContent = s?.title || '';
    const next = L.secs[si + 1];
    let shift = 0;
    if (next && next.top - viewTop < HEADER_H) shift = next.top - viewTop - HEADER_H;
    this.sticky.firstChild.style.transform = `translateY(${shift}px)`;
    this.currentSection(si);
  }

  currentSection(si) {
    if (this.topSection !== si) { this.topSection = si; this.onSectionChange?.(si); }
  }

  // ---------- Scrolling ----------
  scrollToSection(si, { smooth = false } = {}) {
    const sec = this.layoutData?.secs[si];
    if (!sec) return;
    this.scroller.scrollTo({ top: sec.top + this.originY + (si === 0 ? -this.originY : 0), behavior: smooth ? 'smooth' : 'auto' });
  }

  scrollToFraction(f) {
    const L = this.layoutData;
    if (!L) return;
    const max = this.scroller.scrollHeight - this.scroller.clientHeight;
    this.scroller.scrollTop = clamp(f, 0, 1) * max;
  }

  /** Makes global index g visible, renders, and returns its cell element. */
  reveal(g) {
    const rect = this.cellRect(g);
    if (!rect) return null;
    const top = rect.y + this.originY;
    const stickyH = this.source.grouped ? HEADER_H : 0;
    const viewTop = this.scroller.scrollTop;
    const viewH = this.scroller.clientHeight;
    if (top - stickyH < viewTop) this.scroller.scrollTop = top - stickyH - 8;
    else if (top + rect.size > viewTop + viewH) this.scroller.scrollTop = top + rect.size - viewH + 8;
    this.renderNow();
    return this.el.querySelector(`.cell[data-g="${g}"]`);
  }

  revealAsset(id) {
    const p = this.source.find(id);
    if (!p) return;
    const cell = this.reveal(p.g);
    this.focusG = p.g;
    this.updateTabStops();
    return cell;
  }

  focusCell(g) {
    const total = this.source.total;
    if (!total) return;
    g = clamp(g, 0, total - 1);
    this.focusG = g;
    const cell = this.reveal(g);
    this.updateTabStops();
    cell?.focus({ preventScroll: true });
  }

  focus() {
    const cell = this.el.querySelector(`.cell[data-g="${this.focusG}"]`) || this.el.querySelector('.cell');
    cell?.focus();
  }

  updateTabStops() {
    const cells = this.el.querySelectorAll('.cell');
    if (!cells.length) return;
    let target = this.el.querySelector(`.cell[data-g="${this.focusG}"]`);
    if (!target && !this.el.contains(document.activeElement)) {
      // The remembered cell scrolled away: the first visible one becomes the tab stop.
      const viewTop = this.scroller.scrollTop - this.originY;
      const L = this.layoutData;
      let best = null;
      for (const c of cells) {
        const r = this.cellRect(Number(c.dataset.g));
        if (r && r.y >= viewTop && (!best || Number(c.dataset.g) < Number(best.dataset.g))) best = c;
      }
      target = best || cells[0];
      if (L) this.focusG = Number(target.dataset.g);
    }
    for (const c of cells) c.tabIndex = c === target ? 0 : -1;
  }

  // ---------- Selection ----------
  refreshSelection(root = this.el) {
    const sel = this.selection;
    const mode = !!sel?.active;
    this.el.classList.toggle('selecting', mode);
    for (const c of root.querySelectorAll('.cell[data-asset-id]')) {
      const on = mode && sel.has(c.dataset.assetId);
      c.classList.toggle('selected', on);
      if (mode) c.setAttribute('aria-selected', on ? 'true' : 'false');
      else c.removeAttribute('aria-selected');
    }
  }

  selectRange(g1, g2, additive = true) {
    const [a, b] = g1 < g2 ? [g1, g2] : [g2, g1];
    const ids = [];
    for (let g = a; g <= b; g++) { const asset = this.source.assetAt(g); if (asset) ids.push(asset.id); }
    this.selection.addMany(ids, additive);
  }

  onClick(e) {
    const cell = e.target.closest('.cell[data-asset-id]');
    if (!cell) return;
    const g = Number(cell.dataset.g);
    const asset = this.source.assetAt(g);
    if (!asset) return;
    this.focusG = g;
    const sel = this.selection;
    if (sel && (sel.active || e.shiftKey || e.metaKey || e.ctrlKey)) {
      if (!sel.active) sel.start();
      if (e.shiftKey && this.anchorG != null) this.selectRange(this.anchorG, g);
      else { sel.toggle(asset.id); this.anchorG = g; }
      return;
    }
    this.onOpen?.(asset, g);
  }

  onKey(e) {
    const L = this.layoutData;
    if (!L) return;
    const cell = e.target.closest('.cell');
    if (!cell) return;
    const g = Number(cell.dataset.g);
    const sel = this.selection;
    const p = this.source.locate(g);
    if (!p) return;
    let target = null;
    if (e.altKey && this.reorderable && ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'].includes(e.key)) {
      e.preventDefault();
      const delta = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -L.cols, ArrowDown: L.cols }[e.key];
      const asset = this.source.assetAt(g);
      const to = clamp(g + delta, 0, this.source.total - 1);
      if (asset && to !== g) {
        this.onMove?.([asset.id], to);
        this.live.textContent = `Moved to position ${to + 1} of ${this.source.total}.`;
        requestAnimationFrame(() => this.focusCell(to));
      }
      return;
    }
    switch (e.key) {
      case 'ArrowRight': target = g + 1; break;
      case 'ArrowLeft': target = g - 1; break;
      case 'ArrowDown': target = this.verticalMove(p, 1); break;
      case 'ArrowUp': target = this.verticalMove(p, -1); break;
      case 'Home': target = e.ctrlKey || e.metaKey ? 0 : g - (p.i % L.cols); break;
      case 'End': target = e.ctrlKey || e.metaKey ? this.source.total - 1 : Math.min(g - (p.i % L.cols) + L.cols - 1, g - p.i + this.source.sections[p.si].count - 1); break;
      case 'PageDown': target = g + L.cols * Math.max(1, Math.floor(this.scroller.clientHeight / (L.cell + L.gap)) - 1); break;
      case 'PageUp': target = g - L.cols * Math.max(1, Math.floor(this.scroller.clientHeight / (L.cell + L.gap)) - 1); break;
      case 'Enter': {
        e.preventDefault();
        const asset = this.source.assetAt(g);
        if (!asset) return;
        if (sel?.active) { sel.toggle(asset.id); this.anchorG = g; } else this.onOpen?.(asset, g);
        return;
      }
      case ' ': {
        e.preventDefault();
        const asset = this.source.assetAt(g);
        if (!asset || !sel) return;
        if (!sel.active) sel.start();
        if (e.shiftKey && this.anchorG != null) this.selectRange(this.anchorG, g);
        else { sel.toggle(asset.id); this.anchorG = g; }
        return;
      }
      case 'a': case 'A':
        if ((e.ctrlKey || e.metaKey) && sel) {
          e.preventDefault();
          sel.start();
          sel.addMany(this.source.loadedAssets().map((x) => x.id), true);
        }
        return;
      default: return;
    }
    e.preventDefault();
    target = clamp(target, 0, this.source.total - 1);
    if (e.shiftKey && sel) {
      if (!sel.active) sel.start();
      if (this.anchorG == null) this.anchorG = g;
      this.selectRange(this.anchorG, target, false);
    } else if (!e.shiftKey) this.anchorG = target;
    this.focusCell(target);
  }

  verticalMove(p, dir) {
    const L = this.layoutData;
    const secs = this.source.sections;
    const col = p.i % L.cols;
    const row = Math.floor(p.i / L.cols);
    const rows = Math.ceil(secs[p.si].count / L.cols);
    const base = this.source.globalIndex(p.si, 0);
    if (dir > 0) {
      if (row + 1 < rows) return base + Math.min(p.i + L.cols, secs[p.si].count - 1);
      if (p.si + 1 < secs.length) return base + secs[p.si].count + Math.min(col, secs[p.si + 1].count - 1);
      return base + p.i;
    }
    if (row > 0) return base + p.i - L.cols;
    if (p.si > 0) {
      const prev = secs[p.si - 1];
      const prevRows = Math.ceil(prev.count / L.cols);
      const idx = Math.min((prevRows - 1) * L.cols + col, prev.count - 1);
      return base - prev.count + idx;
    }
    return base + p.i;
  }

  // ---------- Drag to reorder (album views) ----------
  setupDrag() {
    let dragIds = null;
    let dropIndex = null;
    this.el.addEventListener('dragstart', (e) => {
      const cell = e.target.closest('.cell[data-asset-id]');
      if (!cell) return;
      const id = cell.dataset.assetId;
      dragIds = this.selection?.active && this.selection.has(id) ? [...this.selection.ids] : [id];
      e.dataTransfer.effectAllowed = 'move';
      e.dataTransfer.setData('application/x-sepia-assets', JSON.stringify(dragIds));
      cell.classList.add('dragging');
    });
    this.el.addEventListener('dragend', (e) => {
      e.target.closest?.('.cell')?.classList.remove('dragging');
      this.dropLine.hidden = true;
      dragIds = null;
    });
    this.el.addEventListener('dragover', (e) => {
      if (!dragIds || !e.dataTransfer.types.includes('application/x-sepia-assets')) return;
      const cell = e.target.closest('.cell[data-asset-id]');
      if (!cell) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'move';
      const r = cell.getBoundingClientRect();
      const after = e.clientX > r.left + r.width / 2;
      const g = Number(cell.dataset.g) + (after ? 1 : 0);
      dropIndex = g;
      const gridRect = this.el.getBoundingClientRect();
      this.dropLine.hidden = false;
      this.dropLine.style.transform = `translate(${(after ? r.right : r.left) - gridRect.left - 2}px, ${r.top - gridRect.top}px)`;
      this.dropLine.style.height = `${r.height}px`;
    });
    this.el.addEventListener('drop', (e) => {
      if (!dragIds || dropIndex == null) return;
      e.preventDefault();
      e.stopPropagation();
      this.dropLine.hidden = true;
      // The index among what remains once the moved photos are taken out.
      const moved = new Set(dragIds);
      let index = 0;
      for (let g = 0; g < dropIndex; g++) { const a = this.source.assetAt(g); if (a && !moved.has(a.id)) index++; }
      this.onMove?.(dragIds, index);
      dragIds = null;
    });
  }
}
