// Small helpers shared by every module: element building (no innerHTML with data), formatting,
// an event bus, downloads.

/**
 * h('button', {class: 'btn', onclick: fn, 'data-testid': 'x', aria: {label: 'Close'}}, 'Text', child…)
 * Attributes: `class`, `text`, `on<event>` (listener), `dataset`, `aria`, boolean `true` → empty attribute,
 * `false`/null/undefined → omitted. `style` is not allowed (CSP); set element.style from code instead.
 */
export function h(tag, attrs, ...children) {
  const el = tag.includes(':') || tag === 'svg'
    ? document.createElementNS('http://www.w3.org/2000/svg', tag.replace(/^svg:/, ''))
    : document.createElement(tag);
  if (attrs) {
    for (const [key, value] of Object.entries(attrs)) {
      if (value === undefined || value === null || value === false) continue;
      if (key === 'class') el.className = Array.isArray(value) ? value.filter(Boolean).join(' ') : value;
      else if (key === 'text') el.textContent = value;
      else if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
      else if (key === 'dataset') Object.assign(el.dataset, value);
      else if (key === 'aria') for (const [k, v] of Object.entries(value)) { if (v != null && v !== false) el.setAttribute('aria-' + k, String(v)); }
      else if (key === 'props') Object.assign(el, value);
      else el.setAttribute(key, value === true ? '' : String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function clear(el) { while (el.firstChild) el.removeChild(el.firstChild); return el; }

/** A tiny event bus: bus.on('x', fn) → off(); bus.emit('x', data). */
export function createBus() {
  const map = new Map();
  return {
    on(name, fn) {
      if (!map.has(name)) map.set(name, new Set());
      map.get(name).add(fn);
      return () => map.get(name)?.delete(fn);
    },
    emit(name, data) { for (const fn of [...(map.get(name) || [])]) { try { fn(data); } catch (e) { console.error(e); } } },
  };
}

export const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));

export function debounce(fn, ms) {
  let t = null;
  const d = (...args) => { clearTimeout(t); t = setTimeout(() => fn(...args), ms); };
  d.cancel = () => clearTimeout(t);
  return d;
}

/** Runs fn at most once per animation frame. */
export function rafThrottle(fn) {
  let scheduled = false;
  let lastArgs = null;
  return (...args) => {
    lastArgs = args;
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(() => { scheduled = false; fn(...lastArgs); });
  };
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
export const monthName = (m) => MONTHS[m - 1] || '';

/**
 * A capture date as it read where the photo was taken: the UTC date shifted by the offset
 * (seconds east of UTC) when known, else in the browser's zone.
 */
export function formatDate(iso, offsetSeconds, { withTime = true, weekday = false } = {}) {
  if (!iso) return 'Unknown date';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return 'Unknown date';
  const options = { year: 'numeric', month: 'long', day: 'numeric' };
  if (weekday) options.weekday = 'long';
  if (withTime) { options.hour = 'numeric'; options.minute = '2-digit'; }
  if (offsetSeconds != null && Number.isFinite(offsetSeconds)) {
    const shifted = new Date(d.getTime() + offsetSeconds * 1000);
    return new Intl.DateTimeFormat(undefined, { ...options, timeZone: 'UTC' }).format(shifted);
  }
  return new Intl.DateTimeFormat(undefined, options).format(d);
}

/** "UTC+02:00" for an offset in seconds east of UTC. */
export function formatOffset(offsetSeconds) {
  if (offsetSeconds == null || !Number.isFinite(offsetSeconds)) return '';
  const sign = offsetSeconds < 0 ? '−' : '+';
  const abs = Math.abs(offsetSeconds);
  const hh = String(Math.floor(abs / 3600)).padStart(2, '0');
  const mm = String(Math.floor((abs % 3600) / 60)).padStart(2, '0');
  return `UTC${sign}${hh}:${mm}`;
}

export function formatShortDate(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' }).format(d);
}

export function formatBytes(n) {
  if (n == null || !Number.isFinite(n)) return '';
  if (n < 1024) return `${n} bytes`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) { v /= 1024; i++; }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}

export function plural(n, one, many = one + 's') {
  return `${n.toLocaleString()} ${n === 1 ? one : many}`;
}

/** The days an item has left in Recently Deleted, as Photos says them: "30 days", "1 day", "under a day". */
export function daysLeftText(days) {
  return days >= 1 ? plural(days, 'day') : 'under a day';
}

/** Whether an item of Recently Deleted is in its last days, which are said in red (the grid's badge, the photo's title). */
export const inLastDays = (days) => days <= 3;

/**
 * Counted nouns in each plural form of the language (the categories of Intl.PluralRules: English has "one" and
 * "other"; a language with more, "few" and "many", lists them too). The app speaks English.
 */
const LANGUAGE = 'en';
const COUNTED = {
  photo: { one: '# photo', other: '# photos' },
  video: { one: '# video', other: '# videos' },
};
const pluralRules = new Intl.PluralRules(LANGUAGE);
const countList = new Intl.ListFormat(LANGUAGE, { type: 'unit', style: 'short' });

/** "1 photo", "12 photos": a count with its noun in the form the count takes. */
export function counted(n, noun) {
  const forms = COUNTED[noun];
  return (forms[pluralRules.select(n)] ?? forms.other).replace('#', n.toLocaleString());
}

/**
 * What a view holds, as Photos counts a mix — the top bar and the month headers alike (`sepia check` says it the
 * same way, MediaCount): "12 photos, 16 videos", "1 video", "0 photos".
 */
export function photosAndVideos(photos, videos) {
  return countList.format([photos || !videos ? counted(photos, 'photo') : null, videos ? counted(videos, 'video') : null].filter(Boolean));
}

/** A video's length as the Photos app writes it: 0:02, 1:05, 1:02:03. */
export function formatDuration(seconds) {
  if (seconds == null || !Number.isFinite(seconds) || seconds < 0) return '';
  const t = Math.round(seconds);
  const hh = Math.floor(t / 3600);
  const mm = Math.floor((t % 3600) / 60);
  const ss = String(t % 60).padStart(2, '0');
  return hh ? `${hh}:${String(mm).padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}

// What an item is, and its labels and badges: media-kind.js, re-exported for the modules that import them here.
export { mediaKind, isVideo, isLivePhoto, isRAWPair, rawBadge, kindOf } from './media-kind.js';

export function formatCoordinate(value, pos, neg) {
  if (value == null || !Number.isFinite(value)) return '';
  return `${Math.abs(value).toFixed(5)}° ${value >= 0 ? pos : neg}`;
}

/** A place as it is said: "Munich, Bavaria, Germany"; a region named as its city is said once ("Lisbon, Portugal"). */
export function placeName(place) {
  if (!place) return '';
  const region = place.region && place.region !== place.city ? place.region : null;
  return [place.city, region, place.country].filter(Boolean).join(', ');
}

export function formatExposure(seconds) {
  if (!seconds || !Number.isFinite(seconds)) return '';
  if (seconds >= 1) return `${seconds.toFixed(seconds < 10 ? 1 : 0)} s`;
  return `1/${Math.round(1 / seconds)} s`;
}

/** Starts a download of a URL (same origin; the server names the file) or of a Blob. */
export function download(urlOrBlob, filename) {
  const isBlob = urlOrBlob instanceof Blob;
  const href = isBlob ? URL.createObjectURL(urlOrBlob) : urlOrBlob;
  const a = h('a', { href, download: filename || '', class: 'visually-hidden', tabindex: '-1' });
  document.body.append(a);
  a.click();
  a.remove();
  if (isBlob) setTimeout(() => URL.revokeObjectURL(href), 60_000);
}

/** Copies text; resolves true when it worked. */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const ta = h('textarea', { class: 'visually-hidden', readonly: true });
    ta.value = text;
    document.body.append(ta);
    ta.select();
    let ok = false;
    try { ok = document.execCommand('copy'); } catch { ok = false; }
    ta.remove();
    return ok;
  }
}

/** Pixel bucket the server snaps renditions to; asking for the bucket keeps URLs shared. */
const BUCKETS = [64, 128, 256, 512, 768, 1024, 1440, 2048, 3072, 4096];
export function bucket(px) {
  for (const b of BUCKETS) if (px <= b) return b;
  return 4096;
}

/** Values shared across screens (the grid's thumbnail bucket, so the detail view reuses cached thumbnails). */
export const shared = { thumbPx: 256 };

export const dpr = () => Math.min(window.devicePixelRatio || 1, 3);

/** Inputs that take no text: a key pressed on one is not typing. */
const KEYLESS_INPUTS = new Set(['button', 'checkbox', 'color', 'file', 'image', 'radio', 'range', 'reset', 'submit']);

/**
 * Whether a key press belongs to what has the focus rather than to a screen's shortcuts: typing in a field
 * (a text input, a text area, a select, editable content), or any key in a form, a dialog or a menu — or while a
 * dialog is open. Every screen's shortcuts ask this first, so that typing "river" into a keyword field never
 * rotates the photo (R) or closes Info (I).
 */
export function keyBelongsToControl(e) {
  if (document.querySelector('dialog[open]')) return true;
  const el = e.target instanceof Element ? e.target : null;
  if (!el) return false;
  if (el.isContentEditable || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT') return true;
  if (el.tagName === 'INPUT' && !KEYLESS_INPUTS.has(el.type)) return true;
  return !!el.closest('form, dialog, [role="dialog"], [role="menu"], [role="listbox"]');
}

export function prefersReducedMotion() {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** Runs `worker(item)` for every item, at most `limit` at once; calls onDone(item, result|error). */
export async function pool(items, limit, worker, onDone) {
  let next = 0;
  const run = async () => {
    while (next < items.length) {
      const item = items[next++];
      try { onDone?.(item, await worker(item), null); } catch (e) { onDone?.(item, null, e); }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, run));
}

let idCounter = 0;
export const uid = (prefix = 'id') => `${prefix}-${++idCounter}`;
