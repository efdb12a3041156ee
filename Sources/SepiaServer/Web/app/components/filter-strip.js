// FilterStrip: the LetsEat strip — the catalog's entries applied to this photo, as tiles cut from ONE
// image (GET …/strip?size=N, tile i at x = i×N) by CSS background-position on a blob URL, each with its
// name under it. Tap/Enter applies; the chosen one is aria-pressed. Arrow keys move between tiles.
//
// After the catalog's looks, a "Presets" group: one tile per preset of the user's (cut from GET
// …/preset-strip, whose X-Sepia-Strip-Presets header names the tiles in order), Save Preset, and Manage
// (to delete them). Choosing a preset applies its steps (the editor does that); it is not a lasting choice,
// so a preset tile is a plain button.
//
// Each filter shows once: an entry that renders what an earlier one does (the same Core Image filter with
// the same preset parameters, the slider's keys aside — Instafilter's "Sepia Tone" is LetsEat's "Sepia")
// has no tile of its own; choosing the earlier one gives the same recipe, and a saved recipe reads back as
// the earlier one anyway (recipe.js matches the first entry).
import { api } from '../api.js';
import { h, dpr, clamp } from '../util.js';
import { icon } from '../icons.js';

/**
 * The catalog positions the strip shows, and for every position the one shown in its place:
 * {shown: [i…], shownFor: [j…]} (shownFor[i] === i for a shown entry).
 */
export function distinctEntries(catalog) {
  const first = new Map();
  const shown = [];
  const shownFor = catalog.map((item, i) => {
    const sliderKeys = new Set((item.slider || []).map((s) => s.key));
    const params = Object.entries(item.parameters || {}).filter(([k]) => !sliderKeys.has(k))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const key = JSON.stringify([item.filter, params]);
    if (!first.has(key)) { first.set(key, i); shown.push(i); }
    return first.get(key);
  });
  return { shown, shownFor };
}

export class FilterStrip {
  constructor({ assetId, catalog, selected = 0, onSelect, presets = null }) {
    this.assetId = assetId;
    this.presetActions = presets; // {onApply(preset), onSave(), onManage()}, or null for no Presets group
    this.presets = [];
    this.presetTiles = [];
    this.presetURL = null;
    this.presetGroup = null;
    this.catalog = catalog;
    this.onSelect = onSelect;
    const { shown, shownFor } = distinctEntries(catalog);
    this.shownFor = shownFor;
    this.selected = shownFor[selected] ?? selected;
    this.url = null;
    this.el = h('div', { class: 'filter-strip', role: 'toolbar', 'data-testid': 'filter-strip', aria: { label: 'Filters', orientation: 'horizontal' } });
    this.tiles = shown.map((i) => {
      const item = catalog[i];
      const img = h('span', { class: 'tile-img skeleton', 'aria-hidden': 'true' });
      const b = h('button', {
        type: 'button', class: 'filter-tile', 'data-testid': 'filter-tile', 'data-index': String(item.index ?? i),
        'data-name': item.name, aria: { pressed: 'false' }, tabindex: '-1',
        onclick: () => this.select(i, true),
      }, img, h('span', { class: 'tile-name' }, item.name));
      b.title = item.group === 'Instafilter' ? `${item.name} (Instafilter)` : item.name;
      return { b, img, index: i };
    });
    this.el.append(...this.tiles.map((t) => t.b));
    if (presets) {
      this.presetGroup = h('div', { class: 'strip-group', role: 'group', 'data-testid': 'preset-group', aria: { label: 'Presets' } });
      this.el.append(this.presetGroup);
      this.setPresets([]);
    }
    this.el.addEventListener('keydown', (e) => {
      const list = this.buttons();
      const i = list.indexOf(document.activeElement);
      if (i < 0) return;
      let j = null;
      if (e.key === 'ArrowRight') j = i + 1;
      else if (e.key === 'ArrowLeft') j = i - 1;
      else if (e.key === 'Home') j = 0;
      else if (e.key === 'End') j = list.length - 1;
      if (j == null) return;
      e.preventDefault();
      j = clamp(j, 0, list.length - 1);
      this.focusTile(j);
    });
    this.mark();
  }

  /** Every shown button of the strip in order (the looks, then the Presets group's), for the arrow keys; a hidden
   * one (Manage Presets while there are none) cannot take the focus. */
  buttons() {
    const group = this.presetGroup ? [...this.presetGroup.querySelectorAll('button')].filter((b) => !b.hidden) : [];
    return [...this.tiles.map((t) => t.b), ...group];
  }

  focusTile(j) {
    const list = this.buttons();
    list.forEach((b, k) => { b.tabIndex = k === j ? 0 : -1; });
    list[j].focus();
    list[j].scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }

  /** Shows the user's presets ({id, name, recipe}, by name) in the Presets group; load their tiles with loadPresets(). */
  setPresets(presets) {
    if (!this.presetGroup) return;
    const focused = this.presetGroup.contains(document.activeElement) ? document.activeElement.dataset.testid : null;
    this.presets = presets || [];
    const { onApply, onSave, onManage } = this.presetActions;
    this.presetTiles = this.presets.map((p) => {
      const img = h('span', { class: 'tile-img skeleton', 'aria-hidden': 'true' });
      const b = h('button', {
        type: 'button', class: 'filter-tile preset-tile', 'data-testid': 'preset-tile', 'data-preset-id': p.id,
        'data-name': p.name, tabindex: '-1', onclick: () => onApply?.(p),
      }, img, h('span', { class: 'tile-name' }, p.name));
      b.title = `Apply the preset “${p.name}”`;
      return { b, img, preset: p };
    });
    const saveTile = h('button', { type: 'button', class: 'filter-tile strip-action', 'data-testid': 'save-preset', tabindex: '-1', onclick: () => onSave?.() },
      h('span', { class: 'tile-img tile-icon', 'aria-hidden': 'true' }, icon('plus')), h('span', { class: 'tile-name' }, 'Save as Preset'));
    saveTile.title = 'Save this look and these adjustments as a preset';
    const manageTile = h('button', { type: 'button', class: 'filter-tile strip-action', 'data-testid': 'manage-presets', tabindex: '-1', onclick: () => onManage?.() },
      h('span', { class: 'tile-img tile-icon', 'aria-hidden': 'true' }, icon('sliders')), h('span', { class: 'tile-name' }, 'Manage Presets'));
    manageTile.hidden = !this.presets.length;
    this.presetGroup.replaceChildren(
      h('span', { class: 'strip-group-label', 'aria-hidden': 'true' }, 'Presets'),
      ...this.presetTiles.map((t) => t.b), saveTile, manageTile);
    if (focused) (this.presetGroup.querySelector(`[data-testid="${focused}"]`) || saveTile).focus();
    // One button of the strip stays reachable by Tab (the chosen look's).
    if (!this.buttons().some((b) => b.tabIndex === 0)) this.mark();
  }

  /** The presets' tiles, cut from one image of this photo with each preset applied. */
  async loadPresets() {
    if (!this.presetTiles.length) return;
    const size = clamp(Math.round(this.tileCSS() * dpr()), 32, 512);
    const tiles = this.presetTiles;
    try {
      const { blob, ids } = await api.presetStrip(this.assetId, size);
      if (tiles !== this.presetTiles) return; // the list changed meanwhile; a newer load follows
      if (this.presetURL) URL.revokeObjectURL(this.presetURL);
      this.presetURL = URL.createObjectURL(blob);
      const n = ids.length;
      for (const t of tiles) {
        const i = ids.indexOf(t.preset.id);
        t.img.classList.remove('skeleton');
        if (i < 0) { t.img.classList.add('failed'); continue; }
        t.img.style.backgroundImage = `url("${this.presetURL}")`;
        t.img.style.backgroundSize = `${n * 100}% 100%`;
        t.img.style.backgroundPosition = n > 1 ? `${(i / (n - 1)) * 100}% 0` : '0 0';
      }
      this.presetGroup.classList.add('loaded');
    } catch (e) {
      tiles.forEach((t) => { t.img.classList.remove('skeleton'); t.img.classList.add('failed'); });
      throw e;
    }
  }

  /** The tile of a catalog position (or of the entry shown in its place). */
  tileFor(i) {
    const j = this.shownFor[i] ?? i;
    return this.tiles.find((t) => t.index === j) || null;
  }

  /** Chooses a catalog position. */
  select(i, fromUser = false) {
    this.selected = this.shownFor[i] ?? i;
    this.mark();
    if (fromUser) {
      // A tile tapped at the strip's edge comes fully into view.
      const reduce = matchMedia('(prefers-reduced-motion: reduce)').matches;
      this.tileFor(i)?.b.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: reduce ? 'auto' : 'smooth' });
      this.onSelect?.(this.selected);
    }
  }

  mark() {
    this.tiles.forEach((t) => {
      t.b.setAttribute('aria-pressed', String(t.index === this.selected));
      t.b.tabIndex = t.index === this.selected ? 0 : -1;
    });
    this.presetGroup?.querySelectorAll('button').forEach((b) => { b.tabIndex = -1; });
  }

  /** Tile size in CSS pixels (from the stylesheet). */
  tileCSS() {
    const r = this.tiles[0]?.img.getBoundingClientRect();
    return Math.round(r?.width || 76);
  }

  async load() {
    const css = this.tileCSS();
    const size = clamp(Math.round(css * dpr()), 32, 512);
    try {
      const { blob, count } = await api.strip(this.assetId, size);
      if (this.url) URL.revokeObjectURL(this.url);
      this.url = URL.createObjectURL(blob);
      const n = count || this.catalog.length;
      this.tiles.forEach((t) => {
        const i = t.index;
        t.img.classList.remove('skeleton');
        t.img.style.backgroundImage = `url("${this.url}")`;
        t.img.style.backgroundSize = `${n * 100}% 100%`;
        // Percent positions: tile i of n sits at i/(n−1) of the free space.
        t.img.style.backgroundPosition = n > 1 ? `${(i / (n - 1)) * 100}% 0` : '0 0';
      });
      this.el.classList.add('loaded');
    } catch (e) {
      this.tiles.forEach((t) => { t.img.classList.remove('skeleton'); t.img.classList.add('failed'); });
      throw e;
    }
  }

  scrollToSelected() {
    this.tileFor(this.selected)?.b.scrollIntoView({ block: 'nearest', inline: 'center' });
  }

  destroy() {
    if (this.url) URL.revokeObjectURL(this.url);
    if (this.presetURL) URL.revokeObjectURL(this.presetURL);
  }
}
