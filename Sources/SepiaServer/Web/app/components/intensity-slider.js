// IntensitySlider: Instafilter's single "Intensity" slider (0…1, default 0.5), and LatestRequest, the
// scheduler behind live previews: at most one request in flight; while it runs, newer values replace
// each other, and when it ends exactly one request goes out for the latest value. A request ends when its
// result is shown (onResult's promise settles): a preview the browser is still decoding when the next
// one arrives would be thrown away unseen, and rendering it took the CPU the next one needed.
import { h } from '../util.js';

export class LatestRequest {
  /** run(value) → Promise; onResult(result, value) → optional Promise (settled once shown); onError(error, value). */
  constructor(run, { onResult, onError, onBusy } = {}) {
    this.run = run;
    this.onResult = onResult;
    this.onError = onError;
    this.onBusy = onBusy;
    this.inFlight = false;
    this.hasPending = false;
    this.pending = undefined;
    this.sent = 0; // for tests and diagnostics
    this.stopped = false;
  }

  request(value) {
    if (this.stopped) return;
    if (this.inFlight) { this.pending = value; this.hasPending = true; return; }
    this.start(value);
  }

  async start(value) {
    this.inFlight = true;
    this.sent++;
    this.onBusy?.(true);
    this.controller = new AbortController();
    try {
      const result = await this.run(value, this.controller.signal);
      if (!this.stopped) await this.onResult?.(result, value, this.hasPending);
    } catch (e) {
      if (!this.stopped && e?.name !== 'AbortError') this.onError?.(e, value);
    } finally {
      this.inFlight = false;
      if (this.hasPending && !this.stopped) {
        const next = this.pending;
        this.hasPending = false;
        this.pending = undefined;
        this.start(next);
      } else this.onBusy?.(false);
    }
  }

  /** Stops for good (the editor closed): the request in flight is abandoned. */
  stop() { this.stopped = true; this.hasPending = false; this.controller?.abort(); }
}

/**
 * intensitySlider({value, onInput(t), onChange(t)}) → {el, input, setValue(t), setEnabled(bool, why)}
 */
export function intensitySlider({ value = 0.5, onInput, onChange, label = 'Intensity', testid = 'intensity' }) {
  const id = 'slider-' + Math.random().toString(36).slice(2, 7);
  const noteId = id + '-note';
  const input = h('input', {
    id, type: 'range', min: '0', max: '1', step: '0.01', value: String(value),
    'data-testid': testid, aria: { describedby: noteId },
  });
  const out = h('output', { for: id, class: 'slider-value' }, pct(value));
  const note = h('p', { id: noteId, class: 'slider-note hint', 'data-testid': testid + '-note' });
  const el = h('div', { class: 'slider-row' },
    h('label', { for: id, class: 'slider-label' }, label), input, out, note);
  const sync = () => {
    // A filter without an intensity shows no number: "100%" would promise a setting that does nothing.
    const text = input.disabled ? '–' : pct(Number(input.value));
    out.textContent = text;
    input.setAttribute('aria-valuetext', input.disabled ? 'not adjustable' : text);
  };
  input.addEventListener('input', () => { sync(); onInput?.(Number(input.value)); });
  input.addEventListener('change', () => onChange?.(Number(input.value)));
  sync();
  return {
    el, input,
    setValue(t) { input.value = String(t); sync(); },
    setEnabled(enabled, why = '') {
      input.disabled = !enabled;
      el.classList.toggle('disabled', !enabled);
      note.textContent = enabled ? '' : why;
      note.hidden = enabled;
      sync();
    },
  };
}

function pct(t) { return `${Math.round(t * 100)}%`; }
