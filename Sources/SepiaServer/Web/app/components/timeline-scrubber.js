// TimelineScrubber: a thin vertical track beside the grid with the years marked; drag (or click) to jump,
// a bubble names the month under the pointer. It is a slider for assistive tech and the keyboard:
// arrows step a month, Page Up/Down a year, Home/End.
import { h, clamp } from '../util.js';

export class TimelineScrubber {
  constructor(grid) {
    this.grid = grid;
    this.el = h('div', {
      class: 'scrubber', role: 'slider', tabindex: '0', 'data-testid': 'timeline-scrubber',
      aria: { label: 'Timeline: jump to a month', orientation: 'vertical', valuemin: '0', valuemax: '0', valuenow: '0' },
    });
    this.track = h('div', { class: 'scrubber-track' });
    this.thumb = h('div', { class: 'scrubber-thumb' });
    this.bubble = h('div', { class: 'scrubber-bubble', 'aria-hidden': 'true' });
    this.el.append(this.track, this.thumb, this.bubble);
    this.el.addEventListener('pointerdown', (e) => this.down(e));
    this.el.addEventListener('pointermove', (e) => this.move(e));
    this.el.addEventListener('pointerup', (e) => this.up(e));
    this.el.addEventListener('pointercancel', (e) => this.up(e));
    this.el.addEventListener('pointerleave', () => { if (!this.dragging) this.el.classList.remove('hover'); });
    this.el.addEventListener('keydown', (e) => this.key(e));
    this.onScroll = () => this.syncThumb();
    grid.scroller.addEventListener('scroll', this.onScroll, { passive: true });
  }

  destroy() { this.grid.scroller.removeEventListener('scroll', this.onScroll); }

  /** Re-draws the year marks from the grid's layout. */
  update() {
    const L = this.grid.layoutData;
    const sections = this.grid.source.sections;
    for (const m of this.track.querySelectorAll('.scrubber-year')) m.remove();
    this.el.hidden = !L || sections.length < 2;
    if (this.el.hidden) return;
    this.el.setAttribute('aria-valuemax', String(sections.length - 1));
    const total = Math.max(1, L.total);
    let lastYear = null;
    let lastPos = -100;
    const height = this.el.clientHeight || 400;
    sections.forEach((s, si) => {
      if (s.year === lastYear) return;
      lastYear = s.year;
      const f = L.secs[si].top / total;
      const px = f * height;
      const mark = h('span', { class: 'scrubber-year' }, String(s.year ?? ''));
      mark.style.top = `${f * 100}%`;
      if (px - lastPos < 18) mark.classList.add('dot');
      else lastPos = px;
      this.track.append(mark);
    });
    this.syncThumb();
  }

  fractionAt(clientY) {
    const r = this.el.getBoundingClientRect();
    return clamp((clientY - r.top) / r.height, 0, 1);
  }

  sectionAtFraction(f) {
    const L = this.grid.layoutData;
    return this.grid.sectionAtY(f * (L?.total || 0));
  }

  down(e) {
    if (e.button !== 0 && e.pointerType === 'mouse') return;
    this.dragging = true;
    this.el.setPointerCapture(e.pointerId);
    this.el.classList.add('active');
    this.jump(e.clientY);
    e.preventDefault();
  }
  move(e) {
    this.el.classList.add('hover');
    const f = this.fractionAt(e.clientY);
    this.showBubble(f);
    if (this.dragging) this.jump(e.clientY);
  }
  up(e) {
    if (!this.dragging) return;
    this.dragging = false;
    try { this.el.releasePointerCapture(e.pointerId); } catch { /* already released */ }
    this.el.classList.remove('active');
    this.el.classList.remove('hover');
  }

  jump(clientY) {
    const f = this.fractionAt(clientY);
    const L = this.grid.layoutData;
    if (!L) return;
    // Land on the top of the month under the pointer, so its header shows.
    const si = this.sectionAtFraction(f);
    this.grid.scrollToSection(si);
    this.showBubble(f);
  }

  showBubble(f) {
    const si = this.sectionAtFraction(f);
    const s = this.grid.source.sections[si];
    this.bubble.textContent = s?.title || '';
    this.bubble.style.top = `${f * 100}%`;
  }

  syncThumb() {
    const sc = this.grid.scroller;
    const max = sc.scrollHeight - sc.clientHeight;
    const f = max > 0 ? sc.scrollTop / max : 0;
    this.thumb.style.top = `${f * 100}%`;
    const si = this.grid.topSection ?? 0;
    const s = this.grid.source.sections[si];
    this.el.setAttribute('aria-valuenow', String(si));
    this.el.setAttribute('aria-valuetext', s?.title || '');
  }

  key(e) {
    const sections = this.grid.source.sections;
    const si = this.grid.topSection ?? 0;
    let target = null;
    switch (e.key) {
      case 'ArrowDown': case 'ArrowRight': target = si + 1; break;
      case 'ArrowUp': case 'ArrowLeft': target = si - 1; break;
      case 'PageDown': { const y = sections[si]?.year; target = sections.findIndex((s, k) => k > si && s.year !== y); if (target < 0) target = sections.length - 1; break; }
      case 'PageUp': {
        const y = sections[si]?.year;
        const firstOfYear = sections.findIndex((s) => s.year === y);
        if (firstOfYear < si) target = firstOfYear;
        else { const py = sections[si - 1]?.year; target = py == null ? 0 : sections.findIndex((s) => s.year === py); }
        break;
      }
      case 'Home': target = 0; break;
      case 'End': target = sections.length - 1; break;
      default: return;
    }
    e.preventDefault();
    target = clamp(target, 0, sections.length - 1);
    this.grid.scrollToSection(target);
    this.grid.topSection = target;
    this.syncThumb();
    const L = this.grid.layoutData;
    if (L) this.showBubble(L.secs[target].top / Math.max(1, L.total));
    this.el.classList.add('hover');
    clearTimeout(this.hideTimer);
    this.hideTimer = setTimeout(() => this.el.classList.remove('hover'), 1200);
  }
}
