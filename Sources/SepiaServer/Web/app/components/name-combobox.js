// A text field that offers names as they are typed (ARIA's combobox with a list box): who a face is, a person in
// the search field. The offers follow the typing; ↓ and ↑ move through them (↓ also opens the list), Enter takes
// the one chosen — or, with none chosen, what was typed, where the caller takes text (`onEnter`); Escape closes
// the list (and, pressed again, reaches the caller: a popover closes); Tab leaves it. A press on an offer takes it
// and leaves the focus in the field. Screen readers hear how many offers there are.
import { h, uid } from '../util.js';
import { icon } from '../icons.js';

/**
 * nameCombobox({input, offers: (text) → [{id, label, detail?, image? (or icon?), testid?, value}], onChoose(offer), onEnter?(text),
 * listTestid, openOnFocus, onRender?()}) turns `input` into the combobox and returns {list, status, close(), refresh()}:
 * place `list` (the list box) and `status` (the count, for screen readers) where they belong, after the field.
 * `onRender` is called when the list opens, changes or closes (a popover holding it places itself again).
 */
export function nameCombobox({ input, offers, onChoose, onEnter = null, listTestid = 'name-options', openOnFocus = false, onRender = null }) {
  const listId = uid('names');
  const list = h('ul', { class: 'combo-list', id: listId, role: 'listbox', 'data-testid': listTestid, aria: { label: 'Suggestions' } });
  list.hidden = true;
  const status = h('span', { class: 'visually-hidden', role: 'status' });
  input.setAttribute('role', 'combobox');
  input.setAttribute('aria-autocomplete', 'list');
  input.setAttribute('aria-expanded', 'false');
  input.setAttribute('aria-controls', listId);
  input.setAttribute('autocomplete', 'off');

  let shown = [];
  let active = -1;

  function render(all = false) {
    const text = input.value;
    shown = offers(text, { all }) || [];
    active = -1;
    list.replaceChildren(...shown.map((o, i) => h('li', {
      id: `${listId}-${i}`, role: 'option', class: 'combo-option', 'data-testid': o.testid || 'name-option', 'data-value': o.id || '',
      aria: { selected: 'false' },
      onpointerdown: (e) => { e.preventDefault(); choose(i); },
    }, o.image ? h('img', { class: 'combo-face', src: o.image, alt: '', loading: 'lazy' }) : o.icon ? h('span', { class: 'combo-face new', 'aria-hidden': 'true' }, icon(o.icon)) : null,
    h('span', { class: 'combo-text' }, h('span', { class: 'combo-label' }, o.label), o.detail ? h('span', { class: 'combo-detail' }, o.detail) : null))));
    const open = shown.length > 0;
    list.hidden = !open;
    input.setAttribute('aria-expanded', String(open));
    input.removeAttribute('aria-activedescendant');
    status.textContent = open ? `${shown.length} suggestion${shown.length === 1 ? '' : 's'}. Use the arrow keys to choose one.` : '';
    onRender?.();
  }

  function highlight(i) {
    active = i;
    [...list.children].forEach((li, k) => {
      li.setAttribute('aria-selected', String(k === i));
      li.classList.toggle('active', k === i);
    });
    if (i >= 0) {
      input.setAttribute('aria-activedescendant', `${listId}-${i}`);
      list.children[i]?.scrollIntoView?.({ block: 'nearest' });
    } else input.removeAttribute('aria-activedescendant');
  }

  function close() {
    shown = [];
    active = -1;
    list.hidden = true;
    list.replaceChildren();
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
    onRender?.();
  }

  function choose(i) {
    const o = shown[i];
    if (!o) return;
    close();
    onChoose(o);
  }

  input.addEventListener('input', () => render());
  if (openOnFocus) input.addEventListener('focus', () => { if (list.hidden) render(); });
  input.addEventListener('blur', () => close());
  input.addEventListener('keydown', (e) => {
    if (e.isComposing) return;
    const open = !list.hidden;
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      if (!open) { render(true); if (shown.length) highlight(0); return; }
      highlight(active < 0 ? 0 : (active + 1) % shown.length);
    } else if (e.key === 'ArrowUp') {
      if (!open) return;
      e.preventDefault();
      highlight(active <= 0 ? shown.length - 1 : active - 1);
    } else if (e.key === 'Enter') {
      if (open && active >= 0) { e.preventDefault(); e.stopPropagation(); choose(active); return; }
      if (onEnter) { e.preventDefault(); e.stopPropagation(); close(); onEnter(input.value.trim()); }
    } else if (e.key === 'Escape') {
      if (open) { e.preventDefault(); e.stopPropagation(); close(); }
    } else if (e.key === 'Tab') close();
  });

  return { list, status, close, refresh: () => render() };
}
