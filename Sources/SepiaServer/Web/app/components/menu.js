// A small popup menu (role="menu") opened from a button: arrow keys move, Enter/Space choose, Escape
// closes and returns focus to the button.
import { h } from '../util.js';
import { icon } from '../icons.js';

/**
 * menuButton({label, icon, testid, items: [{label, icon, run, testid, danger, hidden?()}]}) → button
 */
export function menuButton({ label, iconName = 'more', testid, items, cls = 'btn icon ghost' }) {
  const button = h('button', { type: 'button', class: cls, 'data-testid': testid, aria: { label, haspopup: 'menu', expanded: 'false' }, title: label }, icon(iconName));
  const popup = popupMenu(button, { label, items: () => items });
  button.addEventListener('click', () => popup.toggle());
  button.addEventListener('keydown', (e) => { if (e.key === 'ArrowDown' && !popup.isOpen) { e.preventDefault(); popup.open(); } });
  button.closeMenu = popup.close;
  return button;
}

/**
 * A menu that opens from a button of the caller's (which gets aria-haspopup and aria-expanded):
 * popupMenu(button, {label, items: () => [{label, icon, run, testid, danger, hidden?(), disabled?()}], testid})
 * (a disabled item is shown, and can be reached with the arrow keys, but does nothing)
 * → {open(), close(focusButton), toggle(), isOpen}.
 */
export function popupMenu(button, { label, items, testid }) {
  button.setAttribute('aria-haspopup', 'menu');
  button.setAttribute('aria-expanded', 'false');
  let menu = null;
  const close = (focusButton = true) => {
    if (!menu) return;
    menu.remove();
    menu = null;
    button.setAttribute('aria-expanded', 'false');
    document.removeEventListener('pointerdown', outside, true);
    if (focusButton) button.focus();
  };
  const outside = (e) => { if (menu && !menu.contains(e.target) && e.target !== button && !button.contains(e.target)) close(false); };
  const open = () => {
    if (menu) return;
    const visible = items().filter((it) => !it.hidden?.());
    menu = h('div', { class: 'menu', role: 'menu', 'data-testid': testid, aria: { label } },
      visible.map((it) => {
        const off = !!it.disabled?.();
        return h('button', {
          type: 'button', role: 'menuitem', tabindex: '-1', class: ['menu-item', it.danger && 'danger'], 'data-testid': it.testid,
          aria: { disabled: off ? 'true' : null },
          ...(it.attrs || {}),
          onclick: () => { if (off) return; close(); it.run(); },
        }, it.icon ? icon(it.icon) : null, h('span', {}, typeof it.label === 'function' ? it.label() : it.label));
      }));
    menu.addEventListener('keydown', (e) => {
      const list = [...menu.querySelectorAll('[role="menuitem"]')];
      const i = list.indexOf(document.activeElement);
      if (e.key === 'ArrowDown') { e.preventDefault(); list[(i + 1) % list.length].focus(); }
      else if (e.key === 'ArrowUp') { e.preventDefault(); list[(i - 1 + list.length) % list.length].focus(); }
      else if (e.key === 'Home') { e.preventDefault(); list[0].focus(); }
      else if (e.key === 'End') { e.preventDefault(); list[list.length - 1].focus(); }
      else if (e.key === 'Escape') { e.preventDefault(); e.stopPropagation(); close(); }
      else if (e.key === 'Tab') close(false);
    });
    document.body.append(menu);
    const r = button.getBoundingClientRect();
    const mw = menu.offsetWidth;
    const mh = menu.offsetHeight;
    let top = r.bottom + 6;
    if (top + mh > window.innerHeight - 8) top = Math.max(8, r.top - mh - 6);
    menu.style.top = `${top}px`;
    menu.style.left = `${Math.max(8, Math.min(window.innerWidth - mw - 8, r.right - mw))}px`;
    button.setAttribute('aria-expanded', 'true');
    document.addEventListener('pointerdown', outside, true);
    menu.querySelector('[role="menuitem"]')?.focus();
  };
  return { open, close, toggle: () => (menu ? close() : open()), get isOpen() { return !!menu; } };
}
