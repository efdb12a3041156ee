// The Map: every located photo where it was taken. The base map is Natural Earth's country shapes, drawn in the
// app's colours with nothing asked of any other server; a deployment that names a tile server (`--map-tiles`) gets
// its tiles instead. Leaflet and its marker-cluster plug-in (Debian's copies, served from /vendor/leaflet) load when
// the Map is first opened, not with the app.
//
// The server answers a region's markers (`GET /map/markers`): its photos one by one while there are at most 500 of
// them, each drawn as a small round thumbnail (the ones that overlap are grouped on the map as the plug-in's
// clusters), else counted in cells of about 64 px, each drawn as a circle with its count that zooms in when chosen.
// Beside the map (below it on a phone) the photos of the view, while there are few enough to list.
import { api } from '../api.js';
import { h, plural, bucket, dpr, debounce, formatCoordinate, prefersReducedMotion } from '../util.js';
import { icon } from '../icons.js';
import { store, changesAssets } from '../store.js';

const VENDOR = '/vendor/leaflet';
/** How long the view rests before its markers are asked for: a drag or a run of zoom steps asks once. */
const SETTLE_MS = 250;
/** A photo's marker, in CSS pixels. */
const PHOTO_PX = 44;
/** The deepest zoom the view is fitted to: a city, not a street, when all the photos were taken in one place. */
const FIT_MAX_ZOOM = 10;

// ---------------------------------------------------------------- Leaflet, loaded once

let leafletLoad = null;

/**
 * Leaflet and the marker-cluster plug-in, with their style sheets: `window.L` once they are in. The style sheets go
 * before the app's own, so that the app's rules (the map's colours, its controls) win over Leaflet's defaults of
 * the same weight. A failed load is tried again on the next opening.
 */
function loadLeaflet() {
  if (window.L?.MarkerClusterGroup) return Promise.resolve(window.L);
  if (!leafletLoad) {
    leafletLoad = (async () => {
      const first = document.querySelector('link[rel="stylesheet"]');
      const sheets = ['leaflet.css', 'MarkerCluster.css'].map((name) => new Promise((resolve, reject) => {
        const link = h('link', { rel: 'stylesheet', href: `${VENDOR}/${name}`, 'data-vendor': 'leaflet' });
        link.addEventListener('load', resolve, { once: true });
        link.addEventListener('error', () => reject(new Error(`${name} did not load`)), { once: true });
        document.head.insertBefore(link, first);
      }));
      // The plug-in extends `L`: it runs after Leaflet.
      await script(`${VENDOR}/leaflet.js`);
      await script(`${VENDOR}/leaflet.markercluster.js`);
      await Promise.all(sheets);
      if (!window.L?.MarkerClusterGroup) throw new Error('Leaflet did not start');
      return window.L;
    })();
    leafletLoad.catch(() => {
      leafletLoad = null;
      for (const el of document.querySelectorAll('[data-vendor="leaflet"]')) el.remove();
    });
  }
  return leafletLoad;
}

function script(src) {
  return new Promise((resolve, reject) => {
    const el = h('script', { src, 'data-vendor': 'leaflet' });
    el.addEventListener('load', resolve, { once: true });
    el.addEventListener('error', () => reject(new Error(`${src} did not load`)), { once: true });
    document.head.append(el);
  });
}

/** Text for Leaflet's attribution, which it writes as HTML. */
const escapeHTML = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
const credit = (href, text) => `<a href="${href}" target="_blank" rel="noopener noreferrer">${text}</a>`;

/** The tile server's host, as its attribution names it (the server checked the URL has one). */
function tileHost(template) {
  try { return new URL(template.replace(/\{[a-z]+\}/gi, '0')).host; } catch { return template.replace(/^[a-z]+:\/\/([^/]+).*$/i, '$1'); }
}

/** Where a photo was taken, as a marker's or a link's name says it. */
const placeLabel = (lat, lng) => `${formatCoordinate(lat, 'N', 'S')}, ${formatCoordinate(lng, 'E', 'W')}`;

// ---------------------------------------------------------------- the screen

export function mountMap(container, params, ctx) {
  const offs = [];
  let gone = false;
  let L = null;
  let map = null;
  let photoLayer = null;  // the photos one by one, grouped where they overlap (the plug-in's clusters)
  let cellLayer = null;   // the server's cells, while the view holds too many photos to list
  let resize = null;
  let located = null;     // how many located photos the library has; null until the first answer
  let requests = null;    // the view's markers request in flight, cancelled by a newer one and on leaving
  let worldRequest = null; // the whole world's, which counts the located photos and fits the map to them
  let lastAsked = '';     // the query of the markers on screen, so that a view that did not change asks nothing

  // ----- Top bar
  const count = h('span', { class: 'topbar-subtitle', 'data-testid': 'map-count' }, '');
  const topbar = h('header', { class: 'topbar' },
    h('button', { type: 'button', class: 'btn icon ghost menu-btn', 'data-testid': 'menu-button', aria: { label: 'Open menu', controls: 'sidebar' }, onclick: () => ctx.shell.openMenu() }, icon('menu')),
    h('div', { class: 'topbar-titles' }, h('h1', { id: 'map-title', class: 'topbar-title', 'data-testid': 'screen-title' }, 'Map'), count),
    h('div', { class: 'topbar-spacer' }));

  // ----- The map, a note over it (the base map missing), the empty state, and the view's photos
  const hintID = 'map-keys-hint';
  const canvas = h('div', {
    class: 'map-canvas', 'data-testid': 'map', role: 'region', 'aria-roledescription': 'map',
    aria: { label: 'Map of where your photos were taken', describedby: hintID },
  });
  const note = h('p', { class: 'map-note', 'data-testid': 'map-note', hidden: true });
  const empty = h('div', { class: 'map-empty-wrap', hidden: true });
  const loading = h('div', { class: 'map-loading', role: 'status' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), h('span', {}, 'Loading the map…'));
  const stage = h('div', { class: 'map-stage' }, canvas, note, empty, loading);

  const areaCount = h('span', { class: 'hint map-area-count', 'data-testid': 'map-area-count' }, '');
  const areaList = h('ul', { class: 'map-area-grid', 'data-testid': 'map-area-photos', aria: { labelledby: 'map-area-title' } });
  const areaNote = h('p', { class: 'map-area-note', 'data-testid': 'map-area-note', hidden: true });
  const area = h('section', { class: 'map-area', 'data-testid': 'map-area', aria: { labelledby: 'map-area-title' } },
    h('div', { class: 'map-area-head' }, h('h2', { id: 'map-area-title', class: 'map-area-title' }, 'In this area'), areaCount),
    areaNote, areaList,
    h('p', { id: hintID, class: 'hint map-keys' }, 'Drag the map or use the arrow keys to move it, + and − to zoom; Tab goes through the photos on it.'));

  const el = h('section', { class: 'screen map-screen', 'data-state': 'loading', aria: { labelledby: 'map-title' } },
    topbar, h('div', { class: 'map-body' }, stage, area));
  container.append(el);

  // ----- Starting: Leaflet, the settings, the base map, then the photos
  async function start() {
    try {
      const [leaflet, settings] = await Promise.all([loadLeaflet(), api.mapSettings()]);
      if (gone) return;
      L = leaflet;
      createMap();
      await drawBase(settings);
      if (gone) return;
      await fitToPhotos();
    } catch (e) {
      if (gone || e?.name === 'AbortError') return;
      console.warn(e);
      loading.hidden = true;
      el.dataset.state = 'failed';
      showEmpty(h('div', { class: 'empty map-empty', role: 'alert' }, icon('cloudOff', { cls: 'empty-icon' }),
        h('h2', {}, 'The map could not be loaded'),
        h('p', {}, e.status != null ? e.message : 'Its library (Leaflet, which scripts/setup installs) did not load. Check the connection and try again.'),
        h('div', { class: 'actions' }, h('button', { type: 'button', class: 'btn primary', onclick: () => location.reload() }, 'Try Again'))));
    }
  }

  function createMap() {
    // Zooming glides unless motion is to be reduced.
    const animate = !prefersReducedMotion();
    map = L.map(canvas, {
      zoomAnimation: animate,
      fadeAnimation: animate,
      markerZoomAnimation: animate,
      // One world, with its copies to either side while panning; the view jumps back onto the middle copy, so that
      // a region asked for is never more than a world from it.
      worldCopyJump: true,
      minZoom: 1,
      maxZoom: 18,
      keyboard: true,
      attributionControl: false,
      zoomControl: true,
      maxBounds: L.latLngBounds([-90, -540], [90, 540]),
      maxBoundsViscosity: 1,
    });
    L.control.attribution({ prefix: credit('https://leafletjs.com', 'Leaflet') }).addTo(map);
    map.setView([20, 0], 2);

    // Leaflet's zoom buttons are links: say when one can do nothing more, as a disabled button would.
    const zoomButtons = () => {
      for (const a of canvas.querySelectorAll('.leaflet-control-zoom a')) a.setAttribute('aria-disabled', String(a.classList.contains('leaflet-disabled')));
    };
    map.on('zoomend', zoomButtons);
    zoomButtons();

    photoLayer = L.markerClusterGroup({
      maxClusterRadius: PHOTO_PX + 4,
      showCoverageOnHover: false,
      spiderfyOnMaxZoom: true,
      animate,
      iconCreateFunction: (cluster) => countIcon(cluster.getChildCount(), cluster.getLatLng()),
    }).addTo(map);
    cellLayer = L.layerGroup().addTo(map);

    map.on('moveend zoomend', () => { el.dataset.state = 'loading'; refresh(); });
    // The map's box changes with the window and the panel beside it: Leaflet measures it again.
    resize = new ResizeObserver(() => map?.invalidateSize({ pan: false }));
    resize.observe(canvas);
    // The tests read the map as a person sees it: where a place is drawn on the screen.
    window.sepiaMap = map;
  }

  /** The base map: the tile server's tiles, else the country shapes, else a plain sea and a note saying why. */
  async function drawBase(settings) {
    if (settings?.tiles) {
      L.tileLayer(settings.tiles, { attribution: `Tiles: ${escapeHTML(tileHost(settings.tiles))}`, maxZoom: 19 }).addTo(map);
      return;
    }
    let shapes = null;
    if (settings?.baseMap) {
      try {
        shapes = await api.mapCountries();
      } catch (e) {
        if (e?.name === 'AbortError') throw e;
        console.warn(e);
      }
    }
    if (gone) return;
    if (!shapes) {
      note.replaceChildren('The base map is not installed, so the photos are shown without it. ',
        h('code', {}, 'scripts/setup'), ' installs it (Natural Earth’s country shapes).');
      note.hidden = false;
      return;
    }
    // The shapes once, and their copies a world to either side, so that a view across the date line has land
    // on both sides of it. Only the middle copy names where the shapes come from (Leaflet lists a source once).
    for (const shift of [0, -360, 360]) {
      L.geoJSON(shapes, {
        interactive: false,
        style: { className: 'map-land', weight: 0.6, fillOpacity: 1, opacity: 1 },
        coordsToLatLng: (c) => L.latLng(c[1], c[0] + shift),
        attribution: shift === 0 ? credit('https://www.naturalearthdata.com', 'Natural Earth') : undefined,
      }).addTo(map);
    }
  }

  /** The first view: the whole world asked for at zoom 0, then the map fitted to where its photos are. */
  async function fitToPhotos() {
    const first = await askWorld();
    if (!first || gone) return;
    loading.hidden = true;
    setLocated(first.total);
    if (!located) {
      drawMarkers(first, { zoom: 0 });
      el.dataset.state = 'idle';
      return;
    }
    const points = [...first.items, ...first.clusters].map((m) => [m.latitude, m.longitude]);
    // Moving the map asks for the view's markers (moveend); a view the fitting does not change asks here.
    map.fitBounds(L.latLngBounds(points), { padding: [PHOTO_PX, PHOTO_PX], maxZoom: FIT_MAX_ZOOM, animate: false });
    refresh();
  }

  /** How many located photos the library has: the count in the top bar, or the empty state over the map. */
  function setLocated(n) {
    located = n;
    count.textContent = n ? `${plural(n, 'photo')} with a location` : '';
    // With no located photo there is no area to list: the empty state over the map says so.
    area.hidden = !n;
    showEmpty(n ? null : h('div', { class: 'empty map-empty', 'data-testid': 'empty-state' }, icon('pin', { cls: 'empty-icon' }),
      h('h2', {}, 'No photos with a location yet'),
      h('p', {}, 'Photos taken with location turned on appear here, where they were taken. You can also give a photo a location in its Info.')));
  }

  function showEmpty(content) {
    empty.replaceChildren(...(content ? [content] : []));
    empty.hidden = !content;
  }

  // ----- The view's markers
  /** The view as the server takes it: its edges (a view wider than the world is the world), and its zoom. */
  function viewQuery() {
    const b = map.getBounds();
    const round = (v) => Math.round(v * 1e5) / 1e5;
    const clampLat = (v) => Math.max(-90, Math.min(90, round(v)));
    let west = b.getWest();
    let east = b.getEast();
    if (east - west >= 360) { west = -180; east = 180; }
    return {
      south: clampLat(b.getSouth()), west: Math.max(-540, round(west)), north: clampLat(b.getNorth()), east: Math.min(540, round(east)),
      zoom: Math.max(0, Math.min(22, Math.round(map.getZoom()))),
    };
  }

  const refresh = debounce(async () => {
    if (!map || gone) return;
    const q = viewQuery();
    const key = JSON.stringify(q);
    if (key === lastAsked) {
      // Back where the markers on screen were drawn for: an answer for a view left meanwhile is not wanted.
      requests?.abort();
      requests = null;
      el.dataset.state = 'idle';
      return;
    }
    const answer = await ask(q);
    if (!answer) return;
    lastAsked = key;
    drawMarkers(answer, q);
    el.dataset.state = 'idle';
  }, SETTLE_MS);

  /** The view's markers; a newer request cancels this one, whose answer is then dropped (null). */
  async function ask(q) {
    requests?.abort();
    const mine = new AbortController();
    requests = mine;
    try {
      const answer = await api.mapMarkers(q, mine.signal);
      return mine === requests && !gone ? answer : null;
    } catch (e) {
      if (e?.name === 'AbortError' || mine !== requests || gone) return null;
      console.warn(e); // what is shown stays; the next move asks again
      el.dataset.state = 'idle';
      return null;
    }
  }

  /** The whole world's markers, asked for apart from the view's (a view moved meanwhile does not cancel it); an
   *  error is thrown, for the first opening to say. */
  async function askWorld() {
    worldRequest?.abort();
    const mine = new AbortController();
    worldRequest = mine;
    try {
      const answer = await api.mapMarkers({ zoom: 0 }, mine.signal);
      return mine === worldRequest && !gone ? answer : null;
    } catch (e) {
      if (e?.name === 'AbortError' || mine !== worldRequest || gone) return null;
      throw e;
    }
  }

  /** The copy of a longitude (±360°) nearest the view's centre: the one on screen when the view crosses the date line. */
  function onScreen(lng) {
    const centre = map.getCenter().lng;
    return lng + 360 * Math.round((centre - lng) / 360);
  }

  /** Markers drawn, by photo and the copy of the world they are drawn on: a photo still in view keeps its marker. */
  const photoMarkers = new Map();

  function drawMarkers(answer, q) {
    const items = answer.items || [];
    const clusters = answer.clusters || [];
    // The photos one by one.
    const wanted = new Map();
    for (const it of items) {
      const lng = onScreen(it.longitude);
      wanted.set(`${it.id}@${lng}`, { ...it, lng });
    }
    const stale = [];
    for (const [key, marker] of photoMarkers) if (!wanted.has(key)) { stale.push(marker); photoMarkers.delete(key); }
    if (stale.length) photoLayer.removeLayers(stale);
    const fresh = [];
    for (const [key, it] of wanted) {
      if (photoMarkers.has(key)) continue;
      const marker = photoMarker(it);
      photoMarkers.set(key, marker);
      fresh.push(marker);
    }
    if (fresh.length) photoLayer.addLayers(fresh);
    // The server's cells, drawn again each time (a few hundred at most).
    cellLayer.clearLayers();
    for (const c of clusters) cellLayer.addLayer(cellMarker(c, q.zoom));
    drawArea(answer);
  }

  function photoMarker(it) {
    const px = bucket(Math.ceil(PHOTO_PX * dpr()));
    const picture = h('img', { src: api.imageURL(it.id, { size: `${px}x${px}`, mode: 'fill' }), alt: '', draggable: 'false', decoding: 'async' });
    const marker = L.marker([it.latitude, it.lng], {
      icon: labelledIcon({
        html: picture, className: 'map-photo', iconSize: [PHOTO_PX, PHOTO_PX],
        attributes: { role: 'link', 'aria-label': `Photo taken at ${placeLabel(it.latitude, it.longitude)}`, 'data-testid': 'map-photo', 'data-asset-id': it.id, 'data-lat': it.latitude, 'data-lng': it.lng },
      }),
      keyboard: true,
      riseOnHover: true,
    });
    const open = () => ctx.go(`#/photo/${encodeURIComponent(it.id)}`);
    marker.on('click', open);
    // A marker is a link: Enter opens it (Leaflet passes the keys pressed on a marker to it).
    marker.on('keypress', (e) => { if (e.originalEvent?.key === 'Enter') open(); });
    return marker;
  }

  function cellMarker(c, zoom) {
    const marker = L.marker([c.latitude, onScreen(c.longitude)], { icon: countIcon(c.count, null, { cell: true }), keyboard: true, riseOnHover: true });
    // Closer in, the cell's photos are counted in smaller cells, or listed.
    const closer = () => map.setView(marker.getLatLng(), Math.min(map.getMaxZoom(), Math.max(zoom, Math.round(map.getZoom())) + 2));
    marker.on('click', closer);
    marker.on('keypress', (e) => { if (e.originalEvent?.key === 'Enter') closer(); });
    return marker;
  }

  /** A circle sized by how many photos it stands for, the count written in it: the plug-in's groups and the server's cells alike. */
  function countIcon(n, latlng, { cell = false } = {}) {
    const d = Math.round(Math.min(64, 32 + 8 * Math.log10(Math.max(1, n))));
    const attributes = { role: 'button', 'aria-label': `${plural(n, 'photo')} here, zoom in`, 'data-testid': cell ? 'map-cell' : 'map-cluster', 'data-count': n };
    if (latlng) Object.assign(attributes, { 'data-lat': latlng.lat, 'data-lng': latlng.lng });
    return labelledIcon({ html: h('span', { class: 'map-count-text' }, n.toLocaleString()), className: 'map-count', iconSize: [d, d], attributes });
  }

  /** A DivIcon whose element carries a role, a name and the tests' hooks: a marker is focusable, and says what it is. */
  function labelledIcon(options) {
    const icon = L.divIcon(options);
    const create = icon.createIcon;
    icon.createIcon = function (old) {
      const div = create.call(this, old);
      for (const [k, v] of Object.entries(this.options.attributes || {})) div.setAttribute(k, String(v));
      return div;
    };
    return icon;
  }

  // ----- The view's photos, beside the map
  /** The links drawn, by photo: a photo still in view keeps its link and its picture. */
  const areaLinks = new Map();

  function drawArea(answer) {
    const items = answer.items || [];
    const total = answer.total || 0;
    const listed = total > 0 && items.length >= total;
    areaCount.textContent = total ? plural(total, 'photo') : '';
    areaNote.textContent = listed ? '' : total ? 'Zoom in to see the photos here.' : 'No photos in this part of the map.';
    areaNote.hidden = !areaNote.textContent;
    const seen = new Set();
    const px = bucket(Math.ceil(120 * dpr()));
    const links = listed ? items.filter((it) => !seen.has(it.id) && seen.add(it.id)).map((it) => {
      let li = areaLinks.get(it.id);
      if (!li) {
        li = h('li', { class: 'map-area-cell' },
          h('a', { href: `#/photo/${encodeURIComponent(it.id)}`, class: 'map-area-photo', 'data-testid': 'map-area-photo', 'data-asset-id': it.id, aria: { label: `Photo taken at ${placeLabel(it.latitude, it.longitude)}` } },
            h('img', { src: api.imageURL(it.id, { size: `${px}x${px}`, mode: 'fill' }), alt: '', loading: 'lazy', decoding: 'async', draggable: 'false' })));
        areaLinks.set(it.id, li);
      }
      return li;
    }) : [];
    for (const id of areaLinks.keys()) if (!seen.has(id)) areaLinks.delete(id);
    areaList.replaceChildren(...links);
    areaList.hidden = !links.length;
  }

  // ----- Keeping up with the library
  // A photo added, deleted, recovered or given another location moves the markers: the view is asked for again
  // (from the start while there were none, so that the first located photo is fitted to).
  const reload = debounce(async () => {
    if (!map || gone) return;
    lastAsked = '';
    try {
      if (!located) { await fitToPhotos(); return; }
      const world = await askWorld();
      if (!world || gone) return;
      setLocated(world.total);
      refresh();
    } catch (e) {
      console.warn(e); // what is shown stays; the next change asks again
    }
  }, 500);
  offs.push(store.on('change', (data) => { if (changesAssets(data)) reload(); }));
  offs.push(store.on('reset', reload));

  start();

  return {
    el,
    show() { el.inert = false; map?.invalidateSize({ pan: false }); },
    hide() { el.inert = true; },
    /** Back from a photo: the keyboard goes to its link beside the map, else to its marker, else to the map. */
    focusAsset(id) {
      const css = `[data-asset-id="${CSS.escape(id)}"]`;
      (areaList.querySelector(css) || canvas.querySelector(css) || canvas).focus({ preventScroll: true });
    },
    unmount() {
      gone = true;
      refresh.cancel();
      reload.cancel();
      requests?.abort();
      worldRequest?.abort();
      resize?.disconnect();
      offs.forEach((off) => off());
      if (window.sepiaMap === map) delete window.sepiaMap;
      map?.remove();
      el.remove();
    },
  };
}
