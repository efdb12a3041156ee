// Selection: the set of selected photos and whether selection mode is on; SelectionBar: the toolbar shown
// in selection mode ("3 selected" + actions). Actions are given by the screen.
import { h, createBus } from '../util.js';
import { icon } from '../icons.js';
import { popupMenu } from './menu.js';

export class Selection {
  constructor() { this.ids = new Set(); this.active = false; this.bus = createBus(); }
  on(n, f) { return this.bus.on(n, f); }
  start() { if (!this.active) { this.active = true; this.bus.emit('change'); } }
  stop() { this.active = false; this.ids.clear(); this.bus.emit('change'); }
  has(id) { return this.ids.has(id); }
  get size() { return this.ids.size; }
  toggle(id) { if (this.ids.has(id)) this.ids.delete(id); else this.ids.add(id); this.bus.emit('change'); }
  addMany(ids, additive = true) {
    if (!additive) this.ids.clear();
    for (const id of ids) this.ids.add(id);
    this.bus.emit('change');
  }
  clear() { this.ids.clear(); this.bus.emit('change'); }
  remove(ids) { let c = false; for (const id of ids) c = this.ids.delete(id) || c; if (c) this.bus.emit('change'); }
}

/**
 * actions: [{id, label, icon, run(ids), enabled?(ids) → bool, danger?}], or, for a menu of choices,
 * {id, label, icon, menu: async (ids) → [menu items] (none: no menu), menuTestid} in place of run.
 */
export function selectionBar(selection, actions) {
  const count = h('span', { class: 'selbar-count', 'data-testid': 'selection-count', role: 'status' }, '');
  const buttons = actions.map((a) => {
    const b = h('button', {
      type: 'button', class: ['btn', 'selbar-btn', a.danger && 'danger-text'],
      'data-testid': 'selection-' + a.id, aria: { label: a.label },
      onclick: a.menu ? null : () => a.run([...selection.ids]),
    }, icon(a.icon), h('span', { class: 'selbar-label' }, a.short || a.label));
    b.title = a.label;
    if (a.menu) {
      let items = [];
      const popup = popupMenu(b, { label: a.label, items: () => items, testid: a.menuTestid });
      b.addEventListener('click', async () => {
        if (popup.isOpen) { popup.close(); return; }
        items = (await a.menu([...selection.ids])) || [];
        if (items.length && b.isConnected) popup.open();
      });
    }
    return { a, b };
  });
  const done = h('button', { type: 'button', class: 'btn selbar-done', 'data-testid': 'selection-done', onclick: () => selection.stop() }, 'Done');
  const bar = h('div', { class: 'selbar', role: 'toolbar', aria: { label: 'Selected photos' }, 'data-testid': 'selection-bar' },
    count, h('div', { class: 'selbar-actions' }, buttons.map((x) => x.b)), done);
  bar.hidden = true;
  const update = () => {
    bar.hidden = !selection.active;
    const n = selection.size;
    count.textContent = n ? `${n.toLocaleString()} selected` : 'Select photos';
    const ids = [...selection.ids];
    for (const { a, b } of buttons) {
      const enabled = n > 0 && (a.enabled ? a.enabled(ids) : true);
      b.disabled = !enabled;
      if (a.labelFor) {
        const label = a.labelFor(ids);
        b.setAttribute('aria-label', label);
        b.title = label;
        b.querySelector('.selbar-label').textContent = label;
      }
    }
  };
  const off = selection.on('change', update);
  update();
  bar.destroy = off;
  bar.update = update;
  return bar;
}
