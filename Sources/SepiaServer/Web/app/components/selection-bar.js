// Selection: the set of selected photos and whether selection mode is on; SelectionBar: the toolbar shown
// in selection mode ("3 selected" + actions). Actions are given by the screen.
//
// The bar fits the width it has, as Photos' toolbar does: it measures itself and, while it does not fit, first
// shortens the labels, then moves the actions from the end into a More menu, one at a time. The pinned actions
// (Delete; in Recently Deleted, Recover and Delete Now), the count and Done always stay in view; on the
// narrowest screens their icons go, and a pinned action whose icon says it alone (the bin of Delete) keeps only
// that. Nothing is ever cut off, drawn over another control, or reachable only by scrolling the bar.
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
 * actions: [{id, label, short?, icon, run(ids), enabled?(ids) → bool, labelFor?(ids) → label, danger?, pinned?,
 * iconAlone?}], or, for a menu of choices, {id, label, icon, menu: async (ids) → [menu items] (none: no menu),
 * menuTestid} in place of run. `short` is the label when room is scarce; `pinned` keeps the action in the bar
 * (never in More); `iconAlone` lets a pinned action show its icon without its label on the narrowest screens.
 * `label` names the bar for screen readers and `prompt` is its count while nothing is selected (the People
 * view's selects people).
 */
export function selectionBar(selection, actions, { label = 'Selected photos', prompt = 'Select photos' } = {}) {
  const count = h('span', { class: 'selbar-count', 'data-testid': 'selection-count', role: 'status' }, '');
  const ids = () => [...selection.ids];
  const labelOf = (a) => (a.labelFor ? a.labelFor(ids()) : a.label);
  const enabledFor = (a) => selection.size > 0 && (a.enabled ? a.enabled(ids()) : true);

  // A menu action (Apply Preset) opens its menu from whichever button shows it: its own, or More.
  const menuOn = (a, anchor) => {
    const m = { items: [] };
    m.popup = popupMenu(anchor, { label: a.label, items: () => m.items, testid: a.menuTestid });
    return m;
  };
  const openMenu = async (a, m, anchor) => {
    if (m.popup.isOpen) { m.popup.close(); return; }
    m.items = (await a.menu(ids())) || [];
    if (m.items.length && anchor.isConnected && !anchor.hidden) m.popup.open();
  };

  const buttons = actions.map((a) => {
    const text = h('span', { class: 'selbar-label' }, a.label);
    const b = h('button', {
      type: 'button', class: ['btn', 'selbar-btn', a.danger && 'danger-text'],
      'data-testid': 'selection-' + a.id, aria: { label: a.label }, title: a.label,
    }, icon(a.icon), text);
    const x = { a, b, text, menu: a.menu ? menuOn(a, b) : null };
    b.addEventListener('click', () => (a.menu ? openMenu(a, x.menu, b) : a.run(ids())));
    return x;
  });
  const movable = buttons.filter((x) => !x.a.pinned);
  const pinned = buttons.filter((x) => x.a.pinned);

  // More: the actions that do not fit, in the bar's order.
  let overflow = [];
  const more = h('button', { type: 'button', class: 'btn selbar-btn selbar-more', 'data-testid': 'selection-more', aria: { label: 'More actions' }, title: 'More actions', hidden: true },
    icon('more'), h('span', { class: 'selbar-label' }, 'More'));
  const morePopup = popupMenu(more, {
    label: 'More actions', testid: 'selection-more-menu',
    items: () => overflow.map(({ a }) => ({
      label: a.menu ? `${labelOf(a)}…` : labelOf(a), icon: a.icon, danger: a.danger, testid: 'selection-more-' + a.id,
      disabled: () => !enabledFor(a),
      run: () => (a.menu ? openMenu(a, menusInMore.get(a.id), more) : a.run(ids())),
    })),
  });
  more.addEventListener('click', () => {
    // A menu opened from More (Apply Preset's) closes first.
    for (const m of menusInMore.values()) if (m.popup.isOpen) { m.popup.close(); return; }
    morePopup.toggle();
  });
  const menusInMore = new Map(movable.filter((x) => x.a.menu).map((x) => [x.a.id, menuOn(x.a, more)]));

  const done = h('button', { type: 'button', class: 'btn selbar-done', 'data-testid': 'selection-done', onclick: () => selection.stop() }, 'Done');
  const bar = h('div', { class: 'selbar', role: 'toolbar', aria: { label }, 'data-testid': 'selection-bar' },
    count, h('div', { class: 'selbar-actions' }, movable.map((x) => x.b), more, pinned.map((x) => x.b)), done);
  bar.hidden = true;

  /** The ways to lay the bar out, roomiest first: full labels; short ones; then 1, 2, … actions in More; then
   *  the labels without icons; then the pinned actions that may, as icons alone; last (the narrowest phones),
   *  the count as a number alone. */
  const layouts = [{ short: false, inMore: 0 }, { short: true, inMore: 0 }];
  for (let k = 1; k <= movable.length; k++) layouts.push({ short: true, inMore: k });
  layouts.push({ short: true, inMore: movable.length, tight: true });
  layouts.push({ short: true, inMore: movable.length, tight: true, iconsAlone: true });
  layouts.push({ short: true, inMore: movable.length, tight: true, iconsAlone: true, bareCount: true });

  const countText = (bare) => {
    const n = selection.size;
    return !n ? prompt : bare ? n.toLocaleString() : `${n.toLocaleString()} selected`;
  };

  function apply({ short, inMore, tight = false, iconsAlone = false, bareCount = false }) {
    count.textContent = countText(bareCount);
    overflow = inMore ? movable.slice(movable.length - inMore) : [];
    for (const x of buttons) {
      const inBar = !overflow.includes(x);
      x.b.hidden = !inBar;
      x.text.textContent = short && x.a.short && !x.a.labelFor ? x.a.short : labelOf(x.a);
      x.b.classList.toggle('icon-alone', iconsAlone && !!x.a.iconAlone);
    }
    more.hidden = !overflow.length;
    more.classList.toggle('icon-alone', iconsAlone);
    bar.classList.toggle('tight', tight);
  }
  const fits = () => bar.scrollWidth <= bar.clientWidth + 0.5;

  /** Lays the bar out in the roomiest way that fits (the last, tightest one when none does); the More menu,
   *  if open, closes when what is in it changes. */
  let chosen = -1;
  function fit() {
    if (bar.hidden || !bar.isConnected) return;
    let i = 0;
    for (; i < layouts.length; i++) {
      apply(layouts[i]);
      if (fits()) break;
    }
    const now = Math.min(i, layouts.length - 1);
    if (now !== chosen && morePopup.isOpen) morePopup.close(false);
    chosen = now;
  }

  const update = () => {
    bar.hidden = !selection.active;
    const n = selection.size;
    count.textContent = countText(false);
    count.title = n ? `${n.toLocaleString()} selected` : '';
    for (const { a, b } of buttons) {
      b.disabled = !enabledFor(a);
      const label = labelOf(a);
      b.setAttribute('aria-label', label);
      b.title = label;
    }
    more.disabled = n === 0;
    fit();
  };
  const off = selection.on('change', update);
  // The width it has changes with the window, the sidebar, and the scrollbar of what is behind.
  const resized = new ResizeObserver(() => fit());
  requestAnimationFrame(() => { if (bar.parentElement) resized.observe(bar.parentElement); });
  update();
  bar.destroy = () => { off(); resized.disconnect(); morePopup.close(false); };
  bar.update = update;
  return bar;
}
