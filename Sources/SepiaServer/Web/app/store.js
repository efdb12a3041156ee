// App-wide state: the signed-in user, the album list, the smart albums (saved searches), the filter catalog, the
// copied edit, whether a camera exists, and the bus on which live changes are announced ('change', 'reset', 'albums',
// 'searches').
import { api } from './api.js';
import { createBus } from './util.js';

const COPIED_KEY = 'sepia.copiedEdit';

export const store = {
  bus: createBus(),
  user: null,
  credential: null,
  albums: [],
  smartAlbums: [],
  albumsLoaded: false,
  /** The saved searches, shown as smart albums: [{id, title, query, assetCount, coverAssetID, creationDate}], newest first. */
  savedSearches: [],
  savedSearchesLoaded: false,
  savedSearchesReading: null,
  catalogPromise: null,
  adjustmentsPromise: null,
  cameraAvailable: false,
  /** How many days deleted photos stay in Recently Deleted (the server says, with each page of it). */
  retentionDays: 30,
  /** Assets seen lately by id, so that a detail view can show something at once. */
  assets: new Map(),

  on(name, fn) { return this.bus.on(name, fn); },
  emit(name, data) { this.bus.emit(name, data); },

  rememberAssets(list) {
    for (const a of list || []) if (a?.id) this.assets.set(a.id, a);
    if (this.assets.size > 5000) {
      const drop = [...this.assets.keys()].slice(0, 1000);
      drop.forEach((k) => this.assets.delete(k));
    }
  },

  /** The number of items in Recently Deleted, from the smart albums' counts. */
  get recentlyDeletedCount() {
    return this.smartAlbums.find((a) => a.id === 'smart/recentlyDeleted')?.assetCount || 0;
  },

  /** Learns the server's retention from a page of Recently Deleted. */
  noteRetention(days) {
    if (Number.isInteger(days) && days > 0 && days !== this.retentionDays) { this.retentionDays = days; this.emit('retention', days); }
  },

  async loadAlbums() {
    const res = await api.albums();
    this.albums = res.albums || [];
    this.smartAlbums = res.smartAlbums || [];
    this.albumsLoaded = true;
    this.emit('albums', this.albums);
    return this.albums;
  },

  /**
   * Reads the saved searches (their counts are what their queries find now) and announces them with 'searches'. A
   * reading overtaken by a newer one resolves with the newer one's answer, so the newest list wins.
   */
  loadSavedSearches() {
    const reading = api.savedSearches().then((res) => {
      if (reading !== this.savedSearchesReading) return this.savedSearchesReading;
      this.savedSearches = res?.searches || [];
      this.savedSearchesLoaded = true;
      this.emit('searches', this.savedSearches);
      return this.savedSearches;
    }, (e) => {
      if (reading !== this.savedSearchesReading) return this.savedSearchesReading;
      throw e;
    });
    this.savedSearchesReading = reading;
    return reading;
  },

  catalog() {
    if (!this.catalogPromise) {
      this.catalogPromise = api.catalog().then((r) => (r.items || []).map((item, i) => ({ ...item, index: item.index ?? i })))
        .catch((e) => { this.catalogPromise = null; throw e; });
    }
    return this.catalogPromise;
  },

  /** The Adjust panel's sections and sliders (GET /filters/adjustments), fetched once. */
  adjustments() {
    if (!this.adjustmentsPromise) {
      this.adjustmentsPromise = api.adjustments().catch((e) => { this.adjustmentsPromise = null; throw e; });
    }
    return this.adjustmentsPromise;
  },

  // ----- Edit presets: fetched when first needed, kept in step with the app's own saves and deletions
  // ('presets' is emitted with the new list).
  presetsPromise: null,
  presets({ reload = false } = {}) {
    if (!this.presetsPromise || reload) {
      this.presetsPromise = api.presets().then((r) => r?.presets || [])
        .catch((e) => { this.presetsPromise = null; throw e; });
      this.presetsPromise.then((list) => this.emit('presets', list), () => {});
    }
    return this.presetsPromise;
  },
  async reloadPresets() {
    return this.presets({ reload: true });
  },

  get isOwner() {
    const u = this.user || {};
    return u.role === 'owner' || u.isOwner === true || u.kind === 'owner';
  },

  // ----- Copy / paste edits (kept in localStorage, so another tab can paste)
  copiedEdit() {
    try {
      const v = JSON.parse(localStorage.getItem(COPIED_KEY) || 'null');
      return v && Array.isArray(v.steps) ? v : null;
    } catch { return null; }
  },
  setCopiedEdit(value) {
    try { localStorage.setItem(COPIED_KEY, JSON.stringify(value)); } catch { /* private mode */ }
    this.emit('copied', value);
  },

  /**
   * Camera availability, like UIImagePickerController.isSourceTypeAvailable(.camera): a secure context,
   * getUserMedia, and at least one video input.
   */
  async detectCamera() {
    let available = false;
    if (window.isSecureContext && navigator.mediaDevices?.getUserMedia) {
      try {
        const devices = await navigator.mediaDevices.enumerateDevices();
        available = devices.some((d) => d.kind === 'videoinput');
      } catch { available = false; }
    }
    if (available !== this.cameraAvailable) { this.cameraAvailable = available; this.emit('camera', available); }
    this.cameraAvailable = available;
    return available;
  },
};

/** Whether a 'change' announcement adds, changes, deletes, moves to Recently Deleted or recovers any photo: what a
 *  view computed from the whole library (Places, the Map, Duplicates) reads itself again for. */
export function changesAssets(data) {
  const a = data?.assets || {};
  return Boolean(a.inserted?.length || a.updated?.length || a.deleted?.length || a.trashed?.length || a.recovered?.length);
}

