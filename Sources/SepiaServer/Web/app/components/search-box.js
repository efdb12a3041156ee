// The one search box (the Search screen's top bar): its words search the whole library as they are typed, and a
// list under it offers what the last word may mean — places, keywords, albums and people — from the server, as
// ARIA's combobox with a grouped list box. ↓ and ↑ move through the offers (↓ also opens them), Enter takes the one
// chosen (or, with none chosen, searches at once), Escape closes them, Tab leaves; a press on an offer takes it and
// leaves the focus in the field. A place, an album or a person opens its own page; a keyword takes the last word's
// place in the field. Screen readers hear how many offers there are.
import { api } from '../api.js';
import { h, uid, plural, debounce } from '../util.js';
import { icon } from '../icons.js';

/** How long typing pauses before the words go out (each key otherwise would send a search). */
export const SEARCH_DELAY = 150;

/** The longest search the server reads, in characters. */
export const SEARCH_MAX = 200;

/** The most terms the server reads one search into (the rest of a longer text is ignored). */
export const SEARCH_MAX_TERMS = 16;

/** Offers of each kind asked for. */
const OFFERS_PER_KIND = 5;

/** Answers kept for the words last asked about, so that going back over a word (Backspace) asks nothing again. */
const KEPT_ANSWERS = 24;

/**
 * The word the offers are for: the last one typed, while it is being typed (the text does not end in a space). The
 * server reads it as the search would — a kind ("videos") or a date ("june") is no word, and nothing is offered.
 */
export function lastWord(text) {
  if (!text || /\s$/.test(text)) return '';
  const parts = text.split(/\s+/);
  return parts[parts.length - 1];
}

/** The text with its last word replaced by `words` (a keyword taken from the offers), and a space to go on typing. */
export function replaceLastWord(text, words) {
  const word = lastWord(text);
  const head = word ? text.slice(0, text.length - word.length) : text.replace(/\s*$/, text.trim() ? ' ' : '');
  return (head + words.trim().split(/\s+/).join(' ') + ' ').slice(0, SEARCH_MAX);
}

/**
 * searchBox({value, onSearch(text), go(hash)}) → {el, input, searchNow(), forget(), destroy()}: `el` is the field (a form
 * with role=search) for the top bar. `onSearch` is called with the trimmed words a short pause after the typing
 * (at once on Enter or when a keyword is taken); `go` opens a place's, an album's or a person's page.
 */
export function searchBox({ value = '', onSearch, go }) {
  const listId = uid('search-offers');
  const input = h('input', {
    class: 'input', type: 'search', value, placeholder: 'Places, people, keywords, dates…', maxlength: String(SEARCH_MAX),
    'data-testid': 'search-input', enterkeyhint: 'search', autocomplete: 'off', spellcheck: 'false', role: 'combobox',
    aria: { label: 'Search photos', autocomplete: 'list', expanded: 'false', controls: listId },
  });
  const list = h('div', { class: 'combo-list search-offers', id: listId, role: 'listbox', 'data-testid': 'search-suggestions', aria: { label: 'Suggestions' } });
  list.hidden = true;
  const status = h('span', { class: 'visually-hidden', role: 'status' });
  const el = h('form', { class: 'search-field', role: 'search', onsubmit: (e) => { e.preventDefault(); searchNow(); } }, input, list, status);

  /** The offers shown, in order: {kind, label, detail, value}. */
  let shown = [];
  let active = -1;
  /** The server's answers by word (the first asked for first, the first forgotten), and the request in flight. */
  const answers = new Map();
  let asking = null;

  // ----- Typing: the words and the offers follow after a short pause; a newer word cancels the older one's request.
  const typed = debounce(() => { onSearch(input.value.trim()); offer(); }, SEARCH_DELAY);
  input.addEventListener('input', () => {
    const word = lastWord(input.value);
    // A word whose offers are known shows them at once. Another word's stay in view until the new ones come (no
    // flicker at each key), but none of them stays chosen: Enter takes only what was chosen for the word typed.
    if (!word) close();
    else if (answers.has(word)) render(word, answers.get(word));
    else if (word !== shownFor) highlight(-1);
    typed();
  });

  /** The word whose offers are shown. */
  let shownFor = '';
  /** ↓ opened the offers before they were known: the first is chosen when they come. */
  let chooseFirst = false;

  async function offer() {
    const word = lastWord(input.value);
    asking?.abort();
    asking = null;
    if (!word) { close(); return; }
    let answer = answers.get(word);
    if (!answer) {
      const request = new AbortController();
      asking = request;
      try {
        answer = await api.searchSuggestions({ q: word, limit: OFFERS_PER_KIND }, request.signal);
      } catch (e) {
        // The offers are a help: without them the search itself still runs (and says when it fails).
        if (e?.name !== 'AbortError' && asking === request) close();
        return;
      } finally {
        if (asking === request) asking = null;
      }
      answers.set(word, answer);
      if (answers.size > KEPT_ANSWERS) answers.delete(answers.keys().next().value);
    }
    // An answer for a word no longer the last one typed, or after the field was left, is not shown; the offers
    // already shown for this word stay as they are (one may have been chosen with ↓ meanwhile).
    if (word !== lastWord(input.value) || document.activeElement !== input) return;
    if (word === shownFor && !list.hidden) { chooseFirst = false; return; }
    render(word, answer);
    if (chooseFirst && shown.length) highlight(0);
    chooseFirst = false;
  }

  function offersOf(answer) {
    const groups = [
      { title: 'Places', items: (answer.places || []).map((p) => ({
        kind: 'place', icon: 'pin', label: p.name, value: p,
        detail: [p.placeID == null ? 'Country' : p.country, plural(p.assetCount || 0, 'photo')].filter(Boolean).join(' · '),
      })) },
      { title: 'Keywords', items: (answer.keywords || []).map((k) => ({ kind: 'keyword', icon: 'tag', label: k, value: k })) },
      { title: 'Albums', items: (answer.albums || []).map((a) => ({ kind: 'album', icon: 'album', label: a.title, value: a })) },
      { title: 'People', items: (answer.people || []).map((p) => ({ kind: 'person', icon: 'user', label: p.name, value: p })) },
    ];
    return groups.filter((g) => g.items.length);
  }

  function render(word, answer) {
    const groups = offersOf(answer);
    shown = groups.flatMap((g) => g.items);
    shownFor = word;
    active = -1;
    let n = 0;
    list.replaceChildren(...groups.map((g) => {
      const headingId = uid('search-offers-group');
      return h('div', { class: 'search-offer-group', role: 'group', aria: { labelledby: headingId } },
        h('div', { class: 'search-offer-heading', id: headingId, role: 'presentation' }, g.title),
        g.items.map((o) => {
          const i = n++;
          return h('div', {
            id: `${listId}-${i}`, role: 'option', class: 'combo-option', 'data-testid': 'search-suggestion', 'data-kind': o.kind,
            'data-value': o.kind === 'place' ? String(o.value.placeID ?? o.value.countryCode) : o.kind === 'keyword' ? o.value : o.value.id,
            aria: { selected: 'false' },
            // The press keeps the focus in the field; the choice is the click, so that a finger scrolling the list
            // chooses nothing.
            onmousedown: (e) => e.preventDefault(),
            onclick: () => choose(i),
          }, h('span', { class: 'combo-face new', 'aria-hidden': 'true' }, icon(o.icon)),
          h('span', { class: 'combo-text' }, h('span', { class: 'combo-label' }, o.label), o.detail ? h('span', { class: 'combo-detail' }, o.detail) : null));
        }));
    }));
    const open = shown.length > 0;
    list.hidden = !open;
    input.setAttribute('aria-expanded', String(open));
    input.removeAttribute('aria-activedescendant');
    status.textContent = open ? `${plural(shown.length, 'suggestion')}. Use the arrow keys to choose one.` : '';
  }

  function highlight(i) {
    active = i;
    list.querySelectorAll('[role="option"]').forEach((o, k) => {
      o.setAttribute('aria-selected', String(k === i));
      o.classList.toggle('active', k === i);
      if (k === i) o.scrollIntoView?.({ block: 'nearest' });
    });
    if (i >= 0) input.setAttribute('aria-activedescendant', `${listId}-${i}`);
    else input.removeAttribute('aria-activedescendant');
  }

  function close() {
    chooseFirst = false;
    shown = [];
    shownFor = '';
    active = -1;
    list.hidden = true;
    list.replaceChildren();
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
    status.textContent = '';
  }

  function choose(i) {
    const o = shown[i];
    if (!o) return;
    close();
    if (o.kind === 'place') go(o.value.placeID == null ? `#/places/country/${encodeURIComponent(o.value.countryCode)}` : `#/places/${encodeURIComponent(o.value.placeID)}`);
    else if (o.kind === 'album') go(`#/album/${encodeURIComponent(o.value.id)}`);
    else if (o.kind === 'person') go(`#/person/${encodeURIComponent(o.value.id)}`);
    else {
      // A keyword: its words take the place of the one being typed, and the search goes out at once.
      input.value = replaceLastWord(input.value, o.value);
      input.focus();
      input.setSelectionRange(input.value.length, input.value.length);
      searchNow();
    }
  }

  /** Searches for what is typed now, without waiting for the pause. */
  function searchNow() {
    typed.cancel();
    asking?.abort();
    close();
    onSearch(input.value.trim());
  }

  input.addEventListener('blur', () => { asking?.abort(); close(); });
  input.addEventListener('keydown', (e) => {
    if (e.isComposing) return;
    const open = !list.hidden;
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      if (!open) {
        // Opens the offers for the word typed, when it has any (asked for now if they are not known yet).
        const word = lastWord(input.value);
        const answer = answers.get(word);
        if (answer) { render(word, answer); if (shown.length) highlight(0); } else if (word) { chooseFirst = true; offer(); }
        return;
      }
      highlight(active < 0 ? 0 : (active + 1) % shown.length);
    } else if (e.key === 'ArrowUp') {
      if (!open) return;
      e.preventDefault();
      highlight(active <= 0 ? shown.length - 1 : active - 1);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      if (open && active >= 0) choose(active);
      else searchNow();
    } else if (e.key === 'Escape') {
      // Closes the offers; with none open, the browser's own Escape (which empties a search field) goes ahead.
      if (open) { e.preventDefault(); e.stopPropagation(); close(); }
    } else if (e.key === 'Tab') close();
  });

  return {
    el, input, searchNow,
    /** Forgets the offers known (the library changed: a keyword, a place or an album may be new or gone). */
    forget() { answers.clear(); },
    destroy() { typed.cancel(); asking?.abort(); close(); },
  };
}

// ----- How a search was read: the server's terms, said as a person would ("June 2023", "Summer 2023", "Videos").

const KINDS = {
  photo: ['Photos', 'image'], video: ['Videos', 'video'], live: ['Live Photos', 'live'], raw: ['RAW', 'image'],
  favorite: ['Favorites', 'heart'], edited: ['Edited', 'wand'], screenshot: ['Screenshots', 'image'], panorama: ['Panoramas', 'image'],
};
const SEASONS = { spring: 'March to May', summer: 'June to August', autumn: 'September to November', winter: 'December to February' };
const monthNamed = (month, year) => new Intl.DateTimeFormat('en', { month: 'long', ...(year ? { year: 'numeric' } : {}), timeZone: 'UTC' })
  .format(new Date(Date.UTC(year || 2000, month - 1, 1)));

/** A term of the server's as it is said: {label, detail?, icon?}. Dates are "2023", "2023-06", "--06" (June of every
 *  year) or "2023-06-14"; seasons "summer" or "summer 2023" (winter 2023 runs into 2024). */
export function describeTerm({ kind, value }) {
  if (kind === 'word') return { label: `“${value}”` };
  if (kind === 'kind') { const [label, glyph] = KINDS[value] || [value, null]; return { label, icon: glyph }; }
  if (kind === 'season') {
    const [name, year] = value.split(' ');
    const label = name[0].toUpperCase() + name.slice(1) + (year ? ` ${year}` : '');
    const months = SEASONS[name];
    return { label, detail: months && (year && name === 'winter' ? `December ${year} to February ${Number(year) + 1}` : months), icon: 'calendar' };
  }
  if (kind === 'date') {
    let m;
    if ((m = /^--(\d\d)$/.exec(value))) return { label: monthNamed(Number(m[1])), detail: 'every year', icon: 'calendar' };
    if ((m = /^(\d{4})-(\d\d)$/.exec(value))) return { label: monthNamed(Number(m[2]), Number(m[1])), icon: 'calendar' };
    if ((m = /^(\d{4})-(\d\d)-(\d\d)$/.exec(value))) {
      return { label: new Intl.DateTimeFormat('en', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]))), icon: 'calendar' };
    }
    return { label: value, icon: 'calendar' };
  }
  return { label: value };
}

/** The terms as small chips under a label, for the top of the results (a list, for screen readers). */
export function searchTerms(terms) {
  const labelId = uid('search-read');
  return h('div', { class: 'search-read', 'data-testid': 'search-terms' },
    h('span', { class: 'search-read-label', id: labelId }, 'Searched for'),
    h('ul', { class: 'search-read-terms', aria: { labelledby: labelId } }, terms.map((t) => {
      const d = describeTerm(t);
      return h('li', { class: 'search-term', 'data-testid': 'search-term', 'data-kind': t.kind },
        d.icon ? icon(d.icon) : null, h('span', {}, d.label), d.detail ? [' ', h('span', { class: 'search-term-detail' }, d.detail)] : null);
    })));
}
