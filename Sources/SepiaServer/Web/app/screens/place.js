// A place's page: a city's photos (#/places/<city id>) or a country's (#/places/country/<code>), newest first, in the
// library's grid (screens/library.js, views 'place' and 'country'), under the place's name — "Lisbon, Portugal",
// "Portugal" — read from the Places list. It is the library screen, loaded with the app, so it is mounted at once
// (not lazily): a photo opened from it asks it for the previous and next photos from the start.
import { api } from '../api.js';
import { mountLibrary } from './library.js';

export function mountPlace(container, { id, country }, ctx) {
  return mountLibrary(container, {
    view: country ? 'country' : 'place', albumId: country || id,
    extend: (screen) => placeTitle({ id, country }, screen),
  }, ctx);
}

function placeTitle({ id, country }, { titleEl, el }) {
  let gone = false;
  api.places().then((res) => {
    if (gone) return;
    const countries = res?.countries || [];
    let name = null;
    if (country) {
      name = countries.find((c) => c.countryCode.toUpperCase() === country.toUpperCase())?.country || null;
    } else {
      for (const c of countries) {
        const city = c.cities.find((x) => String(x.id) === String(id));
        if (city) { name = `${city.city}, ${c.country}`; break; }
      }
    }
    // A place with no photos (any more) is not listed: the title stays "Place" and the grid says it is empty.
    if (!name) return;
    titleEl.textContent = name;
    el.querySelector('[data-testid="grid"]')?.setAttribute('aria-label', `Photos taken in ${name}`);
    document.title = `${name} — Sepia`;
  }, (e) => { if (!gone) console.warn(e); });
  return { unmount() { gone = true; } };
}
