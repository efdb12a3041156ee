// Toasts: short messages at the bottom of the screen. Errors stay longer, are announced assertively
// and have a close button. toast('Saved'), toast.error(err), toast('…', {action: {label, run}}).
import { h } from '../util.js';
import { icon } from '../icons.js';
import { errorMessage } from './error-text.js';

function region() {
  let el = document.getElementById('toasts');
  if (!el) { el = h('div', { id: 'toasts', class: 'toasts' }); document.body.append(el); }
  return el;
}

export function toast(message, { kind = 'info', timeout, action } = {}) {
  const isError = kind === 'error';
  const el = h('div', {
    class: ['toast', 'toast-' + kind],
    role: isError ? 'alert' : 'status',
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
  requestAnimationFrame(() => el.classList.add('in'));
  const ms = timeout ?? (isError ? 9000 : 4000);
  let timer = setTimeout(dismiss, ms);
  el.addEventListener('mouseenter', () => clearTimeout(timer));
  el.addEventListener('mouseleave', () => { timer = setTimeout(dismiss, 2500); });
  function dismiss() {
    clearTimeout(timer);
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
