// Data sources for the photo grid. A source is a list of sections; each section knows its count up
// front (from the months list, or from `total`) and fills its items page by page, by cursor, only when
// the grid asks for them (ensure). Sources notify listeners with 'layout' (counts changed) or 'data'.
import { api } from './api.js';
import { createBus } from './util.js';

const PAGE = 200;          // photos per request (the API allows up to 500)
const MAX_LOADS = 3;       // page requests in flight at once

class BaseSource {
  constructor() {
    this.sections = [];
    this.bus = createBus();
    this.loading = 0;
    this.loaded = false;
    this.error = null;
    this.generation = 0;
  }
  on(name, fn) { return this.bus.on(name, fn); }
  get total() { return this.sections.reduce((n, s) => n + s.count, 0); }
  /** A page of assets for `params` (a cursor among them): `GET /assets` unless a source reads elsewhere. */
  fetchAssets(params, signal) { return api.assets(params, signal); }

  /** A new generation of requests: what the previous one still has in flight is cancelled. */
  restart() {
    this.generation++;
    this.loading = 0;
    this.requests?.abort();
    this.requests = new AbortController();
    return this.generation;
  }

  /** Asks for the items of section `si` up to index `upTo` (inclusive). */
  ensure(si, upTo) {
    const s = this.sections[si];
    if (!s || s.done || s.pending || s.items.length > upTo || s.failed) return;
    if (this.loading >= MAX_LOADS) return;
    this.fetchPage(s);
  }

  async fetchPage(s) {
    const generation = this.generation;
    s.pending = true;
    this.loading++;
    try {
      const params = { ...this.paramsFor(s), limit: PAGE };
      if (s.cursor) params.cursor = s.cursor;
      const page = await this.fetchAssets(params, this.requests?.signal);
      if (generation !== this.generation) return;
      for (const a of page.assets || []) s.items.push(a);
      s.cursor = page.nextCursor || null;
      s.done = !page.nextCursor;
      let layoutChanged = false;
      if (typeof page.total === 'number' && page.total !== s.count) { s.count = page.total; layoutChanged = true; }
      if (s.done && s.items.length !== s.count) { s.count = s.items.length; layoutChanged = true; }
      this.bus.emit(layoutChanged ? 'layout' : 'data');
    } catch (e) {
      if (generation !== this.generation) return;
      s.failed = e;
      this.bus.emit('error', e);
      // Allow a retry a little later.
      setTimeout(() => { s.failed = null; this.bus.emit('data'); }, 4000);
    } finally {
      s.pending = false;
      if (generation === this.generation) this.loading--;
    }
  }

  /** Global index of (si, i). */
  globalIndex(si, i) {
    let g = 0;
    for (let k = 0; k < si; k++) g += this.sections[k].count;
    return g + i;
  }
  locate(g) {
    for (let si = 0; si < this.sections.length; si++) {
      const c = this.sections[si].count;
      if (g < c) return { si, i: g };
      g -= c;
    }
    return null;
  }
  assetAt(g) { const p = this.locate(g); return p ? this.sections[p.si].items[p.i] : undefined; }

  find(id) {
    for (let si = 0; si < this.sections.length; si++) {
      const i = this.sections[si].items.findIndex((a) => a.id === id);
      if (i >= 0) return { si, i, g: this.globalIndex(si, i), asset: this.sections[si].items[i] };
    }
    return null;
  }
  /** Loaded assets, in order. */
  loadedAssets() { return this.sections.flatMap((s) => s.items); }

  neighbors(id) {
    const p = this.find(id);
    if (!p) return { prev: null, next: null, index: -1, total: this.total };
    const prev = this.assetAt(p.g - 1) || null;
    const next = this.assetAt(p.g + 1) || null;
    // A neighbour in a month (or page) not loaded yet: fetch it; listeners hear 'data' when it arrives.
    for (const [g, a] of [[p.g - 1, prev], [p.g + 1, next]]) {
      if (a || g < 0 || g >= this.total) continue;
      const at = this.locate(g);
      if (at) this.ensure(at.si, at.i);
    }
    return { prev, next, index: p.g, total: this.total, position: p };
  }

  /** Replaces loaded copies of an asset (after an edit, favourite…). */
  updateAsset(asset) {
    let found = false;
    for (const s of this.sections) {
      const i = s.items.findIndex((a) => a.id === asset.id);
      if (i >= 0) { s.items[i] = asset; found = true; }
    }
    if (found) this.bus.emit('data');
    return found;
  }

  removeIds(ids) {
    const set = new Set(ids);
    let changed = false;
    for (const s of this.sections) {
      const before = s.items.length;
      s.items = s.items.filter((a) => !set.has(a.id));
      const removed = before - s.items.length;
      if (removed) { s.count = Math.max(s.items.length, s.count - removed); changed = true; }
    }
    if (changed) { this.sections = this.sections.filter((s) => s.count > 0 || !s.done); this.bus.emit('layout'); }
  }

  resetSection(s) {
    s.items = []; s.cursor = null; s.done = false; s.failed = null;
  }
}

/** The library timeline: one section per month (newest first), laid out from the months' counts. */
export class MonthSource extends BaseSource {
  constructor() { super(); this.kind = 'months'; this.grouped = true; }
  paramsFor(s) { return { year: s.year, month: s.month }; }

  async load() {
    this.restart();
    const res = await api.months();
    const old = new Map(this.sections.map((s) => [s.key, s]));
    this.sections = (res.collections || [])
      .filter((c) => c.assetCount > 0)
      .map((c) => {
        const prev = old.get(c.id);
        // videoCount: how many of the month's items are videos (its header and the top bar count them apart).
        const s = { key: c.id, title: c.title, year: c.year, month: c.month, count: c.assetCount, videos: c.videoCount || 0, items: [], cursor: null, done: false };
        // Keep what was loaded when nothing changed in that month.
        if (prev && prev.count === c.assetCount && prev.done) { s.items = prev.items; s.done = true; }
        return s;
      });
    this.loaded = true;
    this.error = null;
    this.bus.emit('layout');
  }

  /** Re-reads the months; months whose count changed are fetched again when visible. */
  async refresh() { await this.load(); }
}

/**
 * A flat list (Favorites, Recently Added, Edited, Hidden, an album, Recently Deleted): one section, paged by cursor.
 * `fetch` reads a page (by default `GET /assets`; Recently Deleted has its own route).
 */
export class ListSource extends BaseSource {
  constructor(params, { title = null, fetch = null } = {}) {
    super();
    this.kind = 'list';
    this.grouped = false;
    this.params = params;
    this.title = title;
    if (fetch) this.fetchAssets = fetch;
  }
  paramsFor() { return this.params; }

  /**
   * Reads the list's first page. A newer load (or show/clear) cancels it: its answer, if it still comes, is
   * dropped, so the list shows what was asked last (a search's latest words).
   */
  async load() {
    const generation = this.restart();
    const s = { key: 'all', title: this.title, count: 0, items: [], cursor: null, done: false };
    let page;
    try {
      page = await this.fetchAssets({ ...this.params, limit: PAGE }, this.requests.signal);
    } catch (e) {
      if (generation !== this.generation) return;
      throw e;
    }
    if (generation !== this.generation) return;
    s.items = page.assets || [];
    s.cursor = page.nextCursor || null;
    s.done = !page.nextCursor;
    s.count = typeof page.total === 'number' ? page.total : s.items.length;
    if (s.done) s.count = s.items.length;
    this.sections = s.count ? [s] : [];
    this.loaded = true;
    this.error = null;
    this.bus.emit('layout');
  }
  async refresh() { await this.load(); }

  /** Shows another list in place (a search's new words): what the old one asked for is cancelled. */
  show(params) {
    this.params = params;
    return this.load();
  }

  /** Empty, without asking the server (a search with no words yet); cancels what was asked. */
  clear() {
    this.restart();
    this.sections = [];
    this.loaded = true;
    this.error = null;
    this.bus.emit('layout');
  }

  /** Local reorder (album views), before the server confirms. */
  moveLocal(ids, index) {
    const s = this.sections[0];
    if (!s) return;
    const set = new Set(ids);
    const moving = s.items.filter((a) => set.has(a.id));
    const rest = s.items.filter((a) => !set.has(a.id));
    rest.splice(Math.min(index, rest.length), 0, ...moving);
    s.items = rest;
    this.bus.emit('data');
  }
}
