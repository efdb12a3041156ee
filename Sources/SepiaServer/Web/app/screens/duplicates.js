// Duplicates: the photos that look the same — copies, resized or recompressed versions of one picture — grouped by
// the server from their perceptual hashes, the group with the newest photo first. Each group shows its photos side by
// side with what tells them apart (pixel size, file size, format, date taken, file name, camera, place; a value that
// differs within the group is highlighted), the one the server proposes to keep marked with its reason, and a choice
// of the one to keep (a radio group: arrow keys, Space, or a press on a picture). "Keep One, Delete N Others" moves
// the others to Recently Deleted in one request, and "Not Duplicates" tells the server the photos are not copies of
// one another (they are never grouped together again); each says so in a message with Undo. More groups come a page
// at a time, as the list is scrolled to its end or More is pressed. The list follows the library (new, changed and
// deleted photos read it again) and, while photos wait to be compared, how far that has come.
import { api } from '../api.js';
import { h, plural, bucket, dpr, debounce, formatBytes, formatDate, placeName, uid } from '../util.js';
import { icon } from '../icons.js';
import { store, changesAssets } from '../store.js';
import { toast } from '../components/toast.js';
import { recoverPhotos } from '../actions.js';

/** Groups asked for at a time (the server's page). */
const PAGE = 24;
/** The server's largest page: a list read again asks for as many groups as are shown, up to this. */
const MAX_PAGE = 500;
/** How often the list is read again while photos wait to be compared. */
const STATUS_EVERY = 3000;

/**
 * What the photos of a group are compared by, in the order shown: a label, the value as said (or `none`, "Unknown",
 * when there is none), and the value compared (two photos differ in a field when these differ).
 */
const FACTS = [
  { key: 'size', label: 'Size', say: (a) => (a.width && a.height ? `${a.width} × ${a.height}` : null), compare: (a) => (a.width && a.height ? `${a.width}x${a.height}` : null) },
  { key: 'bytes', label: 'File size', say: (a) => formatBytes(a.originalByteCount) || null, compare: (a) => a.originalByteCount ?? null },
  { key: 'format', label: 'Format', say: (a) => (a.originalFormat ? String(a.originalFormat).toUpperCase() : null), compare: (a) => (a.originalFormat ? String(a.originalFormat).toLowerCase() : null) },
  { key: 'date', label: 'Taken', say: (a) => (a.creationDate ? formatDate(a.creationDate, a.creationDateOffset) : null), compare: (a) => (a.creationDate ? Date.parse(a.creationDate) : null) },
  { key: 'file', label: 'File', say: (a) => a.originalFilename || null, compare: (a) => a.originalFilename || null },
  { key: 'camera', label: 'Camera', say: cameraOf, compare: cameraOf },
  { key: 'place', label: 'Place', none: 'None', say: (a) => placeName(a.place) || null, compare: (a) => (a.place ? a.place.id ?? placeName(a.place) : null) },
];

function cameraOf(a) {
  return [a.cameraMake, a.cameraModel].filter(Boolean).join(' ').replace(/^(\w+) \1 /i, '$1 ') || null;
}

/** A photo as it is named to a person: its file name, else its date. */
const nameOf = (a) => a?.originalFilename || (a?.creationDate ? `the photo of ${formatDate(a.creationDate, a.creationDateOffset)}` : 'the photo');

export function mountDuplicates(container, params, ctx) {
  const offs = [];
  let groups = null;   // the groups shown, in the server's order; null until the first answer
  let total = 0;       // the server's count of groups
  let status = null;   // {hashedAssets, waitingAssets}
  let requests = null; // the load in flight (the first page, or the list read again), cancelled by a newer one
  let paging = null;   // the next page's load in flight
  /** The photo chosen to keep in each group, where the user chose another than the server's. */
  const chosen = new Map();
  /** The groups whose photos are being deleted or dismissed: their buttons wait. */
  const busy = new Set();
  /** Counts the changes made here: a list read before the latest one is read again, not shown. */
  let changesMade = 0;

  // ----- Top bar
  const count = h('span', { class: 'topbar-subtitle', 'data-testid': 'duplicates-count' }, '');
  const topbar = h('header', { class: 'topbar' },
    h('button', { type: 'button', class: 'btn icon ghost menu-btn', 'data-testid': 'menu-button', aria: { label: 'Open menu', controls: 'sidebar' }, onclick: () => ctx.shell.openMenu() }, icon('menu')),
    h('div', { class: 'topbar-titles' }, h('h1', { id: 'duplicates-title', class: 'topbar-title', 'data-testid': 'screen-title' }, 'Duplicates'), count),
    h('div', { class: 'topbar-spacer' }));

  // ----- Content: how comparing is going, the groups, More, or why there is nothing
  const progress = h('div', { class: 'duplicates-progress', 'data-testid': 'duplicates-progress', role: 'status', hidden: true });
  const list = h('div', { class: 'duplicates-list', 'data-testid': 'duplicates-list' });
  const moreText = h('span', { class: 'hint duplicates-shown' }, '');
  const moreBtn = h('button', { type: 'button', class: 'btn', 'data-testid': 'duplicates-more', onclick: () => loadMore() }, 'Show More');
  const more = h('div', { class: 'duplicates-more', hidden: true }, moreText, moreBtn);
  const empty = h('div', { class: 'duplicates-empty' });
  const scroller = h('div', { class: 'scroller page-pad duplicates-page' }, progress, list, more, empty);
  const el = h('section', { class: 'screen duplicates-screen', aria: { labelledby: 'duplicates-title' } }, topbar, h('div', { class: 'scroll-wrap' }, scroller));
  container.append(el);

  // ----- Drawing
  /** The thumbnails: the server's bucket for a picture's width on this screen. */
  const thumbPx = () => bucket(Math.ceil(240 * dpr()));

  /** The photo to keep in a group: the user's choice while it is still in the group, else the server's. */
  const keepOf = (g) => {
    const id = chosen.get(g.id);
    return id && g.assets.some((a) => a.id === id) ? id : g.keepAssetID;
  };

  function render() {
    if (!groups) return;
    // The list is drawn again after every change in the library: the keyboard stays where it was.
    const focusedKey = focusKey(document.activeElement);
    count.textContent = total ? plural(total, 'group') : '';
    const drawn = groups.map(groupOf);
    if (drawn.length !== list.children.length || drawn.some((section, i) => list.children[i] !== section)) list.replaceChildren(...drawn);
    for (const id of cards.keys()) if (!groups.some((g) => g.id === id)) cards.delete(id);
    list.hidden = !groups.length;
    more.hidden = !(groups.length && groups.length < total);
    moreText.textContent = `${groups.length.toLocaleString()} of ${plural(total, 'group')}`;
    moreBtn.disabled = !!paging;
    renderEmpty();
    renderProgress();
    if (focusedKey && !list.contains(document.activeElement)) refocus(focusedKey);
  }

  /** What has the focus in the list, to find it again once the list is drawn anew: [group, photo, testid]. */
  function focusKey(active) {
    const section = active?.closest?.('.duplicates-list [data-group-id]');
    if (!section) return null;
    return [section.dataset.groupId, active.closest('[data-asset-id]')?.dataset.assetId || null, active.dataset.testid || null];
  }

  function refocus([groupID, assetID, testid]) {
    const section = list.querySelector(`[data-group-id="${CSS.escape(groupID)}"]`);
    if (!section) return;
    const again = (assetID && section.querySelector(`[data-asset-id="${CSS.escape(assetID)}"] [data-testid="${CSS.escape(testid || '')}"]`))
      || (testid && !assetID && section.querySelector(`:scope [data-testid="${CSS.escape(testid)}"]`))
      || section.querySelector('input:checked');
    again?.focus({ preventScroll: true });
  }

  /** The groups drawn, by group, with what they were drawn from: a group is made again only when that changes (the
   *  photo chosen to keep is changed in place). */
  const cards = new Map();
  function groupOf(g) {
    const from = JSON.stringify([g, thumbPx()]);
    const kept = cards.get(g.id);
    if (kept && kept.from === from) { showChoice(kept.section, g); return kept.section; }
    const section = group(g);
    cards.set(g.id, { from, section });
    return section;
  }

  function group(g) {
    const headingID = uid('duplicate-group');
    const suggested = g.assets.find((a) => a.id === g.keepAssetID);
    const newest = g.assets.reduce((m, a) => (a.creationDate && (!m || a.creationDate > m) ? a.creationDate : m), null);
    const differs = new Set(FACTS.filter((f) => new Set(g.assets.map((a) => JSON.stringify(f.compare(a) ?? null))).size > 1).map((f) => f.key));
    const resolve = h('button', { type: 'button', class: 'btn primary', 'data-testid': 'duplicate-resolve', onclick: () => resolveGroup(g) }, '');
    const dismiss = h('button', { type: 'button', class: 'btn', 'data-testid': 'duplicate-dismiss', onclick: () => dismissGroup(g) }, 'Not Duplicates');
    const section = h('section', { class: 'duplicate-group', 'data-testid': 'duplicate-group', 'data-group-id': g.id, aria: { labelledby: headingID } },
      h('div', { class: 'duplicate-head' },
        h('h2', { class: 'duplicate-title', id: headingID }, plural(g.assets.length, 'similar photo')),
        newest ? h('span', { class: 'hint duplicate-date' }, formatDate(newest, null, { withTime: false })) : null),
      g.keepReason || suggested ? h('p', { class: 'duplicate-reason', 'data-testid': 'duplicate-reason' },
        icon('sparkle'), h('span', {}, reasonText(suggested, g.keepReason))) : null,
      h('fieldset', { class: 'duplicate-choices' },
        h('legend', { class: 'visually-hidden' }, 'The photo to keep'),
        h('ul', { class: 'duplicate-items' }, g.assets.map((a) => item(g, a, differs)))),
      h('div', { class: 'duplicate-actions' }, resolve, dismiss));
    showChoice(section, g);
    return section;
  }

  /** "Suggested: IMG_0001.HEIC, the largest (4032 × 3024), in its original format, with the most metadata." */
  function reasonText(suggested, reason) {
    const why = String(reason || '').trim().replace(/\.$/, '');
    const name = suggested ? nameOf(suggested) : null;
    if (!why) return `Suggested: ${name}.`;
    if (!name) return `Suggested: ${why}.`;
    return /^[a-z]/.test(why) ? `Suggested: ${name}, ${why}.` : `Suggested: ${name}. ${why}.`;
  }

  function item(g, a, differs) {
    const px = thumbPx();
    const factsID = uid('duplicate-facts');
    const suggested = a.id === g.keepAssetID;
    const radio = h('input', {
      type: 'radio', name: `duplicate-keep-${g.id}`, value: a.id, class: 'duplicate-radio', 'data-testid': 'duplicate-keep',
      aria: { describedby: factsID },
      onchange: () => { if (radio.checked) { chosen.set(g.id, a.id); showChoice(radio.closest('[data-group-id]'), g); } },
    });
    const facts = h('dl', { class: 'duplicate-facts', id: factsID }, FACTS.map((f) => {
      const said = f.say(a) || h('span', { class: 'duplicate-none' }, f.none || 'Unknown');
      const differ = differs.has(f.key);
      return h('div', { class: ['duplicate-fact', differ && 'differs'], 'data-fact': f.key },
        h('dt', {}, f.label),
        h('dd', { 'data-testid': `duplicate-${f.key}` },
          differ ? h('mark', {}, said) : said,
          differ ? h('span', { class: 'visually-hidden' }, ' (differs)') : null));
    }));
    return h('li', { class: ['duplicate-item', suggested && 'suggested'], 'data-testid': 'duplicate-item', 'data-asset-id': a.id, 'data-suggested': String(suggested) },
      // The picture and the choice are one label: a press on the picture chooses it.
      h('label', { class: 'duplicate-choice' },
        h('span', { class: 'duplicate-thumb' },
          h('img', { src: api.imageURL(a.id, { size: `${px}x${px}`, mode: 'fit', v: a.version }), alt: '', loading: 'lazy', decoding: 'async', draggable: 'false' }),
          suggested ? h('span', { class: 'duplicate-badge', 'data-testid': 'duplicate-suggested' }, icon('sparkle'), 'Suggested') : null),
        h('span', { class: 'duplicate-pick' }, radio,
          h('span', { class: 'duplicate-pick-text' }, 'Keep', h('span', { class: 'visually-hidden' }, ` ${nameOf(a)}`)))),
      facts,
      h('a', { href: `#/photo/${encodeURIComponent(a.id)}`, class: 'duplicate-view', 'data-testid': 'duplicate-view' },
        'View', h('span', { class: 'visually-hidden' }, ` ${nameOf(a)}`)));
  }

  /** Shows a group's photo to keep: its radio checked, its card marked, the others said to go; the button's words. */
  function showChoice(section, g) {
    if (!section) return;
    const keep = keepOf(g);
    for (const li of section.querySelectorAll('[data-testid="duplicate-item"]')) {
      const on = li.dataset.assetId === keep;
      li.classList.toggle('keep', on);
      li.dataset.keep = String(on);
      const radio = li.querySelector('input[type="radio"]');
      if (radio.checked !== on) radio.checked = on;
    }
    const others = g.assets.length - 1;
    const resolve = section.querySelector('[data-testid="duplicate-resolve"]');
    resolve.textContent = `Keep One, Delete ${plural(others, 'Other')}`;
    const waiting = busy.has(g.id);
    resolve.disabled = waiting;
    section.querySelector('[data-testid="duplicate-dismiss"]').disabled = waiting;
    section.setAttribute('aria-busy', String(waiting));
  }

  function renderEmpty() {
    let content = null;
    if (groups && !groups.length) {
      const waiting = status?.waitingAssets || 0;
      content = h('div', { class: 'empty', 'data-testid': 'empty-state' },
        icon('duplicates', { cls: 'empty-icon' }), h('h2', {}, 'No duplicates found'),
        h('p', {}, waiting > 0
          ? `${plural(waiting, 'photo')} ${waiting === 1 ? 'is' : 'are'} still being compared. Photos that look the same appear here as they are found.`
          : 'Sepia compares your photos by how they look: copies of one picture — resized, recompressed or in another format — appear here, to keep one and delete the others.'));
    }
    empty.replaceChildren(...(content ? [content] : []));
  }

  function renderProgress() {
    const waiting = status?.waitingAssets || 0;
    progress.hidden = !(waiting > 0 && groups?.length);
    if (progress.hidden) { progress.replaceChildren(); return; }
    const hashed = status.hashedAssets || 0;
    progress.replaceChildren(h('span', { class: 'spinner', 'aria-hidden': 'true' }),
      h('span', { class: 'duplicates-progress-text' }, `Comparing photos: ${hashed.toLocaleString()} of ${plural(hashed + waiting, 'photo')}`));
  }

  // ----- Keeping one, or none
  /** Moves the group's other photos to Recently Deleted (Undo brings them back). */
  async function resolveGroup(g) {
    if (busy.has(g.id)) return;
    const keep = g.assets.find((a) => a.id === keepOf(g));
    const others = g.assets.filter((a) => a !== keep).map((a) => a.id);
    if (!others.length) return;
    busy.add(g.id);
    showChoice(cards.get(g.id)?.section, g);
    try {
      await api.deleteAssets(others);
    } catch (e) {
      toast.error(e, 'The photos could not be deleted.');
      busy.delete(g.id);
      showChoice(cards.get(g.id)?.section, g);
      return;
    }
    others.forEach((id) => store.assets.delete(id));
    store.emit('assets-deleted', others);
    store.loadAlbums().catch(() => {});
    removeGroup(g);
    toast(`Kept ${nameOf(keep)}. ${plural(others.length, 'photo')} moved to Recently Deleted.`, {
      action: { label: 'Undo', run: async () => { if (await recoverPhotos(others)) changed(); } },
    });
  }

  /** Tells the server the group's photos are not copies of one another (Undo groups them again). */
  async function dismissGroup(g) {
    if (busy.has(g.id)) return;
    const ids = g.assets.map((a) => a.id);
    busy.add(g.id);
    showChoice(cards.get(g.id)?.section, g);
    try {
      await api.dismissDuplicates(ids);
    } catch (e) {
      toast.error(e, 'The photos could not be marked as not duplicates.');
      busy.delete(g.id);
      showChoice(cards.get(g.id)?.section, g);
      return;
    }
    removeGroup(g);
    toast(`Marked as not duplicates: these ${plural(ids.length, 'photo')} are no longer grouped.`, {
      action: {
        label: 'Undo',
        run: async () => {
          try {
            await api.undismissDuplicates(ids);
            toast(`The ${plural(ids.length, 'photo')} are grouped as duplicates again.`);
            changed();
          } catch (e) { toast.error(e, 'The photos could not be grouped again.'); }
        },
      },
    });
  }

  /** Takes a group off the list after a change made here, the keyboard going on to the next group (or the one
   *  before it, or the title). */
  function removeGroup(g) {
    busy.delete(g.id);
    const at = groups.indexOf(g);
    const hadFocus = cards.get(g.id)?.section.contains(document.activeElement);
    groups = groups.filter((x) => x !== g);
    total = Math.max(0, total - 1);
    changed();
    render();
    if (hadFocus || !list.contains(document.activeElement)) {
      const next = groups[Math.min(at, groups.length - 1)];
      const target = next ? cards.get(next.id)?.section.querySelector('input:checked') : null;
      if (target) target.focus();
      else if (hadFocus) { const title = el.querySelector('h1'); title.tabIndex = -1; title.focus(); }
    }
  }

  /** After a change made here: lists read before it are stale, and the list is read again shortly. */
  function changed() {
    changesMade++;
    reload();
  }

  // ----- Loading, and keeping up
  let statusTimer = null;
  /** Reads the list again from its start: as many groups as are shown (at least a page). */
  async function load() {
    clearTimeout(statusTimer);
    requests?.abort();
    paging?.abort();
    paging = null;
    const mine = new AbortController();
    requests = mine;
    const asked = changesMade;
    if (!groups) list.replaceChildren(skeleton());
    try {
      const limit = Math.min(MAX_PAGE, Math.max(PAGE, groups?.length || 0));
      const res = await api.duplicates({ limit, offset: 0 }, mine.signal);
      if (mine !== requests) return;
      requests = null;
      if (asked !== changesMade) { load(); return; } // a change made meanwhile: this answer may show it undone
      groups = res?.groups || [];
      total = res?.total ?? groups.length;
      status = { hashedAssets: res?.hashedAssets || 0, waitingAssets: res?.waitingAssets || 0 };
      render();
      if (status.waitingAssets > 0 && el.isConnected) statusTimer = setTimeout(load, STATUS_EVERY);
    } catch (e) {
      if (e?.name === 'AbortError' || mine !== requests) return;
      requests = null;
      if (groups) { console.warn(e); return; } // what is shown stays; the next change reads it again
      list.replaceChildren();
      empty.replaceChildren(h('div', { class: 'empty', role: 'alert' }, icon('cloudOff', { cls: 'empty-icon' }), h('h2', {}, 'Duplicates could not be loaded'), h('p', {}, e.message),
        h('div', { class: 'actions' }, h('button', { type: 'button', class: 'btn primary', onclick: load }, 'Try Again'))));
    }
  }

  /** The next page of groups, after those shown. */
  async function loadMore() {
    if (!groups || paging || requests || groups.length >= total) return;
    const mine = new AbortController();
    paging = mine;
    moreBtn.disabled = true;
    const asked = changesMade;
    try {
      const res = await api.duplicates({ limit: PAGE, offset: groups.length }, mine.signal);
      if (mine !== paging) return;
      paging = null;
      if (asked !== changesMade) { load(); return; }
      const known = new Set(groups.map((g) => g.id));
      groups = groups.concat((res?.groups || []).filter((g) => !known.has(g.id)));
      total = res?.total ?? total;
      status = { hashedAssets: res?.hashedAssets || 0, waitingAssets: res?.waitingAssets || 0 };
      render();
      requestAnimationFrame(moreIfNearEnd);
    } catch (e) {
      if (e?.name === 'AbortError' || mine !== paging) return;
      paging = null;
      moreBtn.disabled = false;
      toast.error(e, 'More duplicates could not be loaded.');
    }
  }

  // The next page comes when the end of the list is near (More stays for the keyboard, and for when it does not).
  const NEAR = 600;
  const nearEnd = new IntersectionObserver((entries) => {
    if (entries.some((e) => e.isIntersecting)) loadMore();
  }, { root: scroller, rootMargin: `0px 0px ${NEAR}px 0px` });
  nearEnd.observe(more);
  /** A page that did not fill the screen: the next one too (the observer speaks only of changes). */
  function moreIfNearEnd() {
    if (more.hidden || !el.isConnected) return;
    if (more.getBoundingClientRect().top < scroller.getBoundingClientRect().bottom + NEAR) loadMore();
  }

  const skeleton = () => h('div', { class: 'duplicate-group', 'aria-hidden': 'true' },
    h('div', { class: 'duplicate-head' }, h('span', { class: 'duplicate-title-skeleton skeleton' })),
    h('ul', { class: 'duplicate-items' }, Array.from({ length: 3 }, () => h('li', { class: 'duplicate-item' }, h('span', { class: 'duplicate-thumb skeleton' })))));

  // A photo added, changed, deleted or recovered may make, change or end a group.
  const reload = debounce(load, 500);
  offs.push(store.on('change', (data) => { if (changesAssets(data)) reload(); }));
  offs.push(store.on('reset', reload));

  load();

  return {
    el,
    show() { el.inert = false; },
    hide() { el.inert = true; },
    /** Back from a photo opened with View: the keyboard is on its View link again. */
    focusAsset(id) { list.querySelector(`[data-asset-id="${CSS.escape(id)}"] [data-testid="duplicate-view"]`)?.focus({ preventScroll: true }); },
    unmount() {
      clearTimeout(statusTimer);
      reload.cancel();
      requests?.abort();
      paging?.abort();
      nearEnd.disconnect();
      offs.forEach((off) => off());
      el.remove();
    },
  };
}
