// DragPreview: what the editor paints while a hand drags one of its sliders. A round trip per input (the
// server renders and encodes, the browser decodes and paints) cannot keep up with a hand on a small
// machine, so at the press the editor starts fetching exact renders of the photo at fixed positions of
// that slider (keyframes, every KEYFRAME_STEP: the two around the thumb first, then those ahead of the
// motion) and paints each input at once as the blend of the two keyframes around it, weighted by where the
// thumb sits between them: the interpolation a colour cube does between its lattice points, done here
// between whole renders. The exact render of the value follows when the hand pauses or lets go (the
// editor asks for it). Keyframes are kept after the release for the next drag of the same slider, as
// long as nothing else in the edit changed.

/** Slider units between two keyframes (the sliders run over −1…1 or 0…1). */
export const KEYFRAME_STEP = 0.1;
/** Keyframes fetched ahead of and behind the thumb, in steps. */
export const KEYFRAME_REACH = 3;

const EPSILON = 1e-6;
const round = (v) => Number(v.toFixed(6)) + 0; // 0.3, not 0.30000000000000004; 0, not −0

/** The keyframe positions of a slider: multiples of `step` in min…max, and both ends. */
export function keyframePositions(min, max, step = KEYFRAME_STEP) {
  const out = [];
  for (let k = Math.ceil(min / step - EPSILON); k * step <= max + EPSILON; k++) out.push(round(k * step));
  if (!out.length || out[0] > min + EPSILON) out.unshift(round(min));
  if (out[out.length - 1] < max - EPSILON) out.push(round(max));
  return out;
}

/**
 * The frames to blend for position `v`: {a, b, t} with the result a·(1 − t) + b·t; a frame at `v` itself
 * is returned alone (t = 0). `frames` are {value} sorted by value; null when no two frames within `gap`
 * of each other surround `v` (a wider gap would show a blend too far from the render).
 */
export function bracket(frames, v, gap = KEYFRAME_STEP) {
  let below = null;
  let above = null;
  for (const f of frames) {
    if (Math.abs(f.value - v) <= EPSILON) return { a: f, b: f, t: 0 };
    if (f.value < v) below = f;
    else if (!above) above = f;
  }
  if (!below || !above || above.value - below.value > gap + EPSILON) return null;
  return { a: below, b: above, t: (v - below.value) / (above.value - below.value) };
}

/**
 * Keyframe positions to have, most urgent first: the two around `v` (or the one at it), then alternately
 * ahead of the motion (`direction` +1 or −1) and behind it, out to `reach` steps each way.
 */
export function fetchOrder(positions, v, direction = 1, reach = KEYFRAME_REACH) {
  let hi = positions.findIndex((p) => p >= v - EPSILON);
  if (hi < 0) hi = positions.length - 1;
  const on = Math.abs(positions[hi] - v) <= EPSILON;
  const lo = on ? hi : Math.max(0, hi - 1);
  const order = on ? [hi] : [direction < 0 ? lo : hi, direction < 0 ? hi : lo];
  for (let k = 1; k <= reach; k++) {
    order.push(direction < 0 ? lo - k : hi + k);
    order.push(direction < 0 ? hi + k : lo - k);
  }
  return [...new Set(order.filter((i) => i >= 0 && i < positions.length))].map((i) => positions[i]);
}

/**
 * new DragPreview({ canvas, budget, onFallback(value), onPaint({a, b, t}), onWaiting(waiting) })
 * .begin({ identity, min, max, value, frameAt(value, signal) → Promise<Blob>, current })
 *   a press on a slider; `identity` names everything but the slider's value (the rest of the edit and the
 *   preview's size): keyframes of another identity are dropped. `current` (an image or bitmap of the exact
 *   render at `value`, or null) is kept as a frame.
 * .show(value) → 'painted' | 'pending' (painted once its keyframe arrives) | 'unavailable' (no keyframes:
 *   the caller renders the value itself; onFallback(value) says so for a value that was pending)
 * .end() the release; .clear() drops every frame; .paints counts the blends painted; .waiting is true while
 *   a value waits for its keyframes (onWaiting is told each change).
 */
export class DragPreview {
  constructor({ canvas, budget = 48 * 1024 * 1024, onFallback, onPaint, onWaiting }) {
    this.canvas = canvas;
    this.onWaiting = onWaiting;
    this.waiting = false;
    this.onFallback = onFallback;
    this.onPaint = onPaint;
    this.budget = budget;
    this.frames = []; // {value, bitmap, bytes}, sorted by value
    this.failed = new Set();
    this.identity = null;
    this.session = null;
    this.loading = null;
    this.paints = 0;
    this.keyframesFetched = 0; // for diagnostics and tests
  }

  get active() { return !!this.session; }

  /** The value waiting for its keyframes (null for none). */
  wait(value) {
    if (this.session) this.session.wanted = value;
    const waiting = value != null && !!this.session;
    if (waiting !== this.waiting) { this.waiting = waiting; this.onWaiting?.(waiting); }
  }

  begin({ identity, min, max, value, frameAt, current = null }) {
    if (identity !== this.identity) this.clear();
    this.identity = identity;
    this.failed.clear(); // a new press tries again
    this.session = { positions: keyframePositions(min, max), frameAt, value, direction: 1, wanted: null };
    if (current && !this.frames.some((f) => Math.abs(f.value - value) <= EPSILON)) {
      const session = this.session;
      createImageBitmap(current).then((bitmap) => {
        if (this.identity === identity) this.add(value, bitmap); else bitmap.close();
        if (this.session === session) this.retry();
      }).catch(() => {});
    }
    this.pump();
  }

  show(value) {
    const s = this.session;
    if (!s) return 'unavailable';
    if (value !== s.value) s.direction = value > s.value ? 1 : -1;
    s.value = value;
    const pair = bracket(this.frames, value);
    if (pair) {
      this.wait(null);
      this.paint(pair);
      this.pump();
      return 'painted';
    }
    const onKeyframe = s.positions.some((p) => Math.abs(p - value) <= EPSILON);
    const needed = fetchOrder(s.positions, value, s.direction).slice(0, onKeyframe ? 1 : 2);
    if (needed.some((p) => this.failed.has(p))) return 'unavailable';
    this.wait(value);
    this.pump();
    return 'pending';
  }

  /** The release: the keyframe in flight is still kept, for the next drag. */
  end() { this.wait(null); this.session = null; }

  clear() {
    this.end();
    this.loading?.abort();
    this.loading = null;
    for (const f of this.frames) f.bitmap.close?.();
    this.frames = [];
    this.failed.clear();
    this.identity = null;
  }

  paint({ a, b, t }) {
    const c = this.canvas;
    if (c.width !== a.bitmap.width || c.height !== a.bitmap.height) { c.width = a.bitmap.width; c.height = a.bitmap.height; this.ctx = null; }
    const g = this.ctx ??= c.getContext('2d', { alpha: false });
    g.globalAlpha = 1;
    g.drawImage(a.bitmap, 0, 0, c.width, c.height);
    if (b !== a && t > 0) {
      g.globalAlpha = t;
      g.drawImage(b.bitmap, 0, 0, c.width, c.height);
    }
    c.hidden = false;
    this.paints++;
    this.onPaint?.({ a, b, t });
  }

  add(value, bitmap) {
    const bytes = bitmap.width * bitmap.height * 4;
    this.frames = this.frames.filter((f) => Math.abs(f.value - value) > EPSILON || (f.bitmap.close?.(), false));
    this.frames.push({ value, bitmap, bytes });
    this.frames.sort((x, y) => x.value - y.value);
    // Over the budget: the frames farthest from the thumb go first.
    const at = this.session?.value ?? value;
    let total = this.frames.reduce((n, f) => n + f.bytes, 0);
    while (total > this.budget && this.frames.length > 2) {
      const far = this.frames.reduce((x, y) => (Math.abs(y.value - at) > Math.abs(x.value - at) ? y : x));
      far.bitmap.close?.();
      this.frames = this.frames.filter((f) => f !== far);
      total -= far.bytes;
    }
  }

  /** Fetches the most urgent keyframe that is missing, one at a time. */
  pump() {
    const s = this.session;
    if (!s || this.loading) return;
    const have = (p) => this.frames.some((f) => Math.abs(f.value - p) <= EPSILON);
    const frameBytes = this.frames[0]?.bytes ?? 0;
    const room = frameBytes ? Math.max(2, Math.floor(this.budget / frameBytes)) : Infinity;
    const order = fetchOrder(s.positions, s.value, s.direction).slice(0, room);
    const next = order.find((p) => !have(p) && !this.failed.has(p));
    if (next == null) return;
    const controller = new AbortController();
    this.loading = controller;
    const identity = this.identity;
    s.frameAt(next, controller.signal)
      .then((blob) => createImageBitmap(blob))
      .then((bitmap) => {
        this.keyframesFetched++;
        if (this.identity !== identity) { bitmap.close(); return; }
        this.add(next, bitmap);
      })
      .catch((e) => { if (e?.name !== 'AbortError' && this.identity === identity) this.failed.add(next); })
      .finally(() => {
        if (this.loading === controller) this.loading = null;
        if (this.session === s) this.retry(); else this.pump();
      });
  }

  /** Once a frame arrives or fails: paints the value that was waiting for it, or hands it back. */
  retry() {
    const s = this.session;
    if (s?.wanted == null) { this.pump(); return; }
    const value = s.wanted;
    if (this.show(value) === 'unavailable') { this.wait(null); this.onFallback?.(value); }
  }
}
