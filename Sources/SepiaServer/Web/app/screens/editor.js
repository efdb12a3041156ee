// The Photo Filter editor (#/edit/<id>): LetsEat's screen — the photo large, a strip of every catalog
// filter applied to this photo, tap to apply — with Instafilter's Intensity slider, a crop-and-straighten
// mode, a RAW mode for camera RAW photos (CIRAWFilter's development sliders), Save (non-destructive),
// Revert to Original, Cancel, Share and Copy Edits.
// The large image always comes from the server's preview endpoint (never CSS filters).
import { api } from '../api.js';
import { h, dpr, download, isTypingTarget, formatDate, isVideo } from '../util.js';
import { icon } from '../icons.js';
import { store } from '../store.js';
import { toast } from '../components/toast.js';
import { errorContent } from '../components/error-text.js';
import { confirmDialog } from '../components/dialog.js';
import { FilterStrip } from '../components/filter-strip.js';
import { intensitySlider, LatestRequest } from '../components/intensity-slider.js';
import { CropBox } from '../components/crop-box.js';
import { RAWPanel } from '../components/raw-panel.js';
import * as actions from '../actions.js';
import {
  parseRecipe, buildRecipe, cloneState, rotateClockwise, rotatedSize, isNone, sameRecipe,
  isEmptyRecipe, emptyState, DEFAULT_INTENSITY,
} from '../recipe.js';

export function mountEditor(container, params, ctx) {
  const id = params.id;
  let asset = store.assets.get(id) || null;
  let catalog = [];
  let state = null;
  let savedRecipe = null; // what is saved now (to tell unsaved changes)
  let recognised = true;
  let cropMode = false;
  let rawMode = false;
  let rawPanel = null;
  let cropBox = null;
  let strip = null;
  let saving = false;
  let previewURL = null;
  let lastPreviewKey = '';
  let alive = true;

  // ----- Top bar
  const cancelBtn = h('button', { type: 'button', class: 'btn ghost', 'data-testid': 'cancel-edit', onclick: cancel }, 'Cancel');
  const title = h('h1', { class: 'editor-title', id: 'editor-title' }, 'Edit');
  const subtitle = h('span', { class: 'detail-subtitle' });
  const revertBtn = h('button', { type: 'button', class: 'btn ghost danger-text', 'data-testid': 'revert', disabled: true, onclick: revert }, icon('rotateCCW'), h('span', { class: 'label-wide' }, 'Revert to Original'));
  revertBtn.setAttribute('aria-label', 'Revert to Original');
  const copyBtn = h('button', { type: 'button', class: 'btn icon ghost', 'data-testid': 'copy-edits', aria: { label: 'Copy Edits' }, title: 'Copy Edits (to paste on other photos)', onclick: () => actions.copyRecipe(currentRecipe(), id) }, icon('copy'));
  const shareBtn = h('button', { type: 'button', class: 'btn icon ghost', 'data-testid': 'share-edit', aria: { label: 'Share the edited photo' }, title: 'Share', onclick: share }, icon('share'));
  const saveBtn = h('button', { type: 'button', class: 'btn primary', 'data-testid': 'save-edit', disabled: true, onclick: save }, 'Save');
  const bar = h('header', { class: 'editor-bar' },
    cancelBtn, h('div', { class: 'detail-titles' }, title, subtitle), h('div', { class: 'topbar-spacer' }),
    revertBtn, copyBtn, shareBtn, saveBtn);

  // ----- Stage
  const img = h('img', { class: 'editor-img', alt: 'Preview of the edited photo', 'data-testid': 'editor-preview', draggable: 'false' });
  const busy = h('div', { class: 'render-badge', role: 'status', 'data-testid': 'preview-busy' }, h('span', { class: 'spinner' }), 'Rendering…');
  busy.hidden = true;
  const stageError = h('div', { class: 'stage-error', role: 'alert', hidden: true });
  // Toasts sit over the preview's bottom edge (toast.js), clear of the toolbar, the strip and the slider.
  const stage = h('div', { class: 'editor-stage', 'data-testid': 'editor-stage', 'data-toast-anchor': '12' }, img, busy, stageError);
  const notice = h('p', { class: 'editor-notice', role: 'note', 'data-testid': 'other-edits-notice', hidden: true },
    icon('info'), 'This photo has other edits; they are kept.');

  // ----- Filters panel
  const slider = intensitySlider({
    value: DEFAULT_INTENSITY,
    onInput: (t) => { state.t = t; changed(); },
  });
  const stripHolder = h('div', { class: 'strip-holder' }, h('div', { class: 'strip-loading' }, h('span', { class: 'spinner' }), 'Loading filters…'));
  const filtersPanel = h('div', { class: 'panel-filters' }, slider.el, stripHolder);

  // ----- Crop panel
  const squareBtn = h('button', { type: 'button', class: 'btn small', 'data-testid': 'aspect-square', aria: { pressed: 'false' }, onclick: () => setSquare(true) }, icon('square'), 'Square');
  const freeBtn = h('button', { type: 'button', class: 'btn small', 'data-testid': 'aspect-free', aria: { pressed: 'true' }, onclick: () => setSquare(false) }, icon('free'), 'Free');
  const rotateBtn = h('button', { type: 'button', class: 'btn small', 'data-testid': 'rotate', onclick: rotate }, icon('rotate'), 'Rotate 90°');
  const straightenId = 'straighten-' + Math.random().toString(36).slice(2, 6);
  const straighten = h('input', { id: straightenId, type: 'range', min: '-45', max: '45', step: '0.1', value: '0', 'data-testid': 'straighten' });
  const straightenOut = h('output', { for: straightenId, class: 'slider-value' }, '0°');
  straighten.addEventListener('input', () => { state.angle = Number(straighten.value); syncStraighten(); changed(); });
  straighten.addEventListener('dblclick', () => { straighten.value = '0'; state.angle = 0; syncStraighten(); changed(); });
  const resetBtn = h('button', { type: 'button', class: 'btn small ghost', 'data-testid': 'crop-reset', onclick: resetGeometry }, 'Reset');
  const doneBtn = h('button', { type: 'button', class: 'btn small primary', 'data-testid': 'crop-done', onclick: () => setCropMode(false) }, 'Done');
  const cropPanel = h('div', { class: 'panel-crop', hidden: true },
    h('div', { class: 'crop-tools', role: 'group', aria: { label: 'Aspect ratio' } }, freeBtn, squareBtn, rotateBtn),
    h('div', { class: 'slider-row' }, h('label', { for: straightenId, class: 'slider-label' }, 'Straighten'), straighten, straightenOut),
    h('div', { class: 'crop-actions' }, resetBtn, doneBtn));

  const cropModeBtn = h('button', { type: 'button', class: 'btn small', 'data-testid': 'crop-mode', aria: { pressed: 'false' }, onclick: () => setCropMode(!cropMode) }, icon('crop'), 'Crop & Straighten');
  const filtersModeBtn = h('button', { type: 'button', class: 'btn small', 'data-testid': 'filters-mode', aria: { pressed: 'true' }, onclick: () => { setCropMode(false); setRAWMode(false); } }, icon('sparkle'), 'Filters');
  // Shown for photos whose edits develop a camera RAW file.
  const rawModeBtn = h('button', { type: 'button', class: 'btn small', 'data-testid': 'raw-mode', aria: { pressed: 'false' }, hidden: true, onclick: () => setRAWMode(!rawMode) }, icon('sliders'), 'RAW');
  const rawHolder = h('div', { class: 'raw-holder' });
  const modes = h('div', { class: 'editor-modes', role: 'group', aria: { label: 'Editing mode' } }, filtersModeBtn, rawModeBtn, cropModeBtn);
  const panel = h('div', { class: 'editor-panel' }, modes, notice, filtersPanel, rawHolder, cropPanel);

  const el = h('section', { class: 'screen overlay-screen editor-screen', 'data-testid': 'editor', aria: { labelledby: 'editor-title' } },
    bar, h('div', { class: 'editor-body' }, stage, panel));
  container.append(el);

  // ----- Preview scheduling: one request in flight, the latest value wins.
  const scheduler = new LatestRequest(
    ({ recipe, size }, signal) => api.preview(id, recipe, { size, signal }),
    {
      onResult: (blob) => {
        if (!alive) return;
        const url = URL.createObjectURL(blob);
        const old = previewURL;
        previewURL = url;
        img.onload = () => {
          if (old) URL.revokeObjectURL(old);
          img.classList.add('ready');
          if (cropMode) { placeCropBox(); cropBox?.el.classList.remove('waiting'); }
        };
        img.src = url;
        stageError.hidden = true;
      },
      onError: (e) => {
        cropBox?.el.classList.remove('waiting');
        stageError.hidden = false;
        stageError.replaceChildren(...errorContent(e, { prefix: 'The preview could not be rendered: ' }).filter(Boolean));
        lastPreviewKey = '';
      },
      onBusy: (b) => { busy.hidden = !b; stage.classList.toggle('busy', b); },
    },
  );

  function previewSize() {
    const r = stage.getBoundingClientRect();
    const k = dpr();
    const w = Math.max(64, Math.min(2048, Math.round((r.width - 32) * k)));
    const hgt = Math.max(64, Math.min(2048, Math.round((r.height - 32) * k)));
    return `${w}x${hgt}`;
  }

  function currentRecipe() { return buildRecipe(state, catalog); }

  function requestPreview() {
    if (!state) return;
    const recipe = buildRecipe(state, catalog, { includeCrop: !cropMode });
    const size = previewSize();
    const key = JSON.stringify(recipe) + size;
    if (key === lastPreviewKey) return;
    lastPreviewKey = key;
    scheduler.request({ recipe, size });
  }

  function changed() {
    updateControls();
    requestPreview();
  }

  function isDirty() { return !!state && !sameRecipe(currentRecipe(), savedRecipe); }

  function updateControls() {
    if (!state) return;
    const item = catalog[state.filterIndex];
    if (isNone(item)) slider.setEnabled(false, 'Choose a filter below to adjust its intensity.');
    else slider.setEnabled(true);
    slider.setValue(state.t);
    const dirty = isDirty();
    saveBtn.disabled = !dirty || saving;
    revertBtn.disabled = !asset?.hasAdjustments || saving;
    el.classList.toggle('dirty', dirty);
    straighten.value = String(state.angle);
    syncStraighten();
    const geometry = state.turns || state.angle || state.crop;
    cropModeBtn.classList.toggle('has-changes', !!geometry);
    rawModeBtn.classList.toggle('has-changes', Object.keys(state.raw || {}).length > 0);
  }

  function syncStraighten() {
    const v = Number(straighten.value);
    straightenOut.textContent = `${v > 0 ? '+' : ''}${v.toFixed(1)}°`;
    straighten.setAttribute('aria-valuetext', `${v.toFixed(1)} degrees`);
  }

  // ----- Load
  async function load() {
    try {
      const [a, edit, cat] = await Promise.all([api.asset(id), api.edit(id).catch((e) => ({ failed: e })), store.catalog()]);
      if (!alive) return;
      if (isVideo(a)) {
        // Reached by its address: the server cannot edit a video yet, so say so rather than fail on Save.
        stage.replaceChildren(h('div', { class: 'empty', role: 'alert' }, icon('video', { cls: 'empty-icon' }),
          h('h2', {}, 'Videos cannot be edited yet'), h('p', {}, 'You can play it, favourite, share or download it.'),
          h('div', { class: 'actions' }, h('button', { type: 'button', class: 'btn primary', onclick: () => ctx.back() }, 'Back'))));
        return;
      }
      if (edit?.failed) throw edit.failed;
      asset = a;
      catalog = cat;
      store.rememberAssets([a]);
      if (!img.getAttribute('src')) img.src = api.imageURL(id, { size: '1024x1024', mode: 'fit', v: a.version });
      subtitle.textContent = formatDate(a.creationDate, a.creationDateOffset, { withTime: false });
      const recipe = edit?.current?.recipe || null;
      const parsed = parseRecipe(recipe, a, catalog);
      state = parsed.state;
      recognised = parsed.recognised;
      notice.hidden = recognised;
      // Unsaved changes = a difference from the saved edit as the editor reads it.
      savedRecipe = buildRecipe(state, catalog);
      if (edit?.raw && recognised) {
        rawPanel = new RAWPanel({
          asShot: { temperature: edit.raw.asShotNeutralTemperature, tint: edit.raw.asShotNeutralTint },
          onChange: (parameters) => { state.raw = parameters; changed(); },
        });
        rawPanel.setParameters(state.raw);
        rawHolder.replaceChildren(rawPanel.el);
        rawModeBtn.hidden = false;
      }
      buildStrip();
      updateControls();
      requestPreview();
    } catch (e) {
      if (!alive) return;
      stage.replaceChildren(h('div', { class: 'empty', role: 'alert' }, icon('warning', { cls: 'empty-icon' }),
        h('h2', {}, e.status === 404 ? 'This photo is not in your library' : 'The editor could not open this photo'),
        h('div', { class: 'empty-text' }, errorContent(e)), h('div', { class: 'actions' }, h('button', { type: 'button', class: 'btn primary', onclick: () => ctx.back() }, 'Back'))));
    }
  }

  function buildStrip() {
    strip = new FilterStrip({
      assetId: id, catalog, selected: state.filterIndex,
      onSelect: (i) => {
        if (i !== state.filterIndex) {
          // The slider starts where the catalog says for that entry (Instafilter's 0.5, or its own intensity).
          const start = catalog[i]?.intensity;
          state.t = typeof start === 'number' ? Math.min(1, Math.max(0, start)) : DEFAULT_INTENSITY;
        }
        state.filterIndex = i;
        changed();
        const item = catalog[i];
        if (!isNone(item)) slider.input.focus({ preventScroll: true });
        strip.tileFor(i)?.b.focus();
      },
    });
    stripHolder.replaceChildren(strip.el);
    strip.load().catch((e) => toast.error(e, 'The filter thumbnails could not be loaded.'));
    requestAnimationFrame(() => strip.scrollToSelected());
  }

  // Show something at once: the current version, while the first preview renders.
  if (asset) {
    img.src = api.imageURL(id, { size: '1024x1024', mode: 'fit', v: asset.version });
  }

  // ----- RAW mode: the development sliders in place of the filter strip.
  function setRAWMode(on) {
    if (!state || !rawPanel) return;
    if (on && cropMode) setCropMode(false);
    rawMode = on;
    rawPanel.el.hidden = !on;
    filtersPanel.hidden = on || cropMode;
    rawModeBtn.setAttribute('aria-pressed', String(on));
    filtersModeBtn.setAttribute('aria-pressed', String(!on && !cropMode));
    if (on) requestAnimationFrame(() => rawPanel?.el.querySelector('input')?.focus({ preventScroll: true }));
  }

  // ----- Crop mode
  function setCropMode(on) {
    if (!state) return;
    if (on && rawMode) setRAWMode(false);
    cropMode = on;
    el.classList.toggle('crop-mode', on);
    cropPanel.hidden = !on;
    filtersPanel.hidden = on || rawMode;
    cropModeBtn.setAttribute('aria-pressed', String(on));
    filtersModeBtn.setAttribute('aria-pressed', String(!on));
    if (on) {
      const { w, h: hh } = rotatedSize(state);
      cropBox = new CropBox({
        imageW: w, imageH: hh, crop: state.crop, square: !!(state.crop && Math.abs(state.crop.w - state.crop.h) < 1),
        onChange: (c) => { state.crop = c; updateControls(); },
      });
      setSquareButtons(cropBox.square);
      // Shown once the un-cropped preview has arrived, so that it sits over the right picture.
      cropBox.el.classList.add('waiting');
      stage.append(cropBox.el);
      placeCropBox();
      requestAnimationFrame(() => cropBox?.box.focus());
    } else {
      cropBox?.el.remove();
      cropBox = null;
      cropModeBtn.focus();
    }
    lastPreviewKey = '';
    requestPreview();
  }

  /** Places the crop box over where the un-cropped preview is drawn (object-fit: contain). */
  function placeCropBox() {
    if (!cropBox) return;
    const { w, h: hh } = rotatedSize(state);
    const sr = stage.getBoundingClientRect();
    const ir = img.getBoundingClientRect();
    const aspect = w / hh;
    let dw = ir.width; let dh = ir.width / aspect;
    if (dh > ir.height) { dh = ir.height; dw = dh * aspect; }
    cropBox.setDisplay({ left: ir.left - sr.left + (ir.width - dw) / 2, top: ir.top - sr.top + (ir.height - dh) / 2, width: dw, height: dh });
  }

  function setSquareButtons(on) {
    squareBtn.setAttribute('aria-pressed', String(on));
    freeBtn.setAttribute('aria-pressed', String(!on));
  }

  function setSquare(on) {
    if (!cropMode) setCropMode(true);
    setSquareButtons(on);
    cropBox?.setSquare(on);
  }

  function rotate() {
    state = rotateClockwise(state);
    if (cropBox) {
      const { w, h: hh } = rotatedSize(state);
      cropBox.setImageSize(w, hh, state.crop);
    }
    changed();
  }

  function resetGeometry() {
    state.turns = 0;
    state.angle = 0;
    state.crop = null;
    if (cropBox) {
      const { w, h: hh } = rotatedSize(state);
      cropBox.setImageSize(w, hh, null);
      setSquareButtons(cropBox.square);
    }
    changed();
  }

  // ----- Save / revert / cancel / share
  async function save() {
    if (!isDirty() || saving) return;
    saving = true;
    saveBtn.disabled = true;
    saveBtn.replaceChildren(h('span', { class: 'spinner' }), 'Saving…');
    try {
      const recipe = currentRecipe();
      let updated;
      if (isEmptyRecipe(recipe)) updated = asset?.hasAdjustments ? await api.revertEdit(id) : asset;
      else updated = await api.saveEdit(id, recipe);
      asset = updated;
      savedRecipe = recipe;
      store.rememberAssets([updated]);
      store.emit('assets-updated', [updated]);
      toast.success('Saved. The original is kept — Revert to Original brings it back.');
      leave();
    } catch (e) {
      toast.error(e, 'The edit could not be saved.');
    } finally {
      saving = false;
      saveBtn.replaceChildren('Save');
      updateControls();
    }
  }

  async function revert() {
    const ok = await confirmDialog({
      title: 'Revert to Original?',
      message: 'The photo goes back to how it was imported: filter, crop and rotation are removed. Earlier edits stay in its history.',
      confirmLabel: 'Revert to Original', destructive: true, testid: 'revert-dialog',
    });
    if (!ok) return;
    try {
      const updated = await api.revertEdit(id);
      asset = updated;
      store.rememberAssets([updated]);
      store.emit('assets-updated', [updated]);
      state = emptyState(updated.width, updated.height);
      rawPanel?.setParameters({});
      savedRecipe = { steps: [] };
      recognised = true;
      notice.hidden = true;
      strip?.select(0);
      strip?.destroy();
      buildStrip();
      if (cropBox) { const { w, h: hh } = rotatedSize(state); cropBox.setImageSize(w, hh, null); }
      changed();
      toast.success('Reverted to the original.');
    } catch (e) { toast.error(e, 'The photo could not be reverted.'); }
  }

  async function cancel() {
    if (isDirty()) {
      const ok = await confirmDialog({ title: 'Discard changes?', message: 'Your changes to this photo have not been saved.', confirmLabel: 'Discard Changes', cancelLabel: 'Keep Editing', destructive: true, testid: 'discard-dialog' });
      if (!ok) return;
    }
    leave();
  }

  function leave() {
    alive = false;
    ctx.back(`#/photo/${id}`);
  }

  async function share() {
    shareBtn.disabled = true;
    try {
      const blob = await api.preview(id, currentRecipe(), { size: '2048x2048', format: 'jpeg' });
      const base = (asset?.originalFilename || 'photo').replace(/\.[^.]+$/, '');
      const file = new File([blob], `${base} (Sepia).jpg`, { type: 'image/jpeg' });
      if (navigator.canShare?.({ files: [file] })) await navigator.share({ files: [file], title: file.name });
      else { download(blob, file.name); toast('This browser cannot share files, so the edited photo was downloaded.'); }
    } catch (e) {
      if (e?.name !== 'AbortError') toast.error(e, 'The photo could not be shared.');
    } finally { shareBtn.disabled = false; }
  }

  // ----- Keyboard and resizing
  const onKey = (e) => {
    if (document.querySelector('dialog[open]')) return;
    if (e.key === 'Escape') {
      e.preventDefault();
      if (cropMode) setCropMode(false); else cancel();
    } else if ((e.key === 's' || e.key === 'S') && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      save();
    } else if ((e.key === 'c' || e.key === 'C') && !isTypingTarget(e.target) && !e.ctrlKey && !e.metaKey && !e.altKey && e.target.type !== 'range') {
      setCropMode(!cropMode);
    }
  };
  document.addEventListener('keydown', onKey);
  const ro = new ResizeObserver(() => { placeCropBox(); requestPreviewDebounced(); });
  let resizeTimer = null;
  function requestPreviewDebounced() { clearTimeout(resizeTimer); resizeTimer = setTimeout(requestPreview, 200); }
  ro.observe(stage);
  const beforeUnload = (e) => { if (isDirty()) { e.preventDefault(); e.returnValue = ''; } };
  window.addEventListener('beforeunload', beforeUnload);

  load();
  requestAnimationFrame(() => cancelBtn.focus());

  return {
    el,
    /** The router asks before leaving by the back button or a link. */
    canLeave: () => !isDirty() || !alive,
    confirmLeave: async () => {
      if (!isDirty() || !alive) return true;
      return confirmDialog({ title: 'Discard changes?', message: 'Your changes to this photo have not been saved.', confirmLabel: 'Discard Changes', cancelLabel: 'Keep Editing', destructive: true, testid: 'discard-dialog' });
    },
    unmount() {
      alive = false;
      scheduler.stop();
      ro.disconnect();
      clearTimeout(resizeTimer);
      document.removeEventListener('keydown', onKey);
      window.removeEventListener('beforeunload', beforeUnload);
      strip?.destroy();
      if (previewURL) URL.revokeObjectURL(previewURL);
      el.remove();
    },
    // For tests: how many preview requests went out.
    get previewRequests() { return scheduler.sent; },
    cloneState: () => cloneState(state),
  };
}
