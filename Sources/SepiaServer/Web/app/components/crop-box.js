// CropBox: a crop rectangle over a displayed image, in the image's own pixels. Drag the inside to move
// it, corners and edges to resize; optional square aspect. Keyboard: arrows move it, Shift+arrows resize.
import { h, clamp } from '../util.js';

const HANDLES = ['nw', 'n', 'ne', 'e', 'se', 's', 'sw', 'w'];

export class CropBox {
  /**
   * @param {object} o {imageW, imageH, crop: {x,y,w,h}|null, square: bool, onChange(crop), testid}
   */
  constructor(o) {
    this.W = o.imageW;
    this.H = o.imageH;
    this.square = !!o.square;
    this.onChange = o.onChange;
    this.crop = o.crop ? { ...o.crop } : { x: 0, y: 0, w: this.W, h: this.H };
    this.display = { left: 0, top: 0, width: 1, height: 1 };
    this.box = h('div', {
      class: 'crop-box', tabindex: '0', role: 'group', 'data-testid': o.testid || 'crop-box',
      aria: { label: 'Crop area. Drag to move, drag corners or edges to resize; arrow keys move it, Shift and arrow keys resize it.' },
    },
    h('span', { class: 'crop-grid', 'aria-hidden': 'true' }),
    HANDLES.map((k) => h('span', { class: `crop-handle h-${k}`, 'data-handle': k, 'aria-hidden': 'true' })));
    this.shade = h('div', { class: 'crop-shade', 'aria-hidden': 'true' });
    this.el = h('div', { class: 'crop-layer' }, h('div', { class: 'crop-clip' }, this.shade), this.box);
    this.box.addEventListener('pointerdown', (e) => this.down(e));
    this.box.addEventListener('pointermove', (e) => this.move(e));
    this.box.addEventListener('pointerup', (e) => this.up(e));
    this.box.addEventListener('pointercancel', (e) => this.up(e));
    this.box.addEventListener('keydown', (e) => this.key(e));
    if (this.square) this.setSquare(true);
  }

  /** Where the image is drawn, in the layer's coordinates (CSS pixels). */
  setDisplay(rect) { this.display = rect; this.render(); }

  setImageSize(W, H, crop) {
    this.W = W; this.H = H;
    this.crop = crop ? { ...crop } : { x: 0, y: 0, w: W, h: H };
    if (this.square) this.setSquare(true, false);
    this.render();
  }

  get scale() { return this.display.width / this.W; }

  setSquare(on, notify = true) {
    this.square = on;
    if (on) {
      const c = this.crop;
      const s = Math.min(c.w, c.h, this.W, this.H);
      const cx = c.x + c.w / 2;
      const cy = c.y + c.h / 2;
      this.crop = { x: clamp(cx - s / 2, 0, this.W - s), y: clamp(cy - s / 2, 0, this.H - s), w: s, h: s };
    }
    this.render();
    if (notify) this.emit();
  }

  reset() { this.crop = { x: 0, y: 0, w: this.W, h: this.H }; if (this.square) this.setSquare(true, false); this.render(); this.emit(); }

  render() {
    const s = this.scale;
    const d = this.display;
    const c = this.crop;
    // The layer covers the drawn image only, so the dimming outside the box stops at its edges.
    Object.assign(this.el.style, { left: `${d.left}px`, top: `${d.top}px`, width: `${d.width}px`, height: `${d.height}px` });
    this.box.style.left = `${c.x * s}px`;
    this.box.style.top = `${c.y * s}px`;
    this.box.style.width = `${c.w * s}px`;
    this.box.style.height = `${c.h * s}px`;
    Object.assign(this.shade.style, { left: this.box.style.left, top: this.box.style.top, width: this.box.style.width, height: this.box.style.height });
    this.box.setAttribute('aria-label', `Crop area, ${Math.round(c.w)} × ${Math.round(c.h)} pixels. Drag to move, drag corners or edges to resize; arrow keys move it, Shift and arrow keys resize it.`);
  }

  /** The crop, or null when it is the whole image. */
  value() {
    const c = this.crop;
    const r = { x: Math.round(c.x), y: Math.round(c.y), w: Math.round(c.w), h: Math.round(c.h) };
    if (r.x <= 0 && r.y <= 0 && r.w >= this.W && r.h >= this.H) return null;
    return r;
  }

  emit() { this.onChange?.(this.value()); }

  down(e) {
    if (e.button !== 0 && e.pointerType === 'mouse') return;
    const handle = e.target.dataset.handle || 'move';
    this.drag = { handle, x: e.clientX, y: e.clientY, start: { ...this.crop }, id: e.pointerId };
    this.box.setPointerCapture(e.pointerId);
    this.box.classList.add('dragging');
    e.preventDefault();
  }

  move(e) {
    const d = this.drag;
    if (!d || e.pointerId !== d.id) return;
    const k = 1 / this.scale;
    const dx = (e.clientX - d.x) * k;
    const dy = (e.clientY - d.y) * k;
    this.crop = this.apply(d.handle, d.start, dx, dy);
    this.render();
    this.emit();
  }

  up(e) {
    if (!this.drag || e.pointerId !== this.drag.id) return;
    this.drag = null;
    this.box.classList.remove('dragging');
  }

  apply(handle, s, dx, dy) {
    const W = this.W; const H = this.H;
    const min = Math.max(16, 40 / this.scale);
    if (handle === 'move') {
      return { x: clamp(s.x + dx, 0, W - s.w), y: clamp(s.y + dy, 0, H - s.h), w: s.w, h: s.h };
    }
    let x0 = s.x; let y0 = s.y; let x1 = s.x + s.w; let y1 = s.y + s.h;
    if (handle.includes('w')) x0 = clamp(s.x + dx, 0, x1 - min);
    if (handle.includes('e')) x1 = clamp(s.x + s.w + dx, x0 + min, W);
    if (handle.includes('n')) y0 = clamp(s.y + dy, 0, y1 - min);
    if (handle.includes('s')) y1 = clamp(s.y + s.h + dy, y0 + min, H);
    if (!this.square) return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
    // Square: the side follows the dragged edge; the opposite corner (or the centre line) stays.
    let side;
    if (handle.length === 2) side = Math.max(x1 - x0, y1 - y0);
    else side = handle === 'n' || handle === 's' ? y1 - y0 : x1 - x0;
    const ax = handle.includes('w') ? s.x + s.w : handle.includes('e') ? s.x : s.x + s.w / 2;
    const ay = handle.includes('n') ? s.y + s.h : handle.includes('s') ? s.y : s.y + s.h / 2;
    // Largest side that fits from the anchor in the drag's direction.
    const room = (anchor, dirNeg, dirPos, extent) => (dirNeg ? anchor : dirPos ? extent - anchor : 2 * Math.min(anchor, extent - anchor));
    const maxX = room(ax, handle.includes('w'), handle.includes('e'), W);
    const maxY = room(ay, handle.includes('n'), handle.includes('s'), H);
    side = clamp(side, min, Math.min(maxX, maxY));
    const nx = handle.includes('w') ? ax - side : handle.includes('e') ? ax : ax - side / 2;
    const ny = handle.includes('n') ? ay - side : handle.includes('s') ? ay : ay - side / 2;
    return { x: nx, y: ny, w: side, h: side };
  }

  key(e) {
    const step = (e.altKey ? 0.002 : 0.01) * Math.max(this.W, this.H);
    const map = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    const m = map[e.key];
    if (!m) return;
    e.preventDefault();
    e.stopPropagation();
    this.crop = this.apply(e.shiftKey ? 'se' : 'move', { ...this.crop }, m[0], m[1]);
    this.render();
    this.emit();
  }
}
