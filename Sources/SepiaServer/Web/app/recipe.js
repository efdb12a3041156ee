// Edit recipes (org.sepia.recipe, versions 1 and 2) ⇄ the editor's state.
//
// The editor's working recipe is canonical:
//   CIRAWFilter        a RAW photo's development (only when it changes something), by Core Image key
//   [prefix steps we did not recognise, kept as they are]
//   CIAffineTransform  quarter turns clockwise, inputTransform [a,b,c,d,tx,ty] (Core Graphics order,
//                      origin top-left, y down: x' = a·x + c·y + tx, y' = b·x + d·y + ty)
//   CIStraightenFilter inputAngle in radians
//   CICrop             inputRectangle [x,y,w,h] in pixels of the rotated + straightened image
//   <Adjust steps>     the Adjust panel's sliders that are not at 0, one step each, in the panel's order
//                      (GET /api/v1/filters/adjustments: each slider's positive and negative mapping)
//   <catalog filter>   the chosen entry's parameters plus its Intensity slider mapping; an entry with no
//                      slider keys (the looks) gets the step's own intensity instead (version 2), left out
//                      at 100 %
// Geometry is expressed for an input of baseW × baseH pixels: the upright original when there is no
// prefix, else the current version (the prefix's output).

export const FORMAT = { formatIdentifier: 'org.sepia.recipe', formatVersion: '1' };

/** A recipe of `steps`, of the oldest version that holds them: 2 when a step has an intensity, as Sepia writes. */
export function recipeOf(steps) {
  return { ...FORMAT, formatVersion: steps.some((x) => x.intensity != null) ? '2' : '1', steps };
}
export const DEFAULT_INTENSITY = 0.5;
const EPS = 1e-6;

export function emptyState(baseW, baseH) {
  return { raw: {}, prefix: [], turns: 0, angle: 0, crop: null, adjust: {}, filterIndex: 0, t: DEFAULT_INTENSITY, baseW, baseH };
}

export function cloneState(s) {
  return {
    ...s, raw: { ...(s.raw || {}) }, prefix: s.prefix.map((x) => structuredClone(x)), crop: s.crop ? { ...s.crop } : null,
    adjust: { ...(s.adjust || {}) },
  };
}

// ----- The Adjust panel (Photos' Light, Color, Black & White and Detail sliders)

/** The panel's sliders in order, from the server's answer ({sections: [{adjustments: […]}]}) or a list. */
export function panelSliders(panel) {
  if (!panel) return [];
  if (Array.isArray(panel)) return panel;
  return (panel.sections || []).flatMap((s) => s.adjustments || []);
}

const lerp = (a, b, t) => Math.round((a + (b - a) * t) * 1e9) / 1e9;
const components = (v) => (Array.isArray(v) ? v : typeof v === 'number' ? [v] : null);

/** The step of one mapping at t (0…1) along it. */
function mappingStep(mapping, t) {
  const parameters = {};
  for (const [key, { at0, at1 }] of Object.entries(mapping.parameters || {})) {
    parameters[key] = Array.isArray(at0) ? at0.map((a, i) => lerp(a, at1[i], t)) : lerp(at0, at1, t);
  }
  return { filter: mapping.filter, parameters };
}

/** The step of an Adjust slider at a position (−1…1, or 0…1), or null at 0. */
export function adjustStep(slider, position) {
  if (typeof position !== 'number' || !Number.isFinite(position)) return null;
  const p = Math.min(1, Math.max(slider.minimum ?? -1, position));
  if (p === 0) return null;
  const mapping = p > 0 ? slider.positive : slider.negative;
  return mapping ? mappingStep(mapping, Math.abs(p)) : null;
}

/** Where along a mapping a step is (0…1), or null when it is not that mapping's step. */
function mappingPosition(mapping, step) {
  if (!mapping || step?.filter !== mapping.filter || step.intensity != null) return null;
  const params = step.parameters || {};
  const keys = Object.keys(mapping.parameters || {}).sort();
  const have = Object.keys(params);
  if (have.length !== keys.length || !have.every((k) => k in mapping.parameters)) return null;
  // The first component that moves tells the position; every parameter must then agree.
  let t = null;
  for (const key of keys) {
    const a = components(mapping.parameters[key].at0); const b = components(mapping.parameters[key].at1);
    const v = components(params[key]);
    if (!a || !b || !v || v.length !== a.length) return null;
    const i = a.findIndex((x, j) => Math.abs(b[j] - x) > 1e-12);
    if (i >= 0) { t = (v[i] - a[i]) / (b[i] - a[i]); break; }
  }
  if (t == null || !(t >= -EPS && t <= 1 + EPS)) return null;
  t = Math.min(1, Math.max(0, t));
  const expected = mappingStep(mapping, t).parameters;
  for (const key of keys) {
    const want = components(expected[key]); const v = components(params[key]);
    if (!want.every((x, j) => Math.abs(x - v[j]) <= EPS * Math.max(1, Math.abs(x)))) return null;
  }
  return t;
}

/** The slider position that makes `step`, or null when the step is not this slider's. */
export function adjustPosition(slider, step) {
  const t = mappingPosition(slider.positive, step);
  if (t != null) return t;
  const n = mappingPosition(slider.negative, step);
  return n != null ? -n : null;
}

/** The Adjust steps of a state, in the panel's order. */
export function adjustSteps(state, panel) {
  const out = [];
  for (const slider of panelSliders(panel)) {
    const step = adjustStep(slider, state.adjust?.[slider.id]);
    if (step) out.push(step);
  }
  return out;
}

/**
 * Reads the Adjust steps at the start of `steps`: each must be a slider's step, in the panel's order.
 * Returns {adjust, count}; reading stops at the first step that is not a later slider's.
 */
export function readAdjustSteps(steps, panel) {
  const sliders = panelSliders(panel);
  const adjust = {};
  let next = 0;
  let count = 0;
  for (const step of steps) {
    let found = -1; let position = null;
    for (let k = next; k < sliders.length; k++) {
      position = adjustPosition(sliders[k], step);
      if (position != null) { found = k; break; }
    }
    if (found < 0) break;
    if (position !== 0) adjust[sliders[found].id] = Math.round(position * 1e6) / 1e6;
    next = found + 1;
    count++;
  }
  return { adjust, count };
}

export const RAW_FILTER = 'CIRAWFilter';
// CIRAWFilter's Sepia keys and their Core Image keys; the editor writes the Core Image ones.
const RAW_KEYS = {
  exposure: 'inputEV', boostAmount: 'inputBoost', neutralTemperature: 'inputNeutralTemperature', neutralTint: 'inputNeutralTint',
  luminanceNoiseReductionAmount: 'inputLuminanceNoiseReductionAmount', highlightRecovery: 'inputEnableHighlightRecovery',
};
const RAW_CORE_KEYS = new Set(Object.values(RAW_KEYS));

/** A CIRAWFilter step's parameters by Core Image key, or null when it has a key the editor does not know. */
export function rawParameters(step) {
  const out = {};
  for (const [k, v] of Object.entries(step?.parameters || {})) {
    const key = RAW_KEYS[k] || k;
    if (!RAW_CORE_KEYS.has(key)) return null;
    out[key] = v;
  }
  return out;
}

/** The CIRAWFilter step for a state, or null when the development is the default. */
export function rawStep(state) {
  const parameters = state.raw || {};
  return Object.keys(parameters).length ? { filter: RAW_FILTER, parameters: { ...parameters } } : null;
}

/** Matrix for `turns` quarter turns clockwise of a W×H image (result placed at the origin). */
export function quarterMatrix(turns, W, H) {
  switch (((turns % 4) + 4) % 4) {
    case 1: return [0, 1, -1, 0, H, 0];
    case 2: return [-1, 0, 0, -1, W, H];
    case 3: return [0, -1, 1, 0, 0, W];
    default: return [1, 0, 0, 1, 0, 0];
  }
}

/** Size after the quarter turns (straighten keeps it). */
export function rotatedSize(state) {
  return state.turns % 2 ? { w: state.baseH, h: state.baseW } : { w: state.baseW, h: state.baseH };
}

/** The slider-mapped parameters of a catalog item at intensity t. */
export function sliderParameters(item, t) {
  const out = {};
  for (const s of item?.slider || []) {
    let v = t * (s.scale ?? 1);
    if (s.minimum != null) v = Math.max(s.minimum, v);
    if (s.maximum != null) v = Math.min(s.maximum, v);
    out[s.key] = round(v);
  }
  return out;
}

const round = (v) => Math.round(v * 1e6) / 1e6;

export function hasSlider(item) { return !!(item && item.slider && item.slider.length); }

export function isNone(item) { return !item || item.filter === 'None'; }

/**
 * The filter step for a catalog item at intensity t (null for None): the slider's keys when the filter has
 * them, else the step's intensity, the filter's result mixed with its input (left out at 100 %).
 */
export function filterStep(item, t) {
  if (isNone(item)) return null;
  const step = { filter: item.filter, parameters: { ...(item.parameters || {}), ...sliderParameters(item, t) } };
  if (!hasSlider(item) && t < 1 - EPS) step.intensity = round(Math.max(0, t));
  return step;
}

/** Geometry steps only (quarter turns, straighten, crop). */
export function geometrySteps(state, { includeCrop = true } = {}) {
  const steps = [];
  if (state.turns % 4) {
    steps.push({ filter: 'CIAffineTransform', parameters: { inputTransform: quarterMatrix(state.turns, state.baseW, state.baseH) } });
  }
  if (Math.abs(state.angle) > 0.001) {
    steps.push({ filter: 'CIStraightenFilter', parameters: { inputAngle: round(state.angle * Math.PI / 180) } });
  }
  if (includeCrop && state.crop) {
    const c = state.crop;
    steps.push({ filter: 'CICrop', parameters: { inputRectangle: [c.x, c.y, c.w, c.h].map((v) => Math.round(v)) } });
  }
  return steps;
}

/**
 * The whole recipe for a state: buildRecipe(state, catalog, panel, options), the panel being the Adjust
 * sliders (or buildRecipe(state, catalog, options) with no Adjust panel). Options: includeCrop,
 * includeAdjust, includeFilter (all true by default).
 */
export function buildRecipe(state, catalog, panel, options) {
  if (options === undefined && panel && !Array.isArray(panel) && !panel.sections) { options = panel; panel = null; }
  const { includeCrop = true, includeAdjust = true, includeFilter = true } = options || {};
  const raw = rawStep(state);
  const steps = [...(raw ? [raw] : []), ...state.prefix.map((s) => structuredClone(s)), ...geometrySteps(state, { includeCrop })];
  if (includeAdjust) steps.push(...adjustSteps(state, panel));
  if (includeFilter) {
    const step = filterStep(catalog?.[state.filterIndex], state.t);
    if (step) steps.push(step);
  }
  return recipeOf(steps);
}

export function isEmptyRecipe(recipe) { return !recipe || !recipe.steps || recipe.steps.length === 0; }

export function sameRecipe(a, b) {
  return JSON.stringify(normalize(a)) === JSON.stringify(normalize(b));
}
function normalize(r) {
  if (!r) return [];
  return (r.steps || []).map((s) => [s.filter, Object.keys(s.parameters || {}).sort().map((k) => [k, s.parameters[k]]), s.intensity ?? 1]);
}

function near(a, b, eps = 0.5) { return Math.abs(a - b) <= eps; }

function matchQuarter(m, W, H) {
  if (!Array.isArray(m) || m.length !== 6) return null;
  for (const turns of [1, 2, 3]) {
    const q = quarterMatrix(turns, W, H);
    if (q.every((v, i) => near(v, m[i], i < 4 ? 1e-6 : 0.5))) return turns;
  }
  return null;
}

/** Tries to read a catalog filter step: returns {filterIndex, t} or null. */
function matchFilter(step, catalog) {
  for (const item of catalog || []) {
    if (item.filter !== step.filter) continue;
    const params = step.parameters || {};
    const presets = item.parameters || {};
    const slider = item.slider || [];
    let t = 1;
    if (slider.length) {
      if (step.intensity != null) continue;
      const first = slider[0];
      const v = params[first.key];
      if (typeof v !== 'number') continue;
      t = Math.min(1, Math.max(0, v / (first.scale || 1)));
    } else if (typeof step.intensity === 'number') {
      t = Math.min(1, Math.max(0, step.intensity));
    }
    const expected = { ...presets, ...sliderParameters(item, t) };
    const keys = new Set([...Object.keys(expected), ...Object.keys(params)]);
    let ok = true;
    for (const k of keys) {
      const a = expected[k];
      const b = params[k];
      if (b === undefined) continue; // missing keys take the filter's default
      if (a === undefined) { ok = false; break; }
      if (typeof a === 'number' && typeof b === 'number') { if (Math.abs(a - b) > 1e-3) { ok = false; break; } }
      else if (JSON.stringify(a) !== JSON.stringify(b)) { ok = false; break; }
    }
    if (ok) return { filterIndex: catalog.indexOf(item), t: round(t) };
  }
  return null;
}

/**
 * Reads a saved recipe into editor state for an asset. Returns {state, recognised}.
 * When the shape is not the canonical one, every step becomes the fixed prefix and geometry is based on
 * the current version's size.
 */
export function parseRecipe(recipe, asset, catalog, panel = null) {
  const upright = uprightOriginalSize(asset, recipe);
  const steps = recipe?.steps || [];
  const state = emptyState(upright.w, upright.h);
  if (!steps.length) return { state, recognised: true };
  let i = 0;
  const s = steps;
  if (s[i]?.filter === RAW_FILTER || s[i]?.filter === 'RAWFilter') {
    const raw = rawParameters(s[i]);
    if (!raw) return fallback();
    state.raw = raw;
    i++;
  }
  if (s[i]?.filter === 'CIAffineTransform') {
    const turns = matchQuarter(s[i].parameters?.inputTransform, upright.w, upright.h);
    if (turns) { state.turns = turns; i++; }
  }
  if (s[i]?.filter === 'CIStraightenFilter' && typeof s[i].parameters?.inputAngle === 'number') {
    state.angle = round(s[i].parameters.inputAngle * 180 / Math.PI);
    if (Math.abs(state.angle) > 45) return fallback();
    i++;
  }
  if (s[i]?.filter === 'CICrop') {
    const r = s[i].parameters?.inputRectangle;
    if (Array.isArray(r) && r.length === 4) { state.crop = { x: r[0], y: r[1], w: r[2], h: r[3] }; i++; }
  }
  if (i < s.length && panel) {
    let { count } = readAdjustSteps(s.slice(i), panel);
    // A last step that is both a slider's and a catalog look's is read as the look (as before the panel).
    if (count && i + count === s.length && matchFilter(s[s.length - 1], catalog)) count--;
    state.adjust = readAdjustSteps(s.slice(i, i + count), panel).adjust;
    i += count;
  }
  if (i < s.length) {
    const m = matchFilter(s[i], catalog);
    if (m) { state.filterIndex = m.filterIndex; state.t = m.t; i++; }
  }
  if (i !== s.length) return fallback();
  return { state, recognised: true };

  function fallback() {
    const st = emptyState(asset.width, asset.height);
    st.prefix = steps.map((x) => structuredClone(x));
    return { state: st, recognised: false };
  }
}

/**
 * The upright size of the original: the asset's originalWidth/originalHeight (upright: a revert sets the
 * current size back to them). Without those, a quarter-turn matrix's translation names the size.
 */
export function uprightOriginalSize(asset, recipe) {
  if (asset.originalWidth && asset.originalHeight) return { w: asset.originalWidth, h: asset.originalHeight };
  const first = recipe?.steps?.find((x) => x.filter !== RAW_FILTER);
  if (asset.hasAdjustments && first?.filter === 'CIAffineTransform') {
    const m = first.parameters?.inputTransform;
    for (const [w, h] of [[asset.width, asset.height], [asset.height, asset.width]]) if (matchQuarter(m, w, h)) return { w, h };
  }
  return { w: asset.width, h: asset.height };
}

/** Adds one quarter turn clockwise, carrying the crop along. */
export function rotateClockwise(state) {
  const next = cloneState(state);
  const { w: Wr, h: Hr } = rotatedSize(state);
  next.turns = (state.turns + 1) % 4;
  if (state.crop) {
    const c = state.crop;
    // Point (x, y) in a Wr × Hr frame goes to (Hr − y, x) after a clockwise quarter turn.
    next.crop = { x: Hr - c.y - c.h, y: c.x, w: c.h, h: c.w };
  }
  return next;
}

/** The steps of a recipe that do not depend on a photo's pixel size (for Copy/Paste edits). */
export function portableSteps(recipe) {
  // A RAW development belongs to its file (its white balance starts from that camera's), so it is not copied.
  return (recipe?.steps || []).filter((s) => !['CIAffineTransform', 'CICrop', 'CIStraightenFilter', RAW_FILTER].includes(s.filter));
}

/**
 * Paste: keeps the target's own geometry (and unrecognised prefix) and replaces its adjustments and look
 * with the copied steps (pass the Adjust panel so that the target's adjustments are read as such).
 */
export function pasteInto(targetRecipe, asset, catalog, copiedSteps, panel = null) {
  const { state } = parseRecipe(targetRecipe, asset, catalog, panel);
  // An unrecognised edit stays as it is, and the pasted look goes after it.
  const raw = rawStep(state);
  const steps = [...(raw ? [raw] : []), ...state.prefix.map((x) => structuredClone(x)), ...geometrySteps(state)];
  return recipeOf([...steps, ...copiedSteps.map((x) => structuredClone(x))]);
}

/**
 * Reads a look's steps (a preset's, a copied edit's: Adjust steps then at most one catalog filter) as editor
 * state: {adjust, filterIndex, t}, or null when a step is not one the editor shows.
 */
export function readLook(steps, catalog, panel = null) {
  const s = steps || [];
  let i = 0;
  let adjust = {};
  if (s.length && panel) {
    let { count } = readAdjustSteps(s, panel);
    // As in parseRecipe: a last step that is both a slider's and a catalog look's is the look.
    if (count && count === s.length && matchFilter(s[s.length - 1], catalog)) count--;
    adjust = readAdjustSteps(s.slice(0, count), panel).adjust;
    i = count;
  }
  let filterIndex = 0;
  let t = DEFAULT_INTENSITY;
  if (i < s.length) {
    const m = matchFilter(s[i], catalog);
    if (!m) return null;
    filterIndex = m.filterIndex;
    t = m.t;
    i++;
  }
  return i === s.length ? { adjust, filterIndex, t } : null;
}

/**
 * A preset applied in the editor, as Paste Edits does to a saved edit: the state keeps its RAW development,
 * unrecognised prefix and geometry; its adjustments and look become the preset's. Null when the preset has
 * steps the editor cannot show.
 */
export function applyLook(state, steps, catalog, panel = null) {
  const look = readLook(portableSteps({ steps }), catalog, panel);
  if (!look) return null;
  const next = cloneState(state);
  next.adjust = { ...look.adjust };
  next.filterIndex = look.filterIndex;
  next.t = look.t;
  return next;
}

export { EPS };
