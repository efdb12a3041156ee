// AdjustPanel: the editor's Adjust mode, Photos' layout — Light, Color, Black & White and Detail, a slider
// for each adjustment (GET /api/v1/filters/adjustments: −1…1, or 0…1 for those that go one way), Auto, and
// a live histogram of the preview, and Save as Preset (the editor keeps the look and these adjustments as
// one of the user's presets). Positions are by slider id; a slider at 0 is left out.
import { h } from '../util.js';
import { icon } from '../icons.js';

/** "+0.30", "−0.25", "0.00". */
export function formatPosition(v) {
  const r = Math.round(v * 100) / 100;
  if (r === 0) return '0.00';
  return `${r > 0 ? '+' : '−'}${Math.abs(r).toFixed(2)}`;
}

/**
 * new AdjustPanel({ panel, onInput(id, position), onCommit(), onAuto(), onReset(), onSavePreset() })
 * .el, .setValues(adjust), .setAutoBusy(busy), .drawHistogram(img or ImageBitmap), .drawHistogramOfPixels(rgba)
 * onInput is called while a slider moves; onCommit(id, {amend}) once a change is done (a release, a key, a
 * double-click's reset, which amends the step its two clicks made).
 */
export class AdjustPanel {
  constructor({ panel, onInput, onCommit, onAuto, onReset, onSavePreset }) {
    this.onInput = onInput;
    this.onCommit = onCommit;
    this.values = {};
    this.rows = new Map();
    const suffix = Math.random().toString(36).slice(2, 6);

    this.autoBtn = h('button', { type: 'button', class: 'btn small', 'data-testid': 'adjust-auto', title: 'Auto: set the sliders from the photo\u2019s histogram', onclick: () => onAuto?.() }, icon('wand'), 'Auto');
    this.resetBtn = h('button', { type: 'button', class: 'btn small ghost', 'data-testid': 'adjust-reset', disabled: true, onclick: () => onReset?.() }, 'Reset');
    this.savePresetBtn = onSavePreset
      ? h('button', { type: 'button', class: 'btn small ghost', 'data-testid': 'adjust-save-preset', title: 'Save the look and these adjustments as a preset', onclick: () => onSavePreset() }, icon('preset'), 'Save as Preset')
      : null;
    this.canvas = h('canvas', { class: 'histogram', width: '256', height: '64', 'data-testid': 'histogram', role: 'img', aria: { label: 'Histogram of the preview' } });

    const sections = (panel?.sections || []).map((section) => {
      const headingId = `adjust-section-${section.id}-${suffix}`;
      return h('section', { class: 'adjust-section', 'data-section': section.id, aria: { labelledby: headingId } },
        h('h3', { class: 'adjust-heading', id: headingId }, section.title),
        ...(section.adjustments || []).map((s) => this.sliderRow(s, section, suffix)));
    });
    this.el = h('div', { class: 'panel-adjust', hidden: true, 'data-testid': 'adjust-panel', role: 'group', aria: { label: 'Adjust' } },
      h('div', { class: 'adjust-top' }, this.canvas, h('div', { class: 'adjust-buttons' }, this.autoBtn, this.resetBtn, this.savePresetBtn)),
      ...sections,
      h('p', { class: 'adjust-hint hint' }, 'Double-click a slider to reset it. Hold \\ or press and hold the photo to see the original.'));
  }

  sliderRow(s, section, suffix) {
    const id = `adjust-${s.id}-${suffix}`;
    // Black & White's "Intensity" says which one it is to screen readers.
    const label = section.id === 'blackAndWhite' && s.id === 'blackAndWhite' ? 'Intensity' : s.name;
    const input = h('input', {
      id, type: 'range', min: String(s.minimum ?? -1), max: '1', step: '0.01', value: '0',
      'data-testid': `adjust-${s.id}`, 'data-adjust': s.id,
      aria: { label: section.id === 'blackAndWhite' && s.id === 'blackAndWhite' ? 'Black & White Intensity' : undefined },
    });
    const out = h('output', { for: id, class: 'slider-value', 'data-testid': `adjust-${s.id}-value` });
    input.addEventListener('input', () => {
      const v = Number(input.value);
      this.set(s.id, v);
      this.syncRow(s.id);
      this.onInput?.(s.id, v);
    });
    input.addEventListener('change', () => this.onCommit?.(s.id));
    input.addEventListener('dblclick', () => {
      this.set(s.id, 0);
      this.syncRow(s.id);
      this.onInput?.(s.id, 0);
      this.onCommit?.(s.id, { amend: true });
    });
    this.rows.set(s.id, { s, input, out });
    this.syncRowOf(input, out, 0);
    const row = h('div', { class: 'slider-row adjust-row' }, h('label', { for: id, class: 'slider-label' }, label), input, out);
    return row;
  }

  set(id, v) {
    if (Math.abs(v) < 1e-9) delete this.values[id]; else this.values[id] = v;
    this.resetBtn.disabled = Object.keys(this.values).length === 0;
  }

  syncRowOf(input, out, v) {
    input.value = String(v);
    const text = formatPosition(v);
    out.textContent = text;
    input.setAttribute('aria-valuetext', text);
    input.closest?.('.adjust-row')?.classList.toggle('moved', v !== 0);
  }

  syncRow(id) {
    const row = this.rows.get(id);
    if (row) this.syncRowOf(row.input, row.out, this.values[id] ?? 0);
  }

  /** Shows positions (from a saved recipe, Auto, undo). */
  setValues(adjust) {
    this.values = {};
    for (const [id, v] of Object.entries(adjust || {})) if (this.rows.has(id) && typeof v === 'number' && v !== 0) this.values[id] = v;
    for (const id of this.rows.keys()) this.syncRow(id);
    this.resetBtn.disabled = Object.keys(this.values).length === 0;
  }

  setAutoBusy(busy) {
    this.autoBtn.disabled = busy;
    this.autoBtn.setAttribute('aria-busy', String(busy));
  }

  /** Draws the RGB histogram of an image or an ImageBitmap (same-origin, so its pixels can be read), with luma on top. */
  drawHistogram(img) {
    const data = histogramPixels(img);
    if (data) this.drawHistogramOfPixels(data);
  }

  /** Draws the histogram of RGBA pixels (as getImageData gives them). */
  drawHistogramOfPixels(data) {
    const bins = [new Uint32Array(256), new Uint32Array(256), new Uint32Array(256), new Uint32Array(256)];
    let sum = 0;
    for (let i = 0; i < data.length; i += 4) {
      const r = data[i], gr = data[i + 1], b = data[i + 2];
      const y = Math.round(0.2126 * r + 0.7152 * gr + 0.0722 * b);
      bins[0][r]++; bins[1][gr]++; bins[2][b]++; bins[3][y]++;
      sum += y;
    }
    const n = data.length / 4;
    this.canvas.dataset.mean = (sum / n).toFixed(1);
    this.canvas.setAttribute('aria-label', `Histogram of the preview: mean brightness ${Math.round(sum / n / 2.55)} %`);
    const c = this.canvas.getContext('2d');
    const W = this.canvas.width, H = this.canvas.height;
    c.clearRect(0, 0, W, H);
    // The scale ignores the two ends, where clipped pixels pile up.
    let max = 1;
    for (const bin of bins) for (let x = 1; x < 255; x++) max = Math.max(max, bin[x]);
    const path = (bin) => {
      c.beginPath();
      c.moveTo(0, H);
      for (let x = 0; x < 256; x++) c.lineTo(x * W / 255, H - Math.min(1, bin[x] / max) * (H - 1));
      c.lineTo(W, H);
      c.closePath();
    };
    c.globalCompositeOperation = 'lighter';
    ['rgba(255,60,60,.55)', 'rgba(60,220,60,.55)', 'rgba(70,110,255,.6)'].forEach((colour, k) => { c.fillStyle = colour; path(bins[k]); c.fill(); });
    c.globalCompositeOperation = 'source-over';
    c.strokeStyle = 'rgba(255,255,255,.85)';
    c.lineWidth = 1;
    path(bins[3]);
    c.stroke();
  }
}

/** An image's pixels at most 256 wide or high, RGBA (what the histogram is counted from); null if unreadable. */
export function histogramPixels(img) {
  const iw = img?.naturalWidth ?? img?.width;
  const ih = img?.naturalHeight ?? img?.height;
  if (!iw) return null;
  const scale = Math.min(1, 256 / Math.max(iw, ih));
  const w = Math.max(1, Math.round(iw * scale));
  const hh = Math.max(1, Math.round(ih * scale));
  const work = document.createElement('canvas');
  work.width = w; work.height = hh;
  const g = work.getContext('2d', { willReadFrequently: true });
  try {
    g.drawImage(img, 0, 0, w, hh);
    return g.getImageData(0, 0, w, hh).data;
  } catch { return null; }
}
