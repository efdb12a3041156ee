// The one place that talks to the server: fetch for JSON and images, XHR for uploads (progress),
// EventSource for the change stream. Every error is an ApiError carrying {status, error, message, detail}.

const BASE = '/api/v1';
let csrfToken = null;
let unauthorizedHandler = null;

/**
 * An error from the server (or the network) with the API's {status, error, message, detail}: `message` is a
 * sentence for people, shown as it is; `detail`, when the server gives one, the technical words (a decoder's,
 * the engine's) for a disclosure or the console, never the main text.
 */
export class ApiError extends Error {
  constructor(status, error, message, extra = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.error = error;
    this.detail = extra.detail || null;
    this.retryAfter = extra.retryAfter ?? null;
    this.requestID = extra.requestID ?? null;
    // Every detail reaches the console once, wherever the message is shown (a toast, a form).
    if (this.detail) console.info(`${message} Details: ${this.detail}` + (this.requestID ? ` (request ${this.requestID})` : ''));
  }
}

const FALLBACK = {
  0: 'Could not reach the Sepia server. Check your connection and try again.',
  400: 'The request was not accepted.',
  401: 'Your session has ended. Sign in again.',
  403: 'You are not allowed to do that.',
  404: 'That no longer exists.',
  409: 'That conflicts with a change made meanwhile. Reload and try again.',
  410: 'That link has expired.',
  413: 'That is too large for the server.',
  415: 'That is not a photo format Sepia can read.',
  422: 'The server could not process that.',
  429: 'Too many attempts. Wait a moment and try again.',
  500: 'The server ran into a problem. Try again.',
  503: 'The server is busy or restarting. Try again in a moment.',
};

function fallbackMessage(status) {
  return FALLBACK[status] || (status >= 500 ? FALLBACK[500] : `The request failed (HTTP ${status}).`);
}

function parseRetryAfter(value) {
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, Math.round(seconds));
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, Math.round((date - Date.now()) / 1000)) : null;
}

const text = (v) => (typeof v === 'string' && v.trim() ? v.trim() : null);

/**
 * What an error answer says: {message, detail}. With `detail` present, `message` is the server's sentence for
 * people and is shown exactly as sent. Servers from before `detail` wrote messages in lower case (they follow
 * what failed in the log: "a password needs at least 10 characters"): their first word gets a capital when
 * it is a plain lower-case word followed by a space, so that a message starting with a name
 * ("truncated.jpg: …", "'ids' …") is never altered.
 */
function describe(body, status) {
  const message = text(body?.message);
  const detail = text(body?.detail);
  if (!message) return { message: fallbackMessage(status), detail };
  if (detail) return { message, detail };
  return { message: /^[a-z]+ /.test(message) ? message[0].toUpperCase() + message.slice(1) : message, detail: null };
}

function parseBody(raw) {
  try { return raw ? JSON.parse(raw) : null; } catch { return null; }
}

async function errorFromResponse(response) {
  let body = null;
  try { body = parseBody(await response.text()); } catch { body = null; }
  const { message, detail } = describe(body, response.status);
  return new ApiError(response.status, body?.error || 'http_' + response.status, message, {
    detail,
    retryAfter: parseRetryAfter(response.headers.get('Retry-After')),
    requestID: response.headers.get('X-Request-ID'),
  });
}

/** Sentences for a refused upload, by status, where the server gave only technical words. */
const UPLOAD_REFUSED = {
  413: 'The file is larger than the server accepts.',
  415: 'This file is not a photo Sepia can read.',
  422: 'The file is incomplete or damaged.',
};

function errorFromXHR(xhr, filename) {
  const body = parseBody(xhr.responseText);
  let { message, detail } = describe(body, xhr.status);
  // Servers from before `detail` answered a file they could not read with its name and the decoder's words
  // as the message ("photo.jpg: damaged data: Premature end of JPEG file (refused in strict mode)"): those
  // words become the detail, and the message a sentence for people.
  const raw = text(body?.message);
  if (!detail && raw && filename && raw.startsWith(filename + ': ') && UPLOAD_REFUSED[xhr.status]) {
    message = UPLOAD_REFUSED[xhr.status];
    detail = raw.slice(filename.length + 2);
  }
  return new ApiError(xhr.status, body?.error || 'http_' + xhr.status, message, {
    detail,
    retryAfter: parseRetryAfter(xhr.getResponseHeader('Retry-After')),
    requestID: xhr.getResponseHeader('X-Request-ID'),
  });
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A query string, percent-encoded (a space is %20, never '+', which the server reads as a plus sign). */
function query(params = {}) {
  const parts = [];
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null || v === '' || v === false) continue;
    parts.push(encodeURIComponent(k) + '=' + encodeURIComponent(String(v)));
  }
  return parts.length ? '?' + parts.join('&') : '';
}

/**
 * One request. `json` is sent as the JSON body; `body` as is. `as` chooses what is returned:
 * 'json' (default), 'blob', 'response'. A 401 calls the unauthorized handler (unless `quiet401`).
 */
async function request(method, path, { json, body, headers = {}, signal, as = 'json', quiet401 = false, priority } = {}) {
  const h = { Accept: as === 'json' ? 'application/json' : '*/*', ...headers };
  let payload = body;
  if (json !== undefined) {
    h['Content-Type'] = 'application/json';
    payload = JSON.stringify(json);
  }
  if (STATE_CHANGING.has(method) && csrfToken) h['X-CSRF-Token'] = csrfToken;
  let response;
  for (let attempt = 0; ; attempt++) {
    try {
      response = await fetch(path.startsWith('/') ? path : BASE + '/' + path, {
        method, headers: h, body: payload, signal, credentials: 'same-origin', cache: 'no-cache', ...(priority ? { priority } : {}),
      });
    } catch (e) {
      if (e?.name === 'AbortError') throw e;
      throw new ApiError(0, 'network', FALLBACK[0]);
    }
    // A read the server asks to send again in a moment (an account runs a few searches, map and Duplicates
    // queries at once): sent again after the wait it names, a few times, unless the caller gave up meanwhile.
    const wait = parseRetryAfter(response.headers.get('Retry-After'));
    if (!(method === 'GET' && response.status === 429 && wait && wait <= 2 && attempt < 5)) break;
    await new Promise((resolve) => setTimeout(resolve, wait * 1000));
    if (signal?.aborted) throw new DOMException('The request was cancelled.', 'AbortError');
  }
  if (!response.ok) {
    const err = await errorFromResponse(response);
    if (response.status === 401 && !quiet401 && unauthorizedHandler) unauthorizedHandler(err);
    throw err;
  }
  if (as === 'response') return response;
  if (as === 'blob') return response.blob();
  if (response.status === 204) return null;
  const text = await response.text();
  return text ? JSON.parse(text) : null;
}

const get = (p, o) => request('GET', p, o);
const post = (p, json, o = {}) => request('POST', p, { json, ...o });
const put = (p, json, o = {}) => request('PUT', p, { json, ...o });
const patch = (p, json, o = {}) => request('PATCH', p, { json, ...o });
const del = (p, o) => request('DELETE', p, o);
const enc = encodeURIComponent;

/** Image rendition URL; `v` (the asset's version) makes it cacheable forever. */
function imageURL(id, { size, mode = 'fill', v, format } = {}) {
  return `${BASE}/assets/${enc(id)}/image` + query({ size, mode, format, v });
}

/**
 * Resolves to `url`, an item's motion (videoURL, sharedVideoURL), once the server can play it: at once when the
 * original plays or its playable version exists; while the version is being made (202), after asking again every
 * Retry-After seconds (1 to 30), calling `onWait` at each 202. Resolves to null as soon as `wanted()` is false
 * (the view has moved on). When the server cannot be asked, resolves to `url`, for the player to report.
 */
async function whenPlayable(url, { wanted = () => true, onWait, credentials = 'same-origin' } = {}) {
  try {
    for (;;) {
      const response = await fetch(url, { method: 'HEAD', credentials });
      if (!wanted()) return null;
      if (response.status !== 202) return url;
      onWait?.();
      const wait = Math.min(30, Math.max(1, parseRetryAfter(response.headers.get('Retry-After')) || 5));
      await new Promise((resolve) => setTimeout(resolve, wait * 1000));
      if (!wanted()) return null;
    }
  } catch {
    return wanted() ? url : null;
  }
}

export const api = {
  setCsrfToken(token) { csrfToken = token || null; },
  get csrfToken() { return csrfToken; },
  onUnauthorized(fn) { unauthorizedHandler = fn; },

  // ----- Setup, session, account
  setupInfo: (token) => get(`${BASE}/setup/${enc(token)}`, { quiet401: true }),
  setup: (token, username, password) =>
    post(`${BASE}/setup`, { token, username, password }, { quiet401: true }),
  session: () => get(`${BASE}/session`, { quiet401: true }),
  login: (username, password) => post(`${BASE}/session`, { username, password }, { quiet401: true }),
  /** The sign-in's second step: {challenge, code} or {challenge, recoveryCode}. */
  secondFactor: (body) => post(`${BASE}/session/second-factor`, body, { quiet401: true }),
  twoFactorStatus: () => get(`${BASE}/account/two-factor`),
  twoFactorSetup: (password) => post(`${BASE}/account/two-factor/setup`, { password }),
  twoFactorConfirm: (code) => post(`${BASE}/account/two-factor/confirm`, { code }),
  twoFactorRecoveryCodes: (password) => post(`${BASE}/account/two-factor/recovery-codes`, { password }),
  twoFactorOff: (password) => post(`${BASE}/account/two-factor/off`, { password }),
  resetTwoFactor: (userID) => del(`${BASE}/users/${encodeURIComponent(userID)}/two-factor`),
  /** The browsers the account is signed in on; signing one out, or every other. */
  sessions: () => get(`${BASE}/account/sessions`),
  signOutSession: (id) => del(`${BASE}/account/sessions/${enc(id)}`),
  signOutOtherSessions: () => post(`${BASE}/account/sessions/sign-out-others`),
  logout: () => del(`${BASE}/session`, { quiet401: true }),
  changePassword: (currentPassword, newPassword) =>
    put(`${BASE}/account/password`, { currentPassword, newPassword }),

  // ----- Tokens, shares, users
  tokens: () => get(`${BASE}/tokens`),
  createToken: (body) => post(`${BASE}/tokens`, body),
  revokeToken: (id) => del(`${BASE}/tokens/${enc(id)}`),
  shares: () => get(`${BASE}/shares`),
  createShare: (body) => post(`${BASE}/shares`, body),
  revokeShare: (id) => del(`${BASE}/shares/${enc(id)}`),
  shared: (token, { cursor, limit } = {}) => get(`${BASE}/shared/${enc(token)}` + query({ cursor, limit }), { quiet401: true }),
  /** What a browser plays for a shared video's or Live Photo's motion (202 while its playable version is made). */
  sharedVideoURL: (token, id) => `${BASE}/shared/${enc(token)}/assets/${enc(id)}/video`,
  sharedImageURL: (token, id, { size, mode = 'fit', format, v } = {}) =>
    `${BASE}/shared/${enc(token)}/assets/${enc(id)}/image` + query({ size, mode, format, v }),
  users: () => get(`${BASE}/users`),
  invite: (expiresInHours) => post(`${BASE}/users/invitations`, expiresInHours ? { expiresInHours } : {}),
  removeUser: (id) => del(`${BASE}/users/${enc(id)}`),

  // ----- Assets
  assets: (params, signal) => get(`${BASE}/assets` + query(params), { signal }),
  asset: (id, signal) => get(`${BASE}/assets/${enc(id)}`, { signal }),
  patchAsset: (id, body) => patch(`${BASE}/assets/${enc(id)}`, body),
  patchAssets: (ids, body) => patch(`${BASE}/assets`, { ids, ...body }),
  /** To Recently Deleted; with `permanently`, for good (from Recently Deleted or not). */
  deleteAsset: (id, { permanently = false } = {}) => del(`${BASE}/assets/${enc(id)}` + query({ permanently: permanently || undefined })),
  deleteAssets: (ids, { permanently = false } = {}) => post(`${BASE}/assets/delete`, permanently ? { ids, permanently } : { ids }),
  /** A page of Recently Deleted, newest deletion first: {assets, nextCursor, total, retentionDays}. */
  recentlyDeleted: (params, signal) => get(`${BASE}/recently-deleted` + query(params), { signal }),
  recoverAsset: (id) => post(`${BASE}/assets/${enc(id)}/recover`, {}),
  /** Gives a photo what its XMP sidecar says (rating, title, keywords, date, place, crop): {asset, warnings}. */
  putSidecar: (id, file) => request('PUT', `${BASE}/assets/${enc(id)}/sidecar` + query({ filename: file.name }), {
    body: file, headers: { 'Content-Type': 'application/rdf+xml' },
  }),
  recoverAssets: (ids) => post(`${BASE}/assets/recover`, { ids }),
  imageURL,
  originalURL: (id) => `${BASE}/assets/${enc(id)}/original`,
  currentURL: (id) => `${BASE}/assets/${enc(id)}/current`,
  /**
   * What the browser plays for an item's motion (a video, a Live Photo's movie), with byte ranges: its playable
   * version (H.264/AAC MP4) or the original when that plays as it is. Answers 202 while the version is made.
   */
  videoURL: (id) => `${BASE}/assets/${enc(id)}/video`,
  whenPlayable,
  /**
   * ZIP downloads, saved by the browser as it navigates to them (a fetch would hold the whole archive in memory):
   * an album's URL; a selection's, which the server makes first (POST, then the answered `url`); a share link's.
   */
  albumDownloadURL: (id, version) => `${BASE}/albums/${enc(id)}/download` + query({ version }),
  createDownload: (ids, version) => post(`${BASE}/downloads`, { ids, version }),
  sharedDownloadURL: (token, version) => `${BASE}/shared/${enc(token)}/download` + query({ version }),
  /** One of an item's files (`video`, a Live Photo's `pairedVideo`, …), served with byte ranges. */
  resourceURL: (id, type) => `${BASE}/assets/${enc(id)}/resources/${enc(type)}`,
  /** Fetches a URL under /api as a Blob (used to share a rendered file). */
  blob: (url, signal) => get(url, { as: 'blob', signal }),

  // ----- Editing
  edit: (id) => get(`${BASE}/assets/${enc(id)}/edit`),
  saveEdit: (id, recipe) => put(`${BASE}/assets/${enc(id)}/edit`, recipe),
  revertEdit: (id) => del(`${BASE}/assets/${enc(id)}/edit`),
  /** Renders a recipe without saving; resolves to a Blob. `priority: 'low'` for renders not yet shown (keyframes). */
  preview: (id, recipe, { size, format = 'jpeg', signal, priority } = {}) =>
    request('POST', `${BASE}/assets/${enc(id)}/preview`, {
      json: { recipe, size, format }, as: 'blob', signal, priority,
    }),
  /** The filter strip: one image with a tile per catalog entry. Resolves to {blob, count}. */
  async strip(id, size, signal) {
    const response = await request('GET', `${BASE}/assets/${enc(id)}/strip` + query({ size }), { as: 'response', signal });
    const count = Number(response.headers.get('X-Sepia-Strip-Count')) || null;
    return { blob: await response.blob(), count };
  },

  /**
   * The preset strip: one image with a tile per preset of the user's, and the presets' ids in the order of
   * the tiles (X-Sepia-Strip-Presets: the list may have changed since it was read). Resolves to {blob, ids}.
   */
  async presetStrip(id, size, signal) {
    const response = await request('GET', `${BASE}/assets/${enc(id)}/preset-strip` + query({ size }), { as: 'response', signal });
    const ids = (response.headers.get('X-Sepia-Strip-Presets') || '').split(',').map((x) => x.trim()).filter(Boolean);
    return { blob: await response.blob(), ids };
  },

  // ----- Edit presets (the user's own: a look and adjustments, kept by name)
  /** {presets: [{id, name, recipe, creationDate}]}, by name. */
  presets: () => get(`${BASE}/presets`),
  /** 201 with the preset; 409 when the name is taken and `replace` is not set; 422 when nothing is left to keep. */
  savePreset: (name, recipe, { replace = false } = {}) => post(`${BASE}/presets`, { name, recipe, replace }),
  deletePreset: (id) => del(`${BASE}/presets/${enc(id)}`),

  // ----- Filters
  filters: () => get(`${BASE}/filters`),
  catalog: () => get(`${BASE}/filters/catalog`),
  /** The Adjust panel: {sections: [{id, title, adjustments: [{id, name, minimum, positive, negative}]}]}. */
  adjustments: () => get(`${BASE}/filters/adjustments`),
  /** Auto: slider positions from the histogram of `recipe`'s result (RAW development and geometry). */
  autoAdjust: (id, recipe, { signal } = {}) => request('POST', `${BASE}/assets/${enc(id)}/auto-adjust`, { json: { recipe }, signal }),

  // ----- People: faces found in the photos, grouped into people (docs/api.md, People)
  /** {people: [Person]}: named first, then most photos; `hidden` lists hidden people too. */
  people: ({ hidden = false } = {}, signal) => get(`${BASE}/people` + query({ hidden: hidden || undefined }), { signal }),
  person: (id, signal) => get(`${BASE}/people/${enc(id)}`, { signal }),
  /** Any of {name: string|null, isHidden, keyFaceID} → Person. */
  patchPerson: (id, body) => patch(`${BASE}/people/${enc(id)}`, body),
  /** Merges `sources` into the person `id` → {person, undo}. */
  mergePeople: (id, sources) => post(`${BASE}/people/${enc(id)}/merge`, { people: sources }),
  /** Undoes a change to people (a merge, an assignment, a Not this person) → {undo} (the redo). */
  undoPeople: (token) => post(`${BASE}/people/undo`, { undo: token }),
  peopleStatus: (signal) => get(`${BASE}/people/status`, { signal }),
  setFacesEnabled: (enabled) => put(`${BASE}/people/settings`, { enabled }),
  /** {faces: [{id, boundingBox, confidence, personID, personName, state}]}: an asset's faces, its box normalised in the picture as shown. */
  assetFaces: (id, signal) => get(`${BASE}/assets/${enc(id)}/faces`, { signal }),
  /** Says whose face it is: {personID} or {name} (a new person, or the one of that name) → {face, person, undo}. */
  assignFace: (id, who) => put(`${BASE}/faces/${enc(id)}/person`, who),
  /** "Not this person" → {face, undo}. */
  rejectFace: (id) => del(`${BASE}/faces/${enc(id)}/person`),
  /** A square JPEG of a face, `size` pixels a side. */
  /** A face's picture; with its version (a person's keyFace.version) the browser keeps it for good. */
  faceImageURL: (id, size = 256, v = null) => `${BASE}/faces/${enc(id)}/image` + query({ size, v }),

  // ----- Places: the cities and countries photos were taken in, found from their locations (docs/api.md, Places)
  /**
   * {countries: [{countryCode, country, assetCount, keyAssetID, cities: [{id, city, region, latitude, longitude,
   * assetCount, keyAssetID}]}]}: countries with the most photos first, and in each its cities the same way.
   */
  places: (signal) => get(`${BASE}/places`, { signal }),
  /** {locatedAssets, placedAssets, waitingAssets, cityCount, problem}: how far placing has come, and why it cannot. */
  placesStatus: (signal) => get(`${BASE}/places/status`, { signal }),

  // ----- Map: the located photos where they were taken (docs/openapi.yaml, /map)
  /** {baseMap, tiles}: whether the base map's country shapes are installed, and the tile server's URL template when the deployment names one. */
  mapSettings: (signal) => get(`${BASE}/map`, { signal }),
  /**
   * {items: [{id, latitude, longitude}], clusters: [{latitude, longitude, count, keyAssetID}], total}: a region's located
   * photos one by one while there are at most `limit` (500), else counted in cells of about 64 px at `zoom`.
   */
  mapMarkers: (params, signal) => get(`${BASE}/map/markers` + query(params), { signal }),
  /** The base map: Natural Earth's countries as GeoJSON (public, like the app's own files). */
  mapCountries: (signal) => get('/map/countries.geojson', { signal }),

  // ----- Search: one box for words, places, albums, people, kinds and dates (docs/openapi.yaml, /search)
  /** A page of what `q` finds, newest first: {assets, nextCursor, total, terms: [{kind, value}]} (how `q` was read). */
  search: (params, signal) => get(`${BASE}/search` + query(params), { signal }),
  /** What the last word of `q` may mean: {word, places, keywords, albums, people}. */
  searchSuggestions: (params, signal) => get(`${BASE}/search/suggestions` + query(params), { signal }),

  // ----- Saved searches: smart albums, whose photos are what their query finds now (docs/search.md)
  /** {searches: [{id, title, query, assetCount, coverAssetID, creationDate}]}, newest first; `assetCount` counted now. */
  savedSearches: (signal) => get(`${BASE}/searches`, { signal }),
  /** 201 with the saved search; 422 with a sentence when the title or the query is refused, or when the library has 100. */
  createSavedSearch: (title, q) => post(`${BASE}/searches`, { title, query: q }),
  /** Any of {title, query} → the saved search. */
  patchSavedSearch: (id, body) => patch(`${BASE}/searches/${enc(id)}`, body),
  deleteSavedSearch: (id) => del(`${BASE}/searches/${enc(id)}`),

  // ----- Duplicates: near-identical photos grouped by their perceptual hashes (docs/duplicates.md)
  /**
   * A page of the groups, the one with the newest item first: {groups: [{id, keepAssetID, keepReason, assets: [Asset],
   * distances: {assetID: bits}}], total, hashedAssets, waitingAssets, unreadableAssets}; each group's proposed keep
   * first, then the others nearest first.
   */
  duplicates: (params, signal) => get(`${BASE}/duplicates` + query(params), { signal }),
  /** "Not duplicates": these photos are never grouped together again (204). */
  dismissDuplicates: (ids) => post(`${BASE}/duplicates/dismissals`, { assets: ids }),
  /** Undoes a dismissal of these photos (204). */
  undismissDuplicates: (ids) => request('DELETE', `${BASE}/duplicates/dismissals`, { json: { assets: ids } }),

  // ----- Albums and the timeline
  albums: () => get(`${BASE}/albums`),
  album: (id) => get(`${BASE}/albums/${enc(id)}`),
  createAlbum: (title) => post(`${BASE}/albums`, { title }),
  renameAlbum: (id, title) => patch(`${BASE}/albums/${enc(id)}`, { title }),
  deleteAlbum: (id) => del(`${BASE}/albums/${enc(id)}`),
  addToAlbum: (id, ids, index) => post(`${BASE}/albums/${enc(id)}/assets`, index == null ? { ids } : { ids, index }),
  removeFromAlbum: (id, ids) => post(`${BASE}/albums/${enc(id)}/assets/remove`, { ids }),
  moveInAlbum: (id, ids, index) => post(`${BASE}/albums/${enc(id)}/assets/move`, { ids, index }),
  years: () => get(`${BASE}/collections/years`),
  months: (year) => get(`${BASE}/collections/months` + query({ year })),

  /**
   * Uploads one file with XHR so that progress can be shown.
   * Returns {promise, abort}; the promise resolves to the JSON answer plus `httpStatus`.
   */
  upload(file, { filename, modified, album } = {}, onProgress) {
    const xhr = new XMLHttpRequest();
    const name = filename || file.name || 'photo.jpg';
    const promise = new Promise((resolve, reject) => {
      xhr.open('POST', `${BASE}/assets` + query({ filename: name, modified, album }));
      xhr.withCredentials = true;
      if (csrfToken) xhr.setRequestHeader('X-CSRF-Token', csrfToken);
      xhr.setRequestHeader('Accept', 'application/json');
      if (file.type) xhr.setRequestHeader('Content-Type', file.type);
      else xhr.setRequestHeader('Content-Type', 'application/octet-stream');
      xhr.upload.onprogress = (e) => { if (e.lengthComputable && onProgress) onProgress(e.loaded, e.total); };
      xhr.onload = () => {
        if (xhr.status >= 200 && xhr.status < 300) {
          let body = null;
          try { body = JSON.parse(xhr.responseText); } catch { body = {}; }
          resolve({ ...body, httpStatus: xhr.status });
        } else {
          const err = errorFromXHR(xhr, name);
          if (xhr.status === 401 && unauthorizedHandler) unauthorizedHandler(err);
          reject(err);
        }
      };
      xhr.onerror = () => reject(new ApiError(0, 'network', 'The upload was interrupted: the server could not be reached.'));
      xhr.onabort = () => reject(new ApiError(0, 'aborted', 'Upload cancelled.'));
      xhr.send(file);
    });
    return { promise, abort: () => xhr.abort() };
  },

  /**
   * Opens the change stream. handlers: {change(data, id), reset(), open(), down()}.
   * EventSource reconnects by itself (with Last-Event-ID); when the browser gives up (the server
   * answered with an error), we reconnect with `since=` after a back-off. Returns {close()}.
   */
  changes(handlers) {
    let source = null;
    let lastID = null;
    let closed = false;
    let timer = null;
    let backoff = 1000;
    const connect = () => {
      if (closed) return;
      source = new EventSource(`${BASE}/changes` + query({ since: lastID }), { withCredentials: true });
      source.onopen = () => { backoff = 1000; handlers.open?.(); };
      source.addEventListener('change', (e) => {
        if (e.lastEventId) lastID = e.lastEventId;
        let data = null;
        try { data = JSON.parse(e.data); } catch { return; }
        if (data?.generation != null) lastID = String(data.generation);
        handlers.change?.(data);
      });
      // A stream opened without a position first says where the log stands.
      source.addEventListener('ready', (e) => {
        try { const d = JSON.parse(e.data); if (d?.generation != null) lastID = String(d.generation); } catch { /* ignore */ }
        if (e.lastEventId) lastID = e.lastEventId;
      });
      source.addEventListener('reset', (e) => {
        if (e.lastEventId) lastID = e.lastEventId;
        handlers.reset?.();
      });
      // How far the playable versions being made have come: {"assets": {"<id>": 0.42}}; and, while the library's
      // faces are being found, how far that has come: "faces": 0.9.
      source.addEventListener('progress', (e) => {
        try { handlers.progress?.(JSON.parse(e.data)); } catch { /* ignore */ }
      });
      source.onerror = () => {
        if (closed) return;
        handlers.down?.();
        if (source.readyState === EventSource.CLOSED) {
          // The browser gave up (an error status, e.g. after a restart). Find out whether the session is
          // still good (a 401 ends the app's session), then try again with back-off.
          source = null;
          clearTimeout(timer);
          timer = setTimeout(() => {
            request('GET', `${BASE}/session`).then(connect, (e) => { if (e.status !== 401 && !closed) { timer = setTimeout(connect, backoff); } });
          }, backoff);
          backoff = Math.min(backoff * 2, 30000);
        }
      };
    };
    // A page kept in the back/forward cache must not hold its stream: browsers allow six connections to
    // one server over HTTP/1.1, and cached pages' streams would take them all. The stream resumes from its
    // last position when the page is shown again.
    const onHide = () => { clearTimeout(timer); source?.close(); source = null; };
    const onShow = () => { if (!closed && !source) connect(); };
    window.addEventListener('pagehide', onHide);
    window.addEventListener('pageshow', onShow);
    connect();
    return {
      close() {
        closed = true;
        clearTimeout(timer);
        source?.close();
        window.removeEventListener('pagehide', onHide);
        window.removeEventListener('pageshow', onShow);
      },
      get connected() { return source?.readyState === EventSource.OPEN; },
    };
  },
};
