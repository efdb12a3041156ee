// Modal dialogs on <dialog>.showModal(): the rest of the page is inert, Tab is kept inside, Escape
// closes, and focus returns to where it was. confirmDialog() and promptDialog() resolve with the answer.
import { h } from '../util.js';
import { icon } from '../icons.js';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * openDialog({title, body: Node|Node[], actions: Node[], testid, wide, onClose})
 * → {el, close(value), closed: Promise<value>}
 */
export function openDialog({ title, description, body, actions = [], testid = 'dialog', wide = false, onClose, initialFocus, dismissable = true, returnFocus } = {}) {
  // Where focus goes back to: given, or what had it (a button disabled while it worked has lost it).
  const previous = returnFocus || (document.activeElement !== document.body ? document.activeElement : null);
  const titleId = 'dlg-title-' + Math.random().toString(36).slice(2, 8);
  const descId = description ? titleId + '-d' : null;
  let resolve;
  const closed = new Promise((r) => { resolve = r; });
  let result;
  const dialog = h('dialog', {
    class: ['dialog', wide && 'wide'],
    'data-testid': testid,
    aria: { labelledby: titleId, describedby: descId },
  },
  h('div', { class: 'dialog-head' },
    h('h2', { id: titleId, class: 'dialog-title' }, title),
    dismissable ? h('button', { type: 'button', class: 'btn icon ghost small dialog-x', aria: { label: 'Close' }, onclick: () => close(undefined) }, icon('close')) : null),
  description ? h('p', { id: descId, class: 'dialog-desc' }, description) : null,
  body ? h('div', { class: 'dialog-body' }, body) : null,
  actions.length ? h('div', { class: 'dialog-actions' }, actions) : null);

  dialog.addEventListener('cancel', (e) => { e.preventDefault(); if (dismissable) close(undefined); });
  dialog.addEventListener('keydown', (e) => {
    if (e.key !== 'Tab') return;
    const items = [...dialog.querySelectorAll(FOCUSABLE)].filter((x) => x.offsetParent !== null || x === document.activeElement);
    if (!items.length) return;
    const first = items[0];
    const last = items[items.length - 1];
    if (e.shiftKey && document.activeElement === first) { e.preventDefault(); last.focus(); }
    else if (!e.shiftKey && document.activeElement === last) { e.preventDefault(); first.focus(); }
  });
  dialog.addEventListener('click', (e) => { if (e.target === dialog && dismissable) close(undefined); });

  document.body.append(dialog);
  dialog.showModal();
  const focusTarget = initialFocus?.() || dialog.querySelector('[autofocus]') || dialog.querySelector('.dialog-body ' + FOCUSABLE) || dialog.querySelector('.dialog-actions .primary, .dialog-actions .danger') || dialog.querySelector(FOCUSABLE);
  focusTarget?.focus();

  function close(value) {
    if (!dialog.open) return;
    result = value;
    dialog.close();
    dialog.remove();
    onClose?.(value);
    if (previous && previous.isConnected && typeof previous.focus === 'function') previous.focus();
    resolve(result);
  }
  return { el: dialog, close, closed };
}

/** Resolves true when confirmed. */
export function confirmDialog({ title, message, confirmLabel = 'OK', cancelLabel = 'Cancel', destructive = false, testid = 'confirm-dialog' }) {
  let d;
  const cancel = h('button', { type: 'button', class: 'btn', 'data-testid': 'confirm-cancel', onclick: () => d.close(false) }, cancelLabel);
  const ok = h('button', { type: 'button', class: ['btn', destructive ? 'danger' : 'primary'], 'data-testid': 'confirm-ok', onclick: () => d.close(true) }, confirmLabel);
  d = openDialog({ title, description: message, actions: [cancel, ok], testid, initialFocus: () => (destructive ? cancel : ok) });
  return d.closed.then((v) => v === true);
}

/**
 * Resolves with the entered text, or null when cancelled. `error` shows a problem at once (a server's answer
 * to the text given before, which is then `value`); `emptyText` is said when nothing is entered (a name, by default).
 */
export function promptDialog({ title, label, description, value = '', confirmLabel = 'OK', placeholder = '', maxLength = 200, testid = 'prompt-dialog', validate, error: problemText = null, emptyText = 'Enter a name.' }) {
  let d;
  const inputId = 'prompt-' + Math.random().toString(36).slice(2, 8);
  const input = h('input', { id: inputId, class: 'input', type: 'text', value, placeholder, maxlength: String(maxLength), autocomplete: 'off', 'data-testid': 'prompt-input' });
  const error = h('p', { class: 'form-error', role: 'alert', 'data-testid': 'prompt-error', hidden: !problemText }, problemText || '');
  if (problemText) input.setAttribute('aria-invalid', 'true');
  const submit = () => {
    const text = input.value.trim();
    const problem = !text ? emptyText : validate?.(text);
    if (problem) { error.textContent = problem; error.hidden = false; input.setAttribute('aria-invalid', 'true'); input.focus(); return; }
    d.close(text);
  };
  const form = h('form', { class: 'stack', onsubmit: (e) => { e.preventDefault(); submit(); } },
    h('div', { class: 'field' }, h('label', { for: inputId }, label), input), error);
  const cancel = h('button', { type: 'button', class: 'btn', onclick: () => d.close(null) }, 'Cancel');
  const ok = h('button', { type: 'button', class: 'btn primary', 'data-testid': 'prompt-ok', onclick: submit }, confirmLabel);
  d = openDialog({ title, description, body: form, actions: [cancel, ok], testid, initialFocus: () => input });
  input.select();
  return d.closed.then((v) => (typeof v === 'string' ? v : null));
}
