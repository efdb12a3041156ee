// UploadQueue: uploads files (at most 3 at once) and shows a panel with a progress bar per file and
// overall. A refused file says why in the server's words for people, its technical detail in a closed
// disclosure; duplicates link to the photo already there. Videos go the same way (the server tells them by
// their bytes); a Live Photo's still and movie, chosen together, become one item.
//
// The panel never covers what a person needs: on the library it floats in a corner, and on a photo, in the
// editor or the camera it is docked as a bar along the bottom whose room the screen leaves free
// (body.upload-docked; its list opens above it only when asked). A batch without refusals closes by itself
// 5 s after it ends, or once the pointer and the keyboard have left the panel.
import { api } from '../api.js';
import { h, formatBytes, plural } from '../util.js';
import { icon } from '../icons.js';
import { toast } from './toast.js';
import { errorDetails } from './error-text.js';

const CONCURRENCY = 3;
/** The file types the picker offers: photos and videos (some systems know HEIF or MTS by extension only). */
export const ACCEPT = 'image/*,video/*,.heic,.heif,.avif,.tif,.tiff,.dng,.cr2,.cr3,.crw,.nef,.nrw,.arw,.srf,.sr2,.raf,.orf,.rw2,.rwl,.pef,.srw,.kdc,.dcr,.3fr,.iiq,.erf,.mef,.mos,.mrw,.x3f,.gpr,.mov,.mp4,.m4v,.3gp,.mkv,.webm,.avi,.mts,.m2ts,.xmp';
const VIDEO_EXTENSION = /\.(mov|mp4|m4v|3gp|mkv|webm|avi|mts|m2ts)$/i;

const SIDECAR_EXTENSION = /\.xmp$/i;

/**
 * Splits chosen files into media and XMP sidecars, and gives each medium its sidecar: `NAME.ext.xmp` (digiKam's,
 * darktable's), else `NAME.xmp` (Lightroom's), compared without regard to case, as `sepia import` finds them.
 * Returns {media: [{file, sidecar}], orphans: [sidecar files no medium claims]}.
 */
export function pairSidecars(files) {
  const sidecars = new Map();
  const media = [];
  for (const file of files) {
    if (SIDECAR_EXTENSION.test(file.name || '')) sidecars.set(file.name.toLowerCase(), file);
    else media.push(file);
  }
  const claimed = new Set();
  const paired = media.map((file) => {
    const name = (file.name || '').toLowerCase();
    const dot = name.lastIndexOf('.');
    const keys = [name + '.xmp'];
    if (dot > 0) keys.push(name.slice(0, dot) + '.xmp');
    const key = keys.find((k) => sidecars.has(k));
    if (key) claimed.add(key);
    return { file, sidecar: key ? sidecars.get(key) : null };
  });
  const orphans = [...sidecars.entries()].filter(([k]) => !claimed.has(k)).map(([, f]) => f);
  return { media: paired, orphans };
}

/** Whether a file chosen or dropped looks like a video (for wording only: the server decides by its bytes). */
export const isVideoFile = (file) => (file?.type || '').startsWith('video/') || VIDEO_EXTENSION.test(file?.name || '');

/** "photo", "video" or "item", for a batch's wording. */
function noun(items) {
  const videos = items.filter((x) => x.video).length;
  return videos === 0 ? 'photo' : videos === items.length ? 'video' : 'item';
}

class UploadQueue {
  constructor() {
    this.items = [];
    this.running = 0;
    this.listeners = new Set();
    this.panel = null;
    this.docked = false;
    this.collapsedUndocked = false;
    this.closeOnLeave = false;
  }

  /** Adds files; options: {album, onCreated(asset), navigateToFirst} */
  add(files, { album = null, onDone } = {}) {
    const list = [...files].filter((f) => f && f.size !== undefined);
    if (!list.length) return [];
    const { media, orphans } = pairSidecars(list);
    const added = media.map(({ file, sidecar }) => ({
      file, sidecar, album, onDone, name: file.name || 'Photo.jpg', size: file.size, video: isVideoFile(file),
      loaded: 0, state: 'waiting', message: '', id: null, xhr: null, el: null,
    }));
    // A sidecar whose photo was not chosen with it has nothing to go to: said at once, like a refused file.
    for (const file of orphans) {
      added.push({
        file, name: file.name, size: file.size, video: false, loaded: 0, state: 'error', id: null, el: null,
        message: 'An XMP sidecar with no photo beside it: choose it together with its photo (NAME.jpg with NAME.jpg.xmp or NAME.xmp).',
      });
    }
    this.items.push(...added);
    this.ensurePanel();
    for (const item of added) this.renderItem(item);
    this.updateSummary();
    this.pump();
    return added;
  }

  pump() {
    while (this.running < CONCURRENCY) {
      const next = this.items.find((x) => x.state === 'waiting');
      if (!next) break;
      this.start(next);
    }
    this.updateSummary();
  }

  async start(item) {
    this.running++;
    item.state = 'uploading';
    this.renderItem(item);
    const task = api.upload(item.file, {
      filename: item.name,
      modified: item.file.lastModified || undefined,
      album: item.album || undefined,
    }, (loaded, total) => {
      item.loaded = loaded;
      item.size = total || item.size;
      this.renderProgress(item);
    });
    item.abort = task.abort;
    try {
      const res = await task.promise;
      item.loaded = item.size;
      item.id = res.id;
      item.asset = res.asset || null;
      item.state = res.status === 'duplicate' || res.httpStatus === 200 ? 'duplicate' : 'done';
      // "paired": the other half of a Live Photo already there (or in this batch) was joined to it.
      item.paired = res.status === 'paired';
      item.message = item.state === 'duplicate' ? 'Already in your library' : 'Added';
      // Its sidecar, once the photo is in: a new photo (or the other half of a pair) takes what it says.
      if (item.sidecar && item.id && item.state === 'done') {
        try {
          const applied = await api.putSidecar(item.id, item.sidecar);
          item.asset = applied.asset || item.asset;
          item.sidecarMessage = applied.warnings?.length
            ? `Added with ${item.sidecar.name}, ${applied.warnings.length === 1 ? 'one value' : `${applied.warnings.length} values`} left out: ${applied.warnings.join('; ')}`
            : `Added with ${item.sidecar.name}`;
        } catch (e) {
          item.sidecarMessage = `Added, without its sidecar ${item.sidecar.name}: ${e.message || 'it could not be read.'}`;
        }
      }
      item.onDone?.(item);
    } catch (e) {
      item.state = e.error === 'aborted' ? 'cancelled' : 'error';
      item.message = e.message || 'The upload failed.';
      item.error = e;
      item.httpStatus = e.status;
    } finally {
      this.running--;
      this.renderItem(item);
      this.pump();
      this.listeners.forEach((fn) => fn(item));
    }
  }

  onItemDone(fn) { this.listeners.add(fn); return () => this.listeners.delete(fn); }

  get active() { return this.items.some((x) => x.state === 'waiting' || x.state === 'uploading'); }

  // ---------- Panel ----------
  ensurePanel() {
    if (this.panel?.isConnected) { this.panel.hidden = false; return; }
    this.title = h('h2', { class: 'upload-title', id: 'upload-title' }, 'Uploading');
    this.overallBar = h('progress', { class: 'progress', max: '100', value: '0', aria: { label: 'Overall upload progress' }, 'data-testid': 'upload-overall' });
    this.summary = h('p', { class: 'upload-summary', role: 'status' });
    this.list = h('ul', { class: 'upload-list', id: 'upload-list' });
    this.toggleBtn = h('button', { type: 'button', class: 'btn icon small ghost upload-toggle', 'data-testid': 'upload-toggle', aria: { label: 'Hide the upload list', expanded: 'true', controls: 'upload-list' }, onclick: () => this.toggle() }, icon('chevronDown'));
    this.closeBtn = h('button', { type: 'button', class: 'btn icon small ghost', 'data-testid': 'upload-close', aria: { label: 'Close upload panel' }, onclick: () => this.close() }, icon('close'));
    this.panel = h('section', { class: 'upload-panel', 'data-testid': 'upload-panel', aria: { labelledby: 'upload-title' } },
      h('div', { class: 'upload-head' }, this.title, h('div', { class: 'upload-head-btns' }, this.toggleBtn, this.closeBtn)),
      this.overallBar, this.summary, this.list);
    // Closing waits for the pointer and the keyboard to leave (see closeIfIdle).
    const left = () => { if (this.closeOnLeave) this.scheduleClose(2000); };
    this.panel.addEventListener('mouseleave', left);
    this.panel.addEventListener('focusout', left);
    // Where the keyboard came from, to go back to when the panel closes under it.
    this.panel.addEventListener('focusin', (e) => {
      if (e.relatedTarget && !this.panel.contains(e.relatedTarget)) this.focusBefore = e.relatedTarget;
    });
    this.panel.addEventListener('keydown', (e) => {
      // Escape folds the docked list away (and stays here: the editor's Escape means Cancel).
      if (e.key === 'Escape' && this.docked && !this.panel.classList.contains('collapsed')) {
        e.preventDefault();
        e.stopPropagation();
        this.setCollapsed(true);
        this.toggleBtn.focus();
      }
    });
    this.collapsedUndocked = false;
    if (this.docked) this.setCollapsed(true);
    this.panel.classList.toggle('docked', this.docked);
    document.body.append(this.panel);
    this.syncDock();
  }

  /** Docked (a bar at the bottom, the list folded) while a photo, the editor or the camera is open. */
  setDocked(on) {
    on = !!on;
    if (this.docked === on) return;
    this.docked = on;
    if (this.panel) {
      if (on) {
        this.collapsedUndocked = this.panel.classList.contains('collapsed');
        // Focus in the list (a "View" link just followed) moves to the button that opens it again.
        if (this.list.contains(document.activeElement)) this.toggleBtn.focus({ preventScroll: true });
        this.setCollapsed(true);
      } else {
        this.setCollapsed(this.collapsedUndocked);
      }
      this.panel.classList.toggle('docked', on);
    }
    this.syncDock();
  }

  syncDock() {
    document.body.classList.toggle('upload-docked', this.docked && !!this.panel?.isConnected);
  }

  toggle() { this.setCollapsed(!this.panel.classList.contains('collapsed')); }

  setCollapsed(collapsed) {
    if (!this.panel) return;
    this.panel.classList.toggle('collapsed', collapsed);
    this.toggleBtn.setAttribute('aria-expanded', String(!collapsed));
    this.toggleBtn.setAttribute('aria-label', collapsed ? 'Show the upload list' : 'Hide the upload list');
    // The docked list is a popover: a press elsewhere folds it away.
    document.removeEventListener('pointerdown', this.outside, true);
    if (this.docked && !collapsed) document.addEventListener('pointerdown', this.outside, true);
  }

  outside = (e) => {
    if (this.panel && !this.panel.contains(e.target)) this.setCollapsed(true);
  };

  close() {
    if (this.active) {
      for (const x of this.items) {
        if (x.state === 'waiting') { x.state = 'cancelled'; x.message = 'Upload cancelled.'; }
        if (x.state === 'uploading') x.abort?.();
      }
    }
    this.items = this.items.filter((x) => x.state === 'uploading');
    if (!this.items.length) {
      clearTimeout(this.closeTimer);
      this.closeOnLeave = false;
      document.removeEventListener('pointerdown', this.outside, true);
      const hadFocus = !!this.panel?.contains(document.activeElement);
      this.panel?.remove();
      this.panel = null;
      this.syncDock();
      if (hadFocus && this.focusBefore?.isConnected) this.focusBefore.focus({ preventScroll: true });
      this.focusBefore = null;
    }
  }

  scheduleClose(ms) {
    clearTimeout(this.closeTimer);
    this.closeTimer = setTimeout(() => this.closeIfIdle(), ms);
  }

  /** Closes a finished batch without refusals, unless the pointer or the keyboard is on the panel: then it
   *  closes once they have left. */
  closeIfIdle() {
    if (!this.panel || !this.finishedClean()) return;
    if (this.panel.matches(':hover, :focus-within')) { this.closeOnLeave = true; return; }
    this.close();
  }

  finishedClean() {
    const all = this.items;
    return all.length > 0 && !all.some((x) => x.state === 'waiting' || x.state === 'uploading' || x.state === 'error');
  }

  renderItem(item) {
    if (!this.list) return;
    if (!item.el) {
      item.bar = h('progress', { class: 'progress small', max: '100', value: '0', aria: { label: `Progress of ${item.name}` } });
      item.statusEl = h('span', { class: 'upload-status' });
      item.extra = h('span', { class: 'upload-extra' });
      item.cancel = h('button', { type: 'button', class: 'btn icon small ghost', aria: { label: `Cancel upload of ${item.name}` }, onclick: () => this.cancel(item) }, icon('close'));
      item.el = h('li', { class: 'upload-item', 'data-testid': 'upload-item' },
        h('div', { class: 'upload-row' }, h('span', { class: 'upload-name', title: item.name }, item.name), item.cancel),
        item.bar,
        h('div', { class: 'upload-row small' }, item.statusEl, item.extra));
      this.list.append(item.el);
    }
    item.el.dataset.state = item.state;
    const done = !['waiting', 'uploading'].includes(item.state);
    item.cancel.hidden = done;
    item.bar.hidden = done && item.state !== 'done' && item.state !== 'duplicate';
    item.extra.replaceChildren();
    item.detailsEl?.remove();
    item.detailsEl = null;
    switch (item.state) {
      case 'waiting': item.statusEl.textContent = `Waiting · ${formatBytes(item.size)}`; break;
      case 'uploading': this.renderProgress(item); break;
      case 'done':
        item.bar.value = 100;
        item.statusEl.textContent = item.sidecarMessage || (item.paired ? 'Added to its Live Photo' : 'Added');
        if (item.id) item.extra.append(h('a', { href: `#/photo/${item.id}`, class: 'upload-link' }, 'View'));
        break;
      case 'duplicate':
        item.bar.value = 100;
        item.statusEl.textContent = 'Duplicate — already in your library.';
        if (item.id) item.extra.append(h('a', { href: `#/photo/${item.id}`, class: 'upload-link', 'data-testid': 'upload-duplicate-link' }, item.video ? 'Show the video' : 'Show the photo'));
        break;
      case 'error':
        // The server's sentence as it is (it may name the file); its technical words folded away under it.
        item.statusEl.textContent = item.message;
        item.statusEl.setAttribute('role', 'alert');
        item.detailsEl = errorDetails(item.error);
        if (item.detailsEl) item.el.append(item.detailsEl);
        break;
      case 'cancelled': item.statusEl.textContent = 'Cancelled'; break;
      default: break;
    }
    this.updateSummary();
  }

  renderProgress(item) {
    if (!item.bar) return;
    const pct = item.size ? Math.round((item.loaded / item.size) * 100) : 0;
    item.bar.value = pct;
    item.statusEl.textContent = pct >= 100 ? 'Processing…' : `${pct}% of ${formatBytes(item.size)}`;
    this.updateSummary();
  }

  cancel(item) {
    if (item.state === 'waiting') { item.state = 'cancelled'; this.renderItem(item); }
    else if (item.state === 'uploading') item.abort?.();
  }

  updateSummary() {
    if (!this.panel) return;
    const all = this.items;
    const total = all.reduce((n, x) => n + (x.state === 'cancelled' ? 0 : x.size || 0), 0);
    const loaded = all.reduce((n, x) => n + (x.state === 'cancelled' ? 0 : ['done', 'duplicate', 'error'].includes(x.state) ? x.size || 0 : x.loaded || 0), 0);
    this.overallBar.value = total ? Math.round((loaded / total) * 100) : 0;
    const done = all.filter((x) => x.state === 'done').length;
    const dup = all.filter((x) => x.state === 'duplicate').length;
    const failed = all.filter((x) => x.state === 'error').length;
    const pending = all.filter((x) => x.state === 'waiting' || x.state === 'uploading').length;
    if (pending) {
      this.title.textContent = `Uploading ${plural(pending, noun(all.filter((x) => x.state === 'waiting' || x.state === 'uploading')))}`;
      this.summary.textContent = `${done + dup} of ${all.length} done` + (failed ? ` · ${failed} refused` : '');
    } else {
      this.title.textContent = failed ? 'Upload finished with problems' : 'Upload complete';
      const parts = [];
      if (done) parts.push(`${plural(done, noun(all.filter((x) => x.state === 'done')))} added`);
      if (dup) parts.push(`${plural(dup, 'duplicate')} skipped`);
      if (failed) parts.push(`${failed} refused`);
      this.summary.textContent = parts.join(' · ') || 'Nothing uploaded';
    }
    this.panel.classList.toggle('has-errors', failed > 0);
    // A clean batch closes by itself after a moment; refused files keep the panel open until closed.
    clearTimeout(this.closeTimer);
    this.closeOnLeave = false;
    if (this.finishedClean()) this.scheduleClose(5000);
  }
}

export const uploads = new UploadQueue();

let pickerInput = null;
let pickerOptions = {};
/**
 * The one file input (data-testid="file-input"; hidden, but tests can send files to it). Files chosen
 * go to the album being viewed, given by `getOptions()` at the time of the change.
 */
export function fileInput(getOptions = () => pickerOptions) {
  if (pickerInput?.isConnected) { pickerInput.getOptions = getOptions; return pickerInput; }
  pickerInput = h('input', {
    type: 'file', multiple: true, accept: ACCEPT, class: 'visually-hidden', tabindex: '-1',
    'aria-hidden': 'true', 'data-testid': 'file-input',
  });
  pickerInput.getOptions = getOptions;
  pickerInput.addEventListener('change', () => {
    if (pickerInput.files?.length) uploads.add(pickerInput.files, pickerInput.getOptions() || {});
    pickerInput.value = '';
  });
  document.body.append(pickerInput);
  return pickerInput;
}

/** Opens the system file picker and uploads what is chosen. */
export function pickAndUpload(options = {}) {
  pickerOptions = options;
  const input = fileInput(() => pickerOptions);
  input.click();
}

/** Whether a drag carries files (not an in-app drag). */
export function dragHasFiles(e) {
  return [...(e.dataTransfer?.types || [])].includes('Files');
}

export function refusedSummary(items) {
  const failed = items.filter((x) => x.state === 'error');
  if (failed.length) toast.error(`${plural(failed.length, 'file')} could not be added. See the upload panel for why.`);
}

/** Where files picked or dropped now go (the album being viewed, if any). */
export function setUploadContext(options = {}) { pickerOptions = options; }
export function uploadContext() { return pickerOptions; }
