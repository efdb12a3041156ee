// RAWPanel: the editor's RAW development sliders, Core Image's CIRAWFilter — Exposure, Boost, Temperature,
// Tint, Noise Reduction and Recover Highlights — for photos whose edits develop a camera RAW file.
// Values are CIRAWFilter's parameters by Core Image key; a parameter at its default is left out, and the
// white balance stays the camera's ("as shot") until Temperature or Tint is moved.
import { h } from '../util.js';

const SLIDERS = [
  { key: 'inputEV', label: 'Exposure', min: -4, max: 4, step: 0.05, def: 0, format: (v) => `${v > 0 ? '+' : ''}${v.toFixed(2)} EV`, testid: 'raw-exposure' },
  { key: 'inputBoost', label: 'Boost', min: 0, max: 1, step: 0.01, def: 1, format: (v) => `${Math.round(v * 100)} %`, testid: 'raw-boost' },
  { key: 'inputNeutralTemperature', label: 'Temperature', min: 2000, max: 12000, step: 50, white: 'temperature', format: (v) => `${Math.round(v)} K`, testid: 'raw-temperature' },
  { key: 'inputNeutralTint', label: 'Tint', min: -150, max: 150, step: 1, white: 'tint', format: (v) => `${v > 0 ? '+' : ''}${Math.round(v)}`, testid: 'raw-tint' },
  { key: 'inputLuminanceNoiseReductionAmount', label: 'Noise Reduction', min: 0, max: 1, step: 0.01, def: 0, format: (v) => `${Math.round(v * 100)} %`, testid: 'raw-noise' },
];

/**
 * new RAWPanel({ asShot: {temperature, tint}, onChange(parameters) })
 * .el, .setParameters(parameters) (from a saved recipe), .parameters (current, defaults left out)
 */
export class RAWPanel {
  constructor({ asShot, onChange }) {
    this.asShot = { temperature: asShot?.temperature ?? 6500, tint: asShot?.tint ?? 0 };
    this.onChange = onChange;
    this.values = {};
    this.rows = new Map();
    const rows = SLIDERS.map((s) => this.sliderRow(s));
    const highlightId = 'raw-highlights-' + Math.random().toString(36).slice(2, 6);
    this.highlights = h('input', { id: highlightId, type: 'checkbox', 'data-testid': 'raw-highlights' });
    this.highlights.addEventListener('change', () => {
      if (this.highlights.checked) this.values.inputEnableHighlightRecovery = true;
      else delete this.values.inputEnableHighlightRecovery;
      this.changed();
    });
    const reset = h('button', { type: 'button', class: 'btn small ghost', 'data-testid': 'raw-reset', onclick: () => { this.values = {}; this.sync(); this.changed(); } }, 'Reset RAW');
    this.note = h('p', { class: 'raw-note', 'data-testid': 'raw-as-shot' });
    this.el = h('div', { class: 'panel-raw', hidden: true, role: 'group', aria: { label: 'RAW development' } },
      ...rows,
      h('div', { class: 'raw-footer' },
        h('label', { class: 'raw-check', for: highlightId }, this.highlights, 'Recover Highlights'), reset),
      this.note);
    this.sync();
  }

  sliderRow(s) {
    const id = 'raw-' + s.key + '-' + Math.random().toString(36).slice(2, 6);
    const input = h('input', { id, type: 'range', min: String(s.min), max: String(s.max), step: String(s.step), 'data-testid': s.testid });
    const out = h('output', { for: id, class: 'slider-value' });
    input.addEventListener('input', () => {
      const v = Number(input.value);
      if (s.white) {
        // Moving one of the white balance sliders names both, starting from the camera's values.
        this.values.inputNeutralTemperature ??= this.asShot.temperature;
        this.values.inputNeutralTint ??= this.asShot.tint;
        this.values[s.key] = v;
      } else if (Math.abs(v - s.def) < 1e-9) delete this.values[s.key];
      else this.values[s.key] = v;
      this.syncRow(s);
      this.changed();
    });
    // Double-click puts a slider back: to its default, or the white balance to the camera's.
    input.addEventListener('dblclick', () => {
      if (s.white) { delete this.values.inputNeutralTemperature; delete this.values.inputNeutralTint; this.sync(); }
      else { delete this.values[s.key]; this.syncRow(s); }
      this.changed();
    });
    this.rows.set(s.key, { s, input, out });
    return h('div', { class: 'slider-row' }, h('label', { for: id, class: 'slider-label' }, s.label), input, out);
  }

  value(s) {
    if (this.values[s.key] != null) return this.values[s.key];
    return s.white ? this.asShot[s.white] : s.def;
  }

  syncRow(s) {
    const row = this.rows.get(s.key);
    const v = this.value(s);
    row.input.value = String(v);
    row.out.textContent = s.format(v);
    row.input.setAttribute('aria-valuetext', s.format(v));
  }

  sync() {
    for (const { s } of this.rows.values()) this.syncRow(s);
    this.highlights.checked = !!this.values.inputEnableHighlightRecovery;
    const shot = `${Math.round(this.asShot.temperature)} K, tint ${Math.round(this.asShot.tint)}`;
    this.note.textContent = this.values.inputNeutralTemperature != null ? `As shot: ${shot}. Double-click Temperature or Tint to go back to it.` : `White balance as shot (${shot}).`;
  }

  changed() { this.sync(); this.onChange?.(this.parameters); }

  setParameters(parameters) {
    this.values = {};
    for (const [k, v] of Object.entries(parameters || {})) {
      if (k === 'inputEnableHighlightRecovery') { if (v === true || v === 1) this.values[k] = true; } else if (typeof v === 'number') this.values[k] = v;
    }
    this.sync();
  }

  get parameters() { return { ...this.values }; }
  get hasChanges() { return Object.keys(this.values).length > 0; }
}
