// Places: the countries the photos were taken in, the one with the most photos first, each a heading (a link to the
// country's photos) over its cities as tiles — the newest photo taken there, the city, its region when that is not
// the city's own name, and how many photos — the city with the most first (the server's order). A photo is placed
// by the city nearest its GPS location, so the screen follows the library: new, moved and deleted photos read the
// list again. While the server is still placing photos located before it could, how far it has come; when it
// cannot place any (GeoNames' tables missing), its reason, in the empty state.
import { api } from '../api.js';
import { h, plural, bucket, dpr, debounce } from '../util.js';
import { icon } from '../icons.js';
import { store, changesAssets } from '../store.js';

/** How often the status is read again while photos wait for their place. */
const STATUS_EVERY = 3000;

export function mountPlaces(container, params, ctx) {
  const offs = [];
  let places = null;   // the countries, as the server lists them; null until the first answer
  let status = null;   // /places/status, when the credential may read it
  let requests = null; // the load in flight, cancelled by a newer one and on leaving

  // ----- Top bar
  const count = h('span', { class: 'topbar-subtitle', 'data-testid': 'places-count' }, '');
  const topbar = h('header', { class: 'topbar' },
    h('button', { type: 'button', class: 'btn icon ghost menu-btn', 'data-testid': 'menu-button', aria: { label: 'Open menu', controls: 'sidebar' }, onclick: () => ctx.shell.openMenu() }, icon('menu')),
    h('div', { class: 'topbar-titles' }, h('h1', { id: 'places-title', class: 'topbar-title', 'data-testid': 'screen-title' }, 'Places'), count),
    h('div', { class: 'topbar-spacer' }));

  // ----- Content: how placing is going, the countries and their cities, or why there is nothing
  const progress = h('div', { class: 'places-progress', 'data-testid': 'places-progress', role: 'status', hidden: true });
  const list = h('div', { class: 'places-list', 'data-testid': 'places-list' });
  const empty = h('div', { class: 'places-empty' });
  const scroller = h('div', { class: 'scroller page-pad places-page' }, progress, list, empty);
  const el = h('section', { class: 'screen places-screen', aria: { labelledby: 'places-title' } }, topbar, h('div', { class: 'scroll-wrap' }, scroller));
  container.append(el);

  // ----- Drawing
  /** The tiles' thumbnails: the server's bucket for the tile's width on this screen. */
  const thumbPx = () => bucket(Math.ceil(200 * dpr()));

  function render() {
    if (!places) return;
    // The list is drawn again after every change in the library: the keyboard stays on the link it was on.
    const focused = document.activeElement?.closest?.('.places-list [data-testid]');
    const focusedKey = focused ? [focused.dataset.testid, focused.dataset.placeId || focused.closest('[data-country-code]')?.dataset.countryCode] : null;
    const cities = places.reduce((n, c) => n + c.cities.length, 0);
    count.textContent = places.length ? `${plural(cities, 'city', 'cities')} in ${plural(places.length, 'country', 'countries')}` : '';
    list.replaceChildren(...places.map(country));
    list.hidden = !places.length;
    for (const id of tiles.keys()) if (!drawn.has(id)) tiles.delete(id);
    drawn.clear();
    renderEmpty();
    renderProgress();
    if (focusedKey) {
      const [testid, key] = focusedKey;
      const again = testid === 'place-card'
        ? list.querySelector(`[data-testid="place-card"][data-place-id="${CSS.escape(key || '')}"]`)
        : list.querySelector(`[data-country-code="${CSS.escape(key || '')}"] [data-testid="place-country-link"]`);
      (again || list.querySelector('a'))?.focus({ preventScroll: true });
    }
  }

  /** The city tiles drawn, by city, with what they were drawn from: a tile (and its picture) is made again only
   *  when that changes. */
  const tiles = new Map();
  const drawn = new Set();
  function tileOf(c) {
    const from = JSON.stringify([c, thumbPx()]);
    drawn.add(c.id);
    const kept = tiles.get(c.id);
    if (kept && kept.from === from) return kept.li;
    const li = city(c);
    tiles.set(c.id, { from, li });
    return li;
  }

  function country(c) {
    const headingID = `place-country-${c.countryCode}`;
    return h('section', { class: 'place-country', 'data-testid': 'place-country', 'data-country-code': c.countryCode },
      h('div', { class: 'place-country-head' },
        h('h2', { class: 'place-country-name', id: headingID },
          h('a', { href: `#/places/country/${encodeURIComponent(c.countryCode)}`, 'data-testid': 'place-country-link' }, c.country)),
        h('span', { class: 'hint place-country-count', 'data-testid': 'place-country-count' }, plural(c.assetCount, 'photo'))),
      h('ul', { class: 'place-grid', aria: { labelledby: headingID } }, c.cities.map(tileOf)));
  }

  function city(c) {
    const size = `${thumbPx()}x${thumbPx()}`;
    const region = c.region && c.region !== c.city ? c.region : null;
    return h('li', { class: 'place-tile' },
      h('a', { href: `#/places/${encodeURIComponent(c.id)}`, class: 'place-card', 'data-testid': 'place-card', 'data-place-id': String(c.id) },
        h('span', { class: 'place-cover' },
          c.keyAssetID ? h('img', { src: api.imageURL(c.keyAssetID, { size, mode: 'fill' }), alt: '', loading: 'lazy', decoding: 'async', draggable: 'false' }) : icon('pin')),
        h('span', { class: 'place-meta' },
          h('span', { class: 'place-name', 'data-testid': 'place-name' }, c.city),
          region ? h('span', { class: 'place-region hint' }, region) : null,
          h('span', { class: 'place-count hint', 'data-testid': 'place-count' }, plural(c.assetCount, 'photo')))));
  }

  function renderEmpty() {
    let content = null;
    if (places && !places.length) {
      if (status?.problem) {
        // Said calmly: nothing is broken in the library, the server only lacks the tables to name places with.
        content = emptyState('No places yet', 'Photos with a GPS location are placed by the nearest city, once the server can look cities up. It cannot yet:',
          h('p', { class: 'place-problem', 'data-testid': 'places-problem' }, status.problem));
      } else if (status?.waitingAssets > 0) {
        content = emptyState('Finding places', 'Sepia is placing your photos by the city nearest where each was taken. They appear here by country and city as it goes.');
      } else {
        content = emptyState('No places yet', 'Photos with a GPS location are placed by the nearest city, and appear here by country and city. Add photos taken with location turned on, or give a photo a location in its Info.');
      }
    }
    empty.replaceChildren(...(content ? [content] : []));
  }

  const emptyState = (title, text, ...more) => h('div', { class: 'empty', 'data-testid': 'empty-state' },
    icon('pin', { cls: 'empty-icon' }), h('h2', {}, title), h('p', {}, text), ...more);

  function renderProgress() {
    const waiting = status && !status.problem ? status.waitingAssets : 0;
    progress.hidden = !(waiting > 0 && places?.length);
    if (progress.hidden) { progress.replaceChildren(); return; }
    const total = status.placedAssets + waiting;
    progress.replaceChildren(h('span', { class: 'spinner', 'aria-hidden': 'true' }),
      h('span', { class: 'places-progress-text' }, `Placing photos: ${status.placedAssets.toLocaleString()} of ${plural(total, 'photo')}`));
  }

  // ----- Loading, and keeping up
  let statusTimer = null;
  async function load() {
    clearTimeout(statusTimer);
    requests?.abort();
    const mine = new AbortController();
    requests = mine;
    if (!places) list.replaceChildren(skeleton());
    try {
      const [res, st] = await Promise.all([
        api.places(mine.signal),
        // The status counts the whole library: a token limited to albums may not read it (404), and the list
        // does without it.
        api.placesStatus(mine.signal).catch((e) => { if (e?.name === 'AbortError') throw e; return null; }),
      ]);
      if (mine !== requests) return;
      places = res?.countries || [];
      status = st;
      render();
      if (status && !status.problem && status.waitingAssets > 0 && el.isConnected) statusTimer = setTimeout(load, STATUS_EVERY);
    } catch (e) {
      if (e?.name === 'AbortError' || mine !== requests) return;
      if (places) { console.warn(e); return; } // what is shown stays; the next change reads it again
      list.replaceChildren();
      empty.replaceChildren(h('div', { class: 'empty', role: 'alert' }, icon('cloudOff', { cls: 'empty-icon' }), h('h2', {}, 'Places could not be loaded'), h('p', {}, e.message),
        h('div', { class: 'actions' }, h('button', { type: 'button', class: 'btn primary', onclick: load }, 'Try Again'))));
    }
  }

  const skeleton = () => h('div', { class: 'place-country', 'aria-hidden': 'true' },
    h('div', { class: 'place-country-head' }, h('span', { class: 'place-country-skeleton skeleton' })),
    h('ul', { class: 'place-grid' }, Array.from({ length: 4 }, () => h('li', { class: 'place-tile' }, h('span', { class: 'place-cover skeleton' })))));

  // A photo added, deleted, recovered or given another location may change the places and their counts.
  const reload = debounce(load, 500);
  offs.push(store.on('change', (data) => { if (changesAssets(data)) reload(); }));
  offs.push(store.on('reset', reload));

  load();

  return {
    el,
    show() { el.inert = false; },
    hide() { el.inert = true; },
    unmount() {
      clearTimeout(statusTimer);
      reload.cancel();
      requests?.abort();
      offs.forEach((off) => off());
      el.remove();
    },
  };
}
