// The Photo Filter editor (#/edit/<id>): LetsEat's screen — the photo large, a strip of every catalog
// filter applied to this photo, tap to apply — with Instafilter's Intensity slider, an Adjust mode (Photos'
// Light, Color, Black & White and Detail sliders, Auto, a live histogram), a crop-and-straighten mode, a RAW
// mode for camera RAW photos (CIRAWFilter's development sliders), compare with the original (press and hold
// the photo, or hold \), undo and redo, Save (non-destructive), Revert to Original, Cancel, Share and Copy
// Edits. Edit presets: the user's presets in the strip after the looks (choosing one applies its look and
// adjustments as Paste Edits would, keeping the photo's crop, rotation and RAW development), Save as Preset
// (in the strip and in the Adjust panel) and Manage Presets (delete).
// The large image always comes from the server's preview endpoint (never CSS filters); while a slider is
// dragged, each input is painted at once as a blend of two of the server's renders of that slider at
// nearby positions (DragPreview), and the exact render follows when the hand pauses or lets go.
import { api } from '../api.js';
import { h, dpr, download, keyBelongsToControl, formatDate, mediaKind } from '../util.js';
import { icon } from '../icons.js';
import { store } from '../store.js';
import { toast } from '../components/toast.js';
import { errorContent } from '../components/error-text.js';
import { confirmDialog } from '../components/dialog.js';
import { FilterStrip } from '../components/filter-strip.js';
import { intensitySlider, LatestRequest } from '../components/intensity-slider.js';
import { CropBox } from '../components/crop-box.js';
import { RAWPanel } from '../components/raw-panel.js';
import { AdjustPanel, histogramPixels } from '../components/adjust-panel.js';
import { DragPreview } from '../components/drag-preview.js';
import * as actions from '../actions.js';
import {
  parseRecipe, buildRecipe, cloneState, rotateClockwise, rotatedSize, isNone, sameRecipe,
  isEmptyRecipe, emptyState, DEFAULT_INTENSITY, recipeOf, applyLook,
} from '../recipe.js';

export function mountEditor(container, params, ctx) {
  const id = params.id;
  let asset = store.assets.get(id) || null;
  let catalog = [];
  let adjustments = null; // the Adjust panel's sections and sliders (null when the server has none)
  let state = null;
  let savedRecipe = null; // what is saved now (to tell unsaved changes)
  let recognised = true;
  let cropMode = false;
  let rawMode = false;
  let rawPanel = null;
  let adjustMode = false;
  let adjustPanel = null;
  // Undo and redo: snapshots of the state after each step of the session (a drag counts once, on release).
  let history = [];
  let historyAt = -1;
  let clickBase = null; // where the history was at the first click of a possible double-click on a slider
  // Compare: the original (the photo with no edit), rendered once on the first press.
  let originalURL = null;
  let originalLoading = null;
  let comparing = false;
  let cropBox = null;
  let strip = null;
  let saving = false;
  let previewURL = null;
  let lastPreviewKey = '';
  let shownKey = ''; // the recipe and size of the exact preview on screen
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
  const mac = /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
  const undoBtn = h('button', { type: 'button', class: 'btn icon ghost', 'data-testid': 'undo', disabled: true, aria: { label: 'Undo', keyshortcuts: mac ? 'Meta+Z' : 'Control+Z' }, title: `Undo (${mac ? '⌘Z' : 'Ctrl+Z'})`, onclick: () => undo() }, icon('undo'));
  const redoBtn = h('button', { type: 'button', class: 'btn icon ghost', 'data-testid': 'redo', disabled: true, aria: { label: 'Redo', keyshortcuts: mac ? 'Meta+Shift+Z' : 'Control+Shift+Z' }, title: `Redo (${mac ? '⇧⌘Z' : 'Ctrl+Shift+Z'})`, onclick: () => redo() }, icon('redo'));
  const bar = h('header', { class: 'editor-bar' },
    cancelBtn, h('div', { class: 'detail-titles' }, title, subtitle), h('div', { class: 'topbar-spacer' }),
    undoBtn, redoBtn, revertBtn, copyBtn, shareBtn, saveBtn);

  // ----- Stage
  const img = h('img', { class: 'editor-img', alt: 'Preview of the edited photo', 'data-testid': 'editor-preview', draggable: 'false' });
  const busy = h('div', { class: 'render-badge', role: 'status', 'data-testid': 'preview-busy' }, h('span', { class: 'spinner' }), 'Rendering…');
  busy.hidden = true;
  const stageError = h('div', { class: 'stage-error', role: 'alert', hidden: true });
  // Toasts sit over the preview's bottom edge (toast.js), clear of the toolbar, the strip and the slider.
  const originalImg = h('img', { class: 'editor-img editor-original', alt: 'The original photo', 'data-testid': 'editor-original', draggable: 'false', hidden: true });
  const originalBadge = h('div', { class: 'original-badge', 'data-testid': 'original-badge', hidden: true }, 'Original');
  // While a slider is dragged: the blend of the two keyframes around its value (see DragPreview).
  const blend = h('canvas', { class: 'editor-img editor-blend', 'data-testid': 'editor-blend', aria: { hidden: 'true' }, hidden: true });
  const stage = h('div', { class: 'editor-stage', 'data-testid': 'editor-stage', 'data-toast-anchor': '12' }, img, blend, originalImg, busy, originalBadge, stageError);
  const notice = h('p', { class: 'editor-notice', role: 'note', 'data-testid': 'other-edits-notice', hidden: true },
    icon('info'), 'This photo has other edits; they are kept.');

  // ----- Filters panel
  const slider = intensitySlider({
    value: DEFAULT_INTENSITY,
    onInput: (t) => { state.t = t; changed(); },
    onChange: commitFrom('intensity'),
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
  straighten.addEventListener('change', commitFrom('straighten'));
  straighten.addEventListener('dblclick', () => { straighten.value = '0'; state.angle = 0; syncStraighten(); changed(); commit({ source: 'straighten', amend: true }); });
  const resetBtn = h('button', { type: 'button', class: 'btn small ghost', 'data-testid': 'crop-reset', onclick: resetGeometry }, 'Reset');
  const doneBtn = h('button', { type: 'button', class: 'btn small primary', 'data-testid': 'crop-done', onclick: () => setCropMode(false) }, 'Done');
  const cropPanel = h('div', { class: 'panel-crop', hidden: true },
    h('div', { class: 'crop-tools', role: 'group', aria: { label: 'Aspect ratio' } }, freeBtn, squareBtn, rotateBtn),
    h('div', { class: 'slider-row' }, h('label', { for: straightenId, class: 'slider-label' }, 'Straighten'), straighten, straightenOut),
    h('div', { class: 'crop-actions' }, resetBtn, doneBtn));

  const cropModeBtn = h('button', { type: 'button', class: 'btn small', 'data-testid': 'crop-mode', aria: { pressed: 'false' }, onclick: () => setCropMode(!cropMode) }, icon('crop'), 'Crop & Straighten');
  const filtersModeBtn = h('button', { type: 'button', class: 'btn small', 'data-testid': 'filters-mode', aria: { pressed: 'true' }, onclick: () => { setCropMode(false); setRAWMode(false); setAdjustMode(false); } }, icon('sparkle'), 'Filters');
  // Photos' Adjust: shown once the server has told the panel's sliders.
  const adjustModeBtn = h('button', { type: 'button', class: 'btn small', 'data-testid': 'adjust-mode', aria: { pressed: 'false' }, hidden: true, onclick: () => setAdjustMode(!adjustMode) }, icon('dial'), 'Adjust');
  // Shown for photos whose edits develop a camera RAW file.
  const rawModeBtn = h('button', { type: 'button', class: 'btn small', 'data-testid': 'raw-mode', aria: { pressed: 'false' }, hidden: true, onclick: () => setRAWMode(!rawMode) }, icon('sliders'), 'RAW');
  const rawHolder = h('div', { class: 'raw-holder' });
  const adjustHolder = h('div', { class: 'adjust-holder' });
  const modes = h('div', { class: 'editor-modes', role: 'group', aria: { label: 'Editing mode' } }, filtersModeBtn, adjustModeBtn, rawModeBtn, cropModeBtn);
  const panel = h('div', { class: 'editor-panel', 'data-testid': 'editor-panel' }, modes, notice, filtersPanel, adjustHolder, rawHolder, cropPanel);

  const el = h('section', { class: 'screen overlay-screen editor-screen', 'data-testid': 'editor', aria: { labelledby: 'editor-title' } },
    bar, h('div', { class: 'editor-body' }, stage, panel));
  container.append(el);

  // ----- Preview scheduling: one request in flight, the latest value wins.
  const scheduler = new LatestRequest(
    ({ recipe, size }, signal) => api.preview(id, recipe, { size, signal }),
    {
      // Settles once the preview is decoded and about to be painted (or failed to load), so that the next
      // request goes out then: see LatestRequest.
      onResult: (blob, { key }) => new Promise((shown) => {
        if (!alive) { shown(); return; }
        const url = URL.createObjectURL(blob);
        const old = previewURL;
        previewURL = url;
        img.onload = () => {
          if (old) URL.revokeObjectURL(old);
          img.classList.add('ready');
          shownKey = key;
          // The blend gives way once the exact render of the edit as it is now is shown; over an older
          // render (one a moving slider has already left), it stays on top.
          if (key === previewKey()) blend.hidden = true;
          drawHistogramOf(blob);
          if (cropMode) { placeCropBox(); cropBox?.el.classList.remove('waiting'); }
          shown();
        };
        img.onerror = () => shown();
        img.src = url;
        stageError.hidden = true;
      }),
      onError: (e) => {
        cropBox?.el.classList.remove('waiting');
        stageError.hidden = false;
        stageError.replaceChildren(...errorContent(e, { prefix: 'The preview could not be rendered: ' }).filter(Boolean));
        lastPreviewKey = '';
      },
      onBusy: (b) => { rendering = b; syncBusy(); },
    },
  );

  // "Rendering…": while a preview is in flight, or a dragged slider's value waits for its keyframes.
  let rendering = false;
  function syncBusy() {
    const b = rendering || dragPreview.waiting;
    busy.hidden = !b;
    stage.classList.toggle('busy', b);
  }

  function previewSize() {
    const r = stage.getBoundingClientRect();
    const k = dpr();
    const w = Math.max(64, Math.min(2048, Math.round((r.width - 32) * k)));
    const hgt = Math.max(64, Math.min(2048, Math.round((r.height - 32) * k)));
    return `${w}x${hgt}`;
  }

  // The histogram follows the picture shown: recomputed whenever a preview has loaded, from a 256-pixel-wide
  // copy decoded off the main thread (drawing the full preview into a canvas decoded it on the main thread
  // and held back the frame that shows it, 8 ms a preview while a slider moves).
  let histogramOf = 0;
  function drawHistogramOf(blob) {
    if (!adjustPanel || adjustPanel.el.hidden) return;
    const n = ++histogramOf;
    const current = () => n === histogramOf && alive && adjustPanel && !adjustPanel.el.hidden;
    createImageBitmap(blob, { resizeWidth: 256, resizeQuality: 'medium' })
      .then((bitmap) => { if (current()) adjustPanel.drawHistogram(bitmap); bitmap.close(); })
      .catch(() => { if (current()) adjustPanel.drawHistogram(img); });
  }

  function currentRecipe() { return buildRecipe(state, catalog, adjustments); }

  function previewRecipe() { return buildRecipe(state, catalog, adjustments, { includeCrop: !cropMode }); }
  function previewKey() { return state ? JSON.stringify(previewRecipe()) + previewSize() : ''; }

  function requestPreview() {
    if (!state) return;
    const recipe = previewRecipe();
    const size = previewSize();
    const key = JSON.stringify(recipe) + size;
    if (key === lastPreviewKey) return;
    lastPreviewKey = key;
    scheduler.request({ recipe, size, key });
  }

  function changed() {
    updateControls();
    if (dragging && showDragged()) return;
    requestPreview();
  }

  // ----- Dragging a slider: keyframes and blends (DragPreview), the exact render on a pause or the release.
  const PAUSE_MS = 150;
  let dragging = null; // {name, min, max, read(), set(state, value)}
  let pauseTimer = null;
  const dragPreview = new DragPreview({
    canvas: blend,
    onFallback: () => { if (alive) requestPreview(); },
    onPaint: drawHistogramOfBlend,
    onWaiting: syncBusy,
  });
  // The histogram of a blend: the same blend of the keyframes' pixels at 256 wide (each read once).
  const keyframePixels = new WeakMap();
  function drawHistogramOfBlend({ a, b, t }) {
    if (!adjustPanel || adjustPanel.el.hidden) return;
    histogramOf++; // a histogram of an older exact preview still being decoded must not replace this one
    const pixels = (frame) => {
      if (!keyframePixels.has(frame.bitmap)) keyframePixels.set(frame.bitmap, histogramPixels(frame.bitmap));
      return keyframePixels.get(frame.bitmap);
    };
    const pa = pixels(a);
    const pb = b === a ? pa : pixels(b);
    if (!pa || !pb || pa.length !== pb.length) return;
    let data = pa;
    if (pb !== pa && t > 0) {
      data = new Uint8ClampedArray(pa.length);
      for (let i = 0; i < pa.length; i++) data[i] = pa[i] + (pb[i] - pa[i]) * t;
    }
    adjustPanel.drawHistogramOfPixels(data);
  }
  /** The slider a press starts a drag on: an Adjust slider or the look's Intensity. */
  function dragTarget(input) {
    if (!state || cropMode || !(input instanceof HTMLInputElement) || input.type !== 'range' || input.disabled) return null;
    const key = input.dataset.adjust;
    const bounds = { min: Number(input.min), max: Number(input.max) };
    if (key) return { name: `adjust:${key}`, ...bounds, read: () => state.adjust[key] ?? 0, set: (s, v) => { if (v) s.adjust[key] = v; else delete s.adjust[key]; } };
    if (input === slider.input) return { name: 'intensity', ...bounds, read: () => state.t, set: (s, v) => { s.t = v; } };
    return null;
  }
  function recipeWith(target, value) {
    const s = cloneState(state);
    target.set(s, value);
    return buildRecipe(s, catalog, adjustments, { includeCrop: !cropMode });
  }
  /** Everything but the dragged slider's value: the rest of the edit and the preview's size. */
  function identityOf(target) {
    const s = cloneState(state);
    target.set(s, 0);
    return JSON.stringify([target.name, s, previewSize()]);
  }
  function beginDrag(input) {
    const target = dragTarget(input);
    if (!target) return;
    dragging = target;
    const size = previewSize();
    const value = target.read();
    const exactShown = shownKey === JSON.stringify(recipeWith(target, value)) + size && img.complete && img.naturalWidth > 0;
    dragPreview.begin({
      identity: identityOf(target), min: target.min, max: target.max, value,
      frameAt: (v, signal) => api.preview(id, recipeWith(target, v), { size, signal, priority: 'low' }),
      current: exactShown ? img : null,
    });
  }
  /** Paints the dragged slider's value from keyframes; false when the value must be rendered instead. */
  function showDragged() {
    if (identityOf(dragging) !== dragPreview.identity) return false; // something else changed too
    if (dragPreview.show(dragging.read()) === 'unavailable') return false;
    clearTimeout(pauseTimer);
    pauseTimer = setTimeout(requestPreview, PAUSE_MS);
    return true;
  }
  function endDrag() {
    if (!dragging) return;
    dragging = null;
    dragPreview.end();
    clearTimeout(pauseTimer);
    // Already shown exactly (a pause rendered the last value, and a blend of it was painted over it since)?
    if (shownKey === previewKey()) blend.hidden = true;
    else requestPreview();
  }
  panel.addEventListener('pointerdown', (e) => { if (e.button <= 0) beginDrag(e.target); }, true);
  const onPointerUp = () => endDrag();
  window.addEventListener('pointerup', onPointerUp, true);
  window.addEventListener('pointercancel', onPointerUp, true);

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
    adjustModeBtn.classList.toggle('has-changes', Object.keys(state.adjust || {}).length > 0);
    undoBtn.disabled = historyAt <= 0 || saving;
    redoBtn.disabled = historyAt >= history.length - 1 || saving;
  }

  // ----- Undo and redo
  function snapshot() { return JSON.stringify(cloneState(state)); }
  /**
   * Records the state as a step of the session (nothing when it has not changed since the last one).
   * `source` names the control (its data-testid); a double-click's reset (`amend`) replaces the steps its
   * own two clicks made, so that it is one step.
   */
  function commit({ source = null, amend = false } = {}) {
    if (!state) return;
    const snap = snapshot();
    if (amend && source && clickBase?.source === source && clickBase.at <= historyAt) {
      history = history.slice(0, clickBase.at + 1);
      historyAt = clickBase.at;
    }
    if (amend) clickBase = null;
    if (history[historyAt] !== snap) {
      history = history.slice(0, historyAt + 1);
      history.push(snap);
      historyAt = history.length - 1;
    }
    updateControls();
  }
  function commitFrom(source) { return () => commit({ source }); }
  function resetHistory() { history = [snapshot()]; historyAt = 0; clickBase = null; updateControls(); }
  // A slider's first click (of one or two) notes where the history is, for a double-click's reset.
  panel.addEventListener('mousedown', (e) => {
    if (e.target.matches?.('input[type="range"]') && e.detail <= 1) clickBase = { source: e.target.dataset.testid, at: historyAt };
  }, true);
  function undo() { if (historyAt > 0) restore(historyAt - 1); }
  function redo() { if (historyAt < history.length - 1) restore(historyAt + 1); }
  function restore(at) {
    historyAt = at;
    const filterBefore = state.filterIndex;
    state = JSON.parse(history[at]);
    rawPanel?.setParameters(state.raw);
    adjustPanel?.setValues(state.adjust);
    if (strip && state.filterIndex !== filterBefore) { strip.select(state.filterIndex); strip.scrollToSelected?.(); }
    if (cropBox) { const { w, h: hh } = rotatedSize(state); cropBox.setImageSize(w, hh, state.crop); }
    changed();
  }

  function syncStraighten() {
    const v = Number(straighten.value);
    straightenOut.textContent = `${v > 0 ? '+' : ''}${v.toFixed(1)}°`;
    straighten.setAttribute('aria-valuetext', `${v.toFixed(1)} degrees`);
  }

  // ----- Load
  async function load() {
    try {
      const [a, edit, cat, adj] = await Promise.all([api.asset(id), api.edit(id).catch((e) => ({ failed: e })), store.catalog(),
        store.adjustments().catch(() => null)]);
      if (!alive) return;
      if (!mediaKind(a).isEditable) {
        // Reached by its address: the server cannot edit a video yet, so say so rather than fail on Save.
        stage.replaceChildren(h('div', { class: 'empty', role: 'alert' }, icon('video', { cls: 'empty-icon' }),
          h('h2', {}, 'Videos cannot be edited yet'), h('p', {}, 'You can play it, favourite, share or download it.'),
          h('div', { class: 'actions' }, h('button', { type: 'button', class: 'btn primary', onclick: () => ctx.back() }, 'Back'))));
        return;
      }
      if (edit?.failed) throw edit.failed;
      asset = a;
      catalog = cat;
      adjustments = adj?.sections?.length ? adj : null;
      store.rememberAssets([a]);
      if (!img.getAttribute('src')) img.src = api.imageURL(id, { size: '1024x1024', mode: 'fit', v: a.version });
      subtitle.textContent = formatDate(a.creationDate, a.creationDateOffset, { withTime: false });
      const recipe = edit?.current?.recipe || null;
      const parsed = parseRecipe(recipe, a, catalog, adjustments);
      state = parsed.state;
      recognised = parsed.recognised;
      notice.hidden = recognised;
      // Unsaved changes = a difference from the saved edit as the editor reads it.
      savedRecipe = buildRecipe(state, catalog, adjustments);
      if (adjustments) {
        adjustPanel = new AdjustPanel({
          panel: adjustments,
          onInput: (key, v) => { if (v) state.adjust[key] = v; else delete state.adjust[key]; changed(); },
          onCommit: (key, { amend = false } = {}) => commit({ source: `adjust-${key}`, amend }), // the slider's data-testid
          onAuto: auto,
          onReset: () => { state.adjust = {}; adjustPanel.setValues({}); changed(); commit(); },
          onSavePreset: savePreset,
        });
        adjustPanel.setValues(state.adjust);
        adjustHolder.replaceChildren(adjustPanel.el);
        adjustModeBtn.hidden = false;
      }
      if (edit?.raw && recognised) {
        rawPanel = new RAWPanel({
          asShot: { temperature: edit.raw.asShotNeutralTemperature, tint: edit.raw.asShotNeutralTint },
          onChange: (parameters) => { state.raw = parameters; changed(); },
        });
        // A drag, a key or the checkbox counts once in the undo history.
        rawPanel.el.addEventListener('change', (e) => commit({ source: e.target.dataset.testid }));
        rawPanel.el.addEventListener('dblclick', (e) => commit({ source: e.target.dataset.testid, amend: true }));
        rawPanel.el.addEventListener('click', (e) => { if (e.target.closest('[data-testid="raw-reset"]')) commit(); });
        rawPanel.setParameters(state.raw);
        rawHolder.replaceChildren(rawPanel.el);
        rawModeBtn.hidden = false;
      }
      buildStrip();
      resetHistory();
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
        commit();
        const item = catalog[i];
        if (!isNone(item)) slider.input.focus({ preventScroll: true });
        strip.tileFor(i)?.b.focus();
      },
      presets: { onApply: applyPreset, onSave: savePreset, onManage: () => actions.managePresets() },
    });
    stripHolder.replaceChildren(strip.el);
    strip.load().catch((e) => toast.error(e, 'The filter thumbnails could not be loaded.'));
    requestAnimationFrame(() => strip.scrollToSelected());
    // Read afresh each time the editor opens (another device may have saved one meanwhile).
    store.presets({ reload: true }).then(showPresets, (e) => {
      // A server without presets (404) shows none; anything else is said.
      if (e.status !== 404 && alive) toast.error(e, 'The presets could not be loaded.');
    });
  }

  // ----- Presets
  /** Shows the user's presets in the strip (and their tiles for this photo) when the list changed. */
  function showPresets(list) {
    if (!alive || !strip || strip.presets === list) return;
    strip.setPresets(list);
    strip.loadPresets().catch((e) => { if (alive) toast.error(e, 'The preset thumbnails could not be loaded.'); });
  }
  const offPresets = store.on('presets', showPresets);

  /** A preset chosen in the strip: its look and adjustments in place of the photo's, one step of undo. */
  function applyPreset(preset) {
    if (!state || saving) return;
    const next = applyLook(state, preset.recipe?.steps || [], catalog, adjustments);
    if (!next) {
      toast(`The preset “${preset.name}” has steps the editor cannot show. Apply it from the library instead: select photos and choose Apply Preset.`);
      return;
    }
    state = next;
    adjustPanel?.setValues(state.adjust);
    strip.select(state.filterIndex);
    changed();
    commit();
    toast(`Applied the preset “${preset.name}”.`);
  }

  function savePreset() {
    if (!state) return;
    actions.savePreset(currentRecipe());
  }

  // Show something at once: the current version, while the first preview renders.
  if (asset) {
    img.src = api.imageURL(id, { size: '1024x1024', mode: 'fit', v: asset.version });
  }

  // ----- RAW mode: the development sliders in place of the filter strip.
  function setRAWMode(on) {
    if (!state || !rawPanel) return;
    if (on && cropMode) setCropMode(false);
    if (on && adjustMode) setAdjustMode(false);
    rawMode = on;
    rawPanel.el.hidden = !on;
    filtersPanel.hidden = on || cropMode || adjustMode;
    rawModeBtn.setAttribute('aria-pressed', String(on));
    filtersModeBtn.setAttribute('aria-pressed', String(!on && !cropMode && !adjustMode));
    if (on) requestAnimationFrame(() => rawPanel?.el.querySelector('input')?.focus({ preventScroll: true }));
  }

  // ----- Adjust mode: Photos' sliders in place of the filter strip (beside the photo on a wide screen).
  function setAdjustMode(on) {
    if (!state || !adjustPanel) return;
    if (on && cropMode) setCropMode(false);
    if (on && rawMode) setRAWMode(false);
    adjustMode = on;
    adjustPanel.el.hidden = !on;
    el.classList.toggle('adjust-mode', on);
    filtersPanel.hidden = on || cropMode || rawMode;
    adjustModeBtn.setAttribute('aria-pressed', String(on));
    filtersModeBtn.setAttribute('aria-pressed', String(!on && !cropMode && !rawMode));
    if (on) {
      if (img.complete && img.naturalWidth) adjustPanel.drawHistogram(img);
      requestAnimationFrame(() => adjustPanel?.el.querySelector('input')?.focus({ preventScroll: true }));
    }
  }

  /** Auto: slider positions from the histogram of the photo as developed and cropped; every other slider to 0. */
  async function auto() {
    if (!state || !adjustPanel) return;
    adjustPanel.setAutoBusy(true);
    try {
      const recipe = buildRecipe(state, catalog, adjustments, { includeAdjust: false, includeFilter: false });
      const answer = await api.autoAdjust(id, recipe);
      if (!alive) return;
      const next = {};
      for (const [key, v] of Object.entries(answer?.adjustments || {})) if (typeof v === 'number' && v !== 0) next[key] = v;
      state.adjust = next;
      adjustPanel.setValues(next);
      changed();
      commit();
    } catch (e) {
      toast.error(e, 'Auto could not read this photo.');
    } finally { adjustPanel?.setAutoBusy(false); }
  }

  // ----- Crop mode
  function setCropMode(on) {
    if (!state) return;
    if (on && rawMode) setRAWMode(false);
    if (on && adjustMode) setAdjustMode(false);
    if (on && comparing) endCompare();
    cropMode = on;
    el.classList.toggle('crop-mode', on);
    cropPanel.hidden = !on;
    filtersPanel.hidden = on || rawMode || adjustMode;
    cropModeBtn.setAttribute('aria-pressed', String(on));
    filtersModeBtn.setAttribute('aria-pressed', String(!on && !rawMode && !adjustMode));
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
      commit(); // the crop box's moves count once, when crop mode ends
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
    commit();
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
    commit();
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
      leave({ keepMessages: true });
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
      message: 'The photo goes back to how it was imported: filter, adjustments, crop and rotation are removed. Earlier edits stay in its history.',
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
      adjustPanel?.setValues({});
      savedRecipe = { steps: [] };
      recognised = true;
      notice.hidden = true;
      strip?.select(0);
      strip?.destroy();
      buildStrip();
      if (cropBox) { const { w, h: hh } = rotatedSize(state); cropBox.setImageSize(w, hh, null); }
      changed();
      resetHistory();
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

  function leave({ keepMessages = false } = {}) {
    alive = false;
    ctx.back(`#/photo/${id}`, { keepMessages });
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

  // ----- Compare: the original while the photo is pressed, or while \ is held.
  async function startCompare() {
    if (!state || cropMode || comparing) return;
    comparing = true;
    originalBadge.hidden = false;
    stage.classList.add('comparing');
    try {
      if (!originalURL) {
        originalLoading ??= api.preview(id, recipeOf([]), { size: previewSize() }).then((blob) => {
          const url = URL.createObjectURL(blob);
          return new Promise((resolve) => {
            originalImg.onload = () => resolve(url);
            originalImg.onerror = () => resolve(url);
            originalImg.src = url;
          });
        });
        originalURL = await originalLoading;
      }
      if (comparing && alive) { originalImg.hidden = false; img.classList.add('covered'); blend.classList.add('covered'); }
    } catch (e) {
      originalLoading = null;
      if (alive) toast.error(e, 'The original could not be shown.');
      endCompare();
    }
  }
  function endCompare() {
    comparing = false;
    originalImg.hidden = true;
    originalBadge.hidden = true;
    img.classList.remove('covered');
    blend.classList.remove('covered');
    stage.classList.remove('comparing');
  }
  stage.addEventListener('pointerdown', (e) => {
    if (cropMode || e.button > 0 || e.target.closest('.crop-layer, .stage-error, .empty')) return;
    stage.setPointerCapture?.(e.pointerId);
    startCompare();
  });
  for (const type of ['pointerup', 'pointercancel', 'lostpointercapture']) stage.addEventListener(type, () => { if (comparing) endCompare(); });
  // A long press on a phone shows the original, not the browser's image menu.
  stage.addEventListener('contextmenu', (e) => { if (!cropMode) e.preventDefault(); });

  // ----- Keyboard and resizing
  const onKeyUp = (e) => { if (e.key === '\\' && comparing) endCompare(); };
  const onBlur = () => { if (comparing) endCompare(); };
  const onKey = (e) => {
    if (keyBelongsToControl(e)) return;
    const mod = e.ctrlKey || e.metaKey;
    if (mod && !e.altKey && (e.key === 'z' || e.key === 'Z')) {
      e.preventDefault();
      if (e.shiftKey) redo(); else undo();
      return;
    }
    if (mod && !e.altKey && !e.shiftKey && (e.key === 'y' || e.key === 'Y')) {
      e.preventDefault();
      redo();
      return;
    }
    if (e.key === '\\' && !mod && !e.altKey) {
      e.preventDefault();
      if (!e.repeat) startCompare();
      return;
    }
    if (e.key === 'Escape') {
      e.preventDefault();
      if (cropMode) setCropMode(false); else cancel();
    } else if ((e.key === 's' || e.key === 'S') && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      save();
    } else if ((e.key === 'c' || e.key === 'C') && !e.ctrlKey && !e.metaKey && !e.altKey && e.target.type !== 'range') {
      setCropMode(!cropMode);
    }
  };
  document.addEventListener('keydown', onKey);
  document.addEventListener('keyup', onKeyUp);
  window.addEventListener('blur', onBlur);
  const ro = new ResizeObserver(() => { placeCropBox(); requestPreviewDebounced(); });
  let resizeTimer = null;
  // A resized stage's preview waits 200 ms for the size to settle; meanwhile the stage says one is coming
  // (data-resizing), as the busy badge does once it is requested.
  function requestPreviewDebounced() {
    clearTimeout(resizeTimer);
    stage.dataset.resizing = '';
    resizeTimer = setTimeout(() => { delete stage.dataset.resizing; requestPreview(); }, 200);
  }
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
      dragPreview.clear();
      clearTimeout(pauseTimer);
      window.removeEventListener('pointerup', onPointerUp, true);
      window.removeEventListener('pointercancel', onPointerUp, true);
      ro.disconnect();
      clearTimeout(resizeTimer);
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('keyup', onKeyUp);
      window.removeEventListener('blur', onBlur);
      window.removeEventListener('beforeunload', beforeUnload);
      strip?.destroy();
      offPresets();
      if (previewURL) URL.revokeObjectURL(previewURL);
      if (originalURL) URL.revokeObjectURL(originalURL);
      el.remove();
    },
    // For tests: how many preview requests went out.
    get previewRequests() { return scheduler.sent; },
    get keyframesFetched() { return dragPreview.keyframesFetched; },
    cloneState: () => cloneState(state),
    get historyLength() { return history.length; },
  };
}
