// Toasts: short messages. Errors stay longer, are announced assertively and have a close button.
// toast('Saved'), toast.error(err), toast('…', {action: {label, run}}).
//
// Where they go: never over a control. On a photo, in the editor or the camera they sit over the open
// screen's picture (the element marked `data-toast-anchor`, whose value is the gap to keep at its bottom in
// pixels), clear of the toolbars, the filter strip and the slider, and let the pointer through to the picture
// (a crop box) except on their own buttons. Elsewhere they sit at the bottom of the screen, above the tab bar,
// and above the upload panel where they would meet it.
//
// Whose they are: a toast belongs to the screen that raised it, and the next navigation takes it away
// (messagesNavigated, called by the router) — the next photo, another view. A navigation that is the outcome of
// the action that raised it (Save leaves the editor for the photo, Delete moves on to the next photo) carries
// that screen's toasts to the screen it leads to (carryMessagesTo), once.
import { h } from '../util.js';
import { icon } from '../icons.js';
import { errorMessage } from './error-text.js';

function region() {
  let el = document.getElementById('toasts');
  if (!el) { el = h('div', { id: 'toasts', class: 'toasts', role: 'region', aria: { label: 'Notifications' } }); document.body.append(el); }
  return el;
}

const shown = (el) => !!el && el.isConnected && el.getClientRects().length > 0;

/** Places the toasts (see above); cheap enough to run every frame while toasts show. */
function place() {
  const el = region();
  const anchors = [...document.querySelectorAll('[data-toast-anchor]')].filter(shown);
  const anchor = anchors[anchors.length - 1];
  const style = {};
  if (anchor) {
    const r = anchor.getBoundingClientRect();
    const gap = Number(anchor.dataset.toastAnchor) || 12;
    style.left = `${Math.round(r.left + r.width / 2)}px`;
    style.width = `${Math.round(Math.max(0, Math.min(560, r.width - 24)))}px`;
    style.bottom = `${Math.round(innerHeight - r.bottom + gap)}px`;
  } else {
    // Above the upload panel where they would meet it (a phone's panel spans the width); the stylesheet's
    // bottom is max(its own place, --toast-above).
    const panel = document.querySelector('.upload-panel:not(.docked)');
    if (shown(panel)) {
      const p = panel.getBoundingClientRect();
      const t = el.getBoundingClientRect();
      if (t.left < p.right && t.right > p.left) style['--toast-above'] = `${Math.round(innerHeight - p.top + 8)}px`;
    }
  }
  for (const key of ['left', 'width', 'bottom']) {
    const value = style[key] || '';
    if (el.style[key] !== value) el.style[key] = value;
  }
  const above = style['--toast-above'] || '';
  if (el.style.getPropertyValue('--toast-above') !== above) el.style.setProperty('--toast-above', above);
  el.classList.toggle('anchored', !!anchor);
}

/** The screens the app has shown, counted; each toast remembers the one it was raised on. */
let screen = 0;
const live = new Set();
let carryTo = null;

const hashKey = (hash) => {
  const raw = String(hash || '').replace(/^#\/?/, '');
  try { return decodeURIComponent(raw); } catch { return raw; }
};

/** The next navigation, to `hash`, is the outcome of what raised this screen's toasts: they go along to it. */
export function carryMessagesTo(hash) { carryTo = hashKey(hash); }

/** The router's call when the app has gone to `hash`: earlier screens' toasts go, unless carried here. */
export function messagesNavigated(hash) {
  const carry = carryTo !== null && carryTo === hashKey(hash);
  carryTo = null;
  const left = screen++;
  for (const t of [...live]) if (!(carry && t.screen === left)) t.dismiss();
}

let placing = 0;
function keepPlaced() {
  if (placing) return;
  const frame = () => {
    place();
    placing = region().childElementCount ? requestAnimationFrame(frame) : 0;
  };
  placing = requestAnimationFrame(frame);
}

export function toast(message, { kind = 'info', timeout, action } = {}) {
  const isError = kind === 'error';
  const el = h('div', {
    class: ['toast', 'toast-' + kind],
    role: isError ? 'alert' : 'status',
    'data-state': 'shown',
    'data-testid': isError ? 'toast-error' : 'toast',
  },
  isError ? icon('warning', { cls: 'toast-icon' }) : kind === 'success' ? icon('checkCircle', { cls: 'toast-icon' }) : null,
  h('span', { class: 'toast-text' }, message));
  if (action) {
    el.append(h('button', { class: 'btn small ghost toast-action', type: 'button', onclick: () => { action.run(); dismiss(); } }, action.label));
  }
  const close = h('button', { class: 'btn icon small ghost toast-close', type: 'button', aria: { label: 'Dismiss message' }, onclick: () => dismiss() }, icon('close'));
  el.append(close);
  region().append(el);
  place();
  keepPlaced();
  requestAnimationFrame(() => el.classList.add('in'));
  const ms = timeout ?? (isError ? 9000 : 4000);
  let timer = setTimeout(dismiss, ms);
  // Kept while the pointer or the keyboard is on it; gone a moment after they leave.
  const hold = () => clearTimeout(timer);
  const release = () => { clearTimeout(timer); if (!el.matches(':hover, :focus-within')) timer = setTimeout(dismiss, 2500); };
  el.addEventListener('mouseenter', hold);
  el.addEventListener('mouseleave', release);
  el.addEventListener('focusin', hold);
  el.addEventListener('focusout', () => requestAnimationFrame(release));
  const own = { screen, dismiss };
  live.add(own);
  function dismiss() {
    if (!live.delete(own)) return;
    clearTimeout(timer);
    el.dataset.state = 'leaving';
    el.classList.remove('in');
    setTimeout(() => el.remove(), 250);
  }
  return dismiss;
}

/** Shows an error in words: its message (an ApiError's, as the server wrote it), or `fallback`. The
 *  server's technical detail, if any, is in the console (api.js): a toast has no room for it. */
toast.error = (err, fallback = 'Something went wrong.') => {
  if (err?.name === 'AbortError') return () => {};
  const message = errorMessage(err, fallback);
  if (err && typeof err !== 'string') console.warn(err);
  return toast(message, { kind: 'error' });
};
toast.success = (message, opts = {}) => toast(message, { kind: 'success', ...opts });
