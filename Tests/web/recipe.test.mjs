// Checks of app/recipe.js (no browser needed): node Tests/web/recipe.test.mjs
import { readFileSync } from 'node:fs';
import * as R from '../../Sources/SepiaServer/Web/app/recipe.js';
const catalog = [
  { index: 0, filter: 'None', name: 'None', parameters: {}, slider: [] },
  { index: 1, filter: 'CIPhotoEffectMono', name: 'Mono', parameters: {}, slider: [] },
  { index: 2, filter: 'CISepiaTone', name: 'Sepia', parameters: {}, slider: [{ key: 'inputIntensity', scale: 1, minimum: 0, maximum: 1 }] },
  { index: 13, filter: 'CIPixellate', name: 'Pixellate', parameters: {}, slider: [{ key: 'inputScale', scale: 10, minimum: 1, maximum: null }] },
  { index: 16, filter: 'CIVignette', name: 'Vignette', parameters: {}, slider: [{ key: 'inputIntensity', scale: 1, minimum: -1, maximum: 1 }, { key: 'inputRadius', scale: 200, minimum: 0, maximum: 2 }] },
];
const asset = { id: 'a', width: 4000, height: 3000, originalWidth: 4000, originalHeight: 3000, hasAdjustments: true };
let ok = 0, bad = 0;
const check = (name, cond, extra = '') => { if (cond) ok++; else { bad++; console.log('FAIL', name, extra); } };
// 90° matrix
check('q1', JSON.stringify(R.quarterMatrix(1, 4000, 3000)) === JSON.stringify([0, 1, -1, 0, 3000, 0]));
check('q2', JSON.stringify(R.quarterMatrix(2, 4000, 3000)) === JSON.stringify([-1, 0, 0, -1, 4000, 3000]));
check('q3', JSON.stringify(R.quarterMatrix(3, 4000, 3000)) === JSON.stringify([0, -1, 1, 0, 0, 4000]));
// slider mapping clamps
check('pix low', R.sliderParameters(catalog[3], 0.05).inputScale === 1);
check('vig', JSON.stringify(R.sliderParameters(catalog[4], 0.5)) === JSON.stringify({ inputIntensity: 0.5, inputRadius: 2 }));
// round trips
for (const turns of [0, 1, 2, 3]) for (const fi of [0, 1, 2, 3, 4]) for (const crop of [null, { x: 10, y: 20, w: 500, h: 400 }]) {
  const st = { ...R.emptyState(4000, 3000), turns, angle: turns === 2 ? 12.5 : 0, crop, filterIndex: fi, t: 0.3 };
  const rec = R.buildRecipe(st, catalog);
  const { state, recognised } = R.parseRecipe(rec, asset, catalog);
  const back = R.buildRecipe(state, catalog);
  check(`rt ${turns} ${fi} ${!!crop}`, recognised && R.sameRecipe(rec, back), JSON.stringify(rec) + ' vs ' + JSON.stringify(back));
}
// rotate carries the crop: four turns bring it back
let st = { ...R.emptyState(4000, 3000), crop: { x: 10, y: 20, w: 500, h: 400 } };
let s4 = st; for (let i = 0; i < 4; i++) s4 = R.rotateClockwise(s4);
check('4 turns', JSON.stringify(s4.crop) === JSON.stringify(st.crop) && s4.turns === 0, JSON.stringify(s4));
const s1 = R.rotateClockwise(st);
check('crop after 1 turn', JSON.stringify(s1.crop) === JSON.stringify({ x: 3000 - 20 - 400, y: 10, w: 400, h: 500 }), JSON.stringify(s1.crop));
// unknown shape becomes a prefix
const odd = { formatIdentifier: 'org.sepia.recipe', formatVersion: '1', steps: [{ filter: 'CIColorControls', parameters: { inputSaturation: 1.2 } }, { filter: 'CISepiaTone', parameters: { inputIntensity: 0.4 } }] };
const p = R.parseRecipe(odd, { ...asset, width: 4000, height: 3000 }, catalog);
check('prefix', !p.recognised && p.state.prefix.length === 2 && R.sameRecipe(R.buildRecipe(p.state, catalog), odd));
const r1 = R.buildRecipe(R.rotateClockwise(p.state), catalog);
check('rotate after prefix', r1.steps.length === 3 && r1.steps[2].filter === 'CIAffineTransform', JSON.stringify(r1));
// paste keeps geometry
const target = R.buildRecipe({ ...R.emptyState(4000, 3000), turns: 1, filterIndex: 1 }, catalog);
const pasted = R.pasteInto(target, asset, catalog, [{ filter: 'CISepiaTone', parameters: { inputIntensity: 0.7 } }]);
check('paste', pasted.steps.length === 2 && pasted.steps[0].filter === 'CIAffineTransform' && pasted.steps[1].filter === 'CISepiaTone', JSON.stringify(pasted));
// a RAW development leads the recipe, round-trips, is not copied by Copy Edits and survives a paste
const rawState = { ...R.emptyState(4000, 3000), raw: { inputEV: 0.5, inputNeutralTemperature: 4800, inputNeutralTint: 3 }, turns: 1, filterIndex: 2, t: 0.4 };
const rawRecipe = R.buildRecipe(rawState, catalog);
check('raw first', rawRecipe.steps[0].filter === 'CIRAWFilter' && rawRecipe.steps[1].filter === 'CIAffineTransform', JSON.stringify(rawRecipe));
const rawBack = R.parseRecipe(rawRecipe, asset, catalog);
check('raw round trip', rawBack.recognised && R.sameRecipe(R.buildRecipe(rawBack.state, catalog), rawRecipe), JSON.stringify(rawBack.state));
check('default raw leaves no step', R.buildRecipe(R.emptyState(4000, 3000), catalog).steps.length === 0);
const sepiaKeys = R.parseRecipe({ steps: [{ filter: 'CIRAWFilter', parameters: { exposure: 1, highlightRecovery: true } }] }, asset, catalog);
check('raw sepia keys', sepiaKeys.recognised && sepiaKeys.state.raw.inputEV === 1 && sepiaKeys.state.raw.inputEnableHighlightRecovery === true, JSON.stringify(sepiaKeys.state.raw));
const unknownRaw = R.parseRecipe({ steps: [{ filter: 'CIRAWFilter', parameters: { inputSharpness: 1 } }] }, asset, catalog);
check('raw unknown key is kept as a prefix', !unknownRaw.recognised && unknownRaw.state.prefix[0].filter === 'CIRAWFilter');
check('copy leaves raw out', R.portableSteps(rawRecipe).every((x) => x.filter !== 'CIRAWFilter'));
const pastedRaw = R.pasteInto(rawRecipe, asset, catalog, [{ filter: 'CIPhotoEffectMono', parameters: {} }]);
check('paste keeps the target raw', pastedRaw.steps[0].filter === 'CIRAWFilter' && pastedRaw.steps.at(-1).filter === 'CIPhotoEffectMono', JSON.stringify(pastedRaw));
check('raw geometry size', JSON.stringify(R.uprightOriginalSize({ width: 3000, height: 4000, hasAdjustments: true }, rawRecipe)) === JSON.stringify({ w: 4000, h: 3000 }));
// every look at any strength: a look has no slider keys, so the step carries its intensity (version 2)
const mono40 = R.buildRecipe({ ...R.emptyState(4000, 3000), filterIndex: 1, t: 0.4 }, catalog);
check('look intensity', mono40.formatVersion === '2' && mono40.steps[0].intensity === 0.4 && JSON.stringify(mono40.steps[0].parameters) === '{}', JSON.stringify(mono40));
const mono40Back = R.parseRecipe(mono40, asset, catalog);
check('look intensity round trip', mono40Back.recognised && mono40Back.state.filterIndex === 1 && mono40Back.state.t === 0.4, JSON.stringify(mono40Back.state));
const monoFull = R.buildRecipe({ ...R.emptyState(4000, 3000), filterIndex: 1, t: 1 }, catalog);
check('a whole look is version 1 with no intensity', monoFull.formatVersion === '1' && !('intensity' in monoFull.steps[0]), JSON.stringify(monoFull));
const savedMono = R.parseRecipe({ formatIdentifier: 'org.sepia.recipe', formatVersion: '1', steps: [{ filter: 'CIPhotoEffectMono', parameters: {} }] }, asset, catalog);
check('a saved look reads at 100 %', savedMono.recognised && savedMono.state.t === 1, JSON.stringify(savedMono.state));
const sepia30 = R.buildRecipe({ ...R.emptyState(4000, 3000), filterIndex: 2, t: 0.3 }, catalog);
check('a slider filter keeps its keys', sepia30.formatVersion === '1' && sepia30.steps[0].parameters.inputIntensity === 0.3 && !('intensity' in sepia30.steps[0]), JSON.stringify(sepia30));
check('intensity counts in sameRecipe', !R.sameRecipe(mono40, monoFull));
const pastedLook = R.pasteInto(target, asset, catalog, [{ filter: 'CIPhotoEffectNoir', parameters: {}, intensity: 0.4 }]);
check('paste of a look at 40 % is version 2', pastedLook.formatVersion === '2' && pastedLook.steps.at(-1).intensity === 0.4, JSON.stringify(pastedLook));
// ----- The Adjust panel (adjustments.json: GET /api/v1/filters/adjustments as the server answers it)
const panel = JSON.parse(readFileSync(new URL('./adjustments.json', import.meta.url), 'utf8'));
const sliders = R.panelSliders(panel);
check('panel has 19 sliders', sliders.length === 19, sliders.length);
const fullCatalog = [...catalog, { index: 4, filter: 'CIPhotoEffectNoir', name: 'Noir', parameters: {}, slider: [] }];
let seed = 7;
const random = () => { seed = (seed * 16807) % 2147483647; return seed / 2147483647; };
// Every slider alone, at random positions across its range (and at its ends), reads back where it was.
for (const slider of sliders) {
  const positions = [1, slider.minimum, ...Array.from({ length: 20 }, () => slider.minimum + (1 - slider.minimum) * random())]
    .map((p) => Math.round(p * 1e4) / 1e4).filter((p) => p !== 0);
  let bad1 = null;
  for (const p of positions) {
    const st = { ...R.emptyState(4000, 3000), adjust: { [slider.id]: p } };
    const rec = R.buildRecipe(st, fullCatalog, panel);
    const back = R.parseRecipe(rec, asset, fullCatalog, panel);
    const got = back.state.adjust[slider.id];
    if (!(rec.steps.length === 1 && back.recognised && Math.abs(got - p) < 1e-6 && Object.keys(back.state.adjust).length === 1
      && R.sameRecipe(R.buildRecipe(back.state, fullCatalog, panel), rec))) { bad1 = { p, rec, got }; break; }
  }
  check(`adjust round trip ${slider.id}`, !bad1, JSON.stringify(bad1));
}
// Every slider at once, at random positions, with geometry and a look: steps in the panel's order.
for (let n = 0; n < 20; n++) {
  const adjust = {};
  for (const s of sliders) if (random() < 0.6) adjust[s.id] = Math.round((s.minimum + (1 - s.minimum) * random()) * 100) / 100 || 0.5;
  const st = { ...R.emptyState(4000, 3000), turns: n % 4, crop: n % 2 ? { x: 10, y: 20, w: 500, h: 400 } : null, adjust, filterIndex: n % fullCatalog.length, t: 0.7 };
  const rec = R.buildRecipe(st, fullCatalog, panel);
  const back = R.parseRecipe(rec, asset, fullCatalog, panel);
  const same = Object.keys(adjust).length === Object.keys(back.state.adjust).length
    && Object.entries(adjust).every(([k, v]) => Math.abs(back.state.adjust[k] - v) < 1e-6);
  check(`adjust all ${n}`, back.recognised && same && back.state.filterIndex === st.filterIndex && back.state.turns === st.turns
    && R.sameRecipe(R.buildRecipe(back.state, fullCatalog, panel), rec), JSON.stringify({ adjust, back: back.state.adjust, rec }));
  const order = R.adjustSteps(st, panel).map((x) => x.filter);
  const steps = rec.steps.map((x) => x.filter);
  const geometry = steps.filter((f) => ['CIAffineTransform', 'CICrop'].includes(f)).length;
  check(`adjust order ${n}`, JSON.stringify(steps.slice(geometry, geometry + order.length)) === JSON.stringify(order), JSON.stringify(steps));
}
// Panel order: the steps follow the panel whatever order the state names them in; out of order they are not read.
const ordered = R.buildRecipe({ ...R.emptyState(4000, 3000), adjust: { vignette: 0.3, exposure: -0.5, warmth: 0.2 } }, fullCatalog, panel);
check('panel order', JSON.stringify(ordered.steps.map((x) => x.filter)) === JSON.stringify(['CIExposureAdjust', 'CITemperatureAndTint', 'CIVignette']), JSON.stringify(ordered));
check('exposure −0.5 is −1 EV', ordered.steps[0].parameters.inputEV === -1, JSON.stringify(ordered.steps[0]));
check('warmth is a vector', JSON.stringify(ordered.steps[1].parameters.inputNeutral) === JSON.stringify([7400, 0]), JSON.stringify(ordered.steps[1]));
const swapped = { ...ordered, steps: [ordered.steps[1], ordered.steps[0], ordered.steps[2]] };
const swappedBack = R.parseRecipe(swapped, asset, fullCatalog, panel);
check('out of order is kept as it is', !swappedBack.recognised && R.sameRecipe(R.buildRecipe(swappedBack.state, fullCatalog, panel), swapped), JSON.stringify(swappedBack.state));
// A slider's step with a key its mapping does not have is not the slider's.
const extra = R.recipeOf([{ filter: 'CIExposureAdjust', parameters: { inputEV: 1, inputFoo: 2 } }]);
const extraBack = R.parseRecipe(extra, asset, fullCatalog, panel);
check('extra key not recognised', !extraBack.recognised && Object.keys(extraBack.state.adjust).length === 0 && R.sameRecipe(R.buildRecipe(extraBack.state, fullCatalog, panel), extra), JSON.stringify(extraBack.state));
const offLine = R.recipeOf([{ filter: 'CIHighlightShadowAdjust', parameters: { inputRadius: 20, inputShadowAmount: 0.3, inputHighlightAmount: 0.95 } }]);
check('values off the line not recognised', !R.parseRecipe(offLine, asset, fullCatalog, panel).recognised);
const missing = R.recipeOf([{ filter: 'CIHighlightShadowAdjust', parameters: { inputShadowAmount: 0.3, inputHighlightAmount: 0.85 } }]);
check('a missing key is another slider or none', R.parseRecipe(missing, asset, fullCatalog, panel).recognised === false);
const shadowsOnly = R.parseRecipe(R.recipeOf([{ filter: 'CIHighlightShadowAdjust', parameters: { inputShadowAmount: -0.25 } }]), asset, fullCatalog, panel);
check('shadows alone', shadowsOnly.recognised && shadowsOnly.state.adjust.shadows === -0.25, JSON.stringify(shadowsOnly.state));
const beyond = R.recipeOf([{ filter: 'CIExposureAdjust', parameters: { inputEV: 3 } }]);
check('past the end not recognised', !R.parseRecipe(beyond, asset, fullCatalog, panel).recognised);
// Adjustments and Noir at 40 %: version 2, the look last, read back.
const noir = { ...R.emptyState(4000, 3000), adjust: { exposure: 0.42, shadows: -0.3, warmth: 0.25 }, filterIndex: 5, t: 0.4 };
const noirRecipe = R.buildRecipe(noir, fullCatalog, panel);
check('adjust + noir 40 %', noirRecipe.formatVersion === '2' && JSON.stringify(noirRecipe.steps.map((x) => x.filter)) === JSON.stringify(['CIExposureAdjust', 'CIHighlightShadowAdjust', 'CITemperatureAndTint', 'CIPhotoEffectNoir'])
  && noirRecipe.steps[3].intensity === 0.4 && noirRecipe.steps[1].parameters.inputShadowAmount === -0.3, JSON.stringify(noirRecipe));
const noirBack = R.parseRecipe(noirRecipe, asset, fullCatalog, panel);
check('adjust + noir 40 % round trip', noirBack.recognised && noirBack.state.filterIndex === 5 && noirBack.state.t === 0.4
  && JSON.stringify(noirBack.state.adjust) === JSON.stringify(noir.adjust), JSON.stringify(noirBack.state));
// With RAW development and geometry first, and options leaving parts out.
const withRaw = R.buildRecipe({ ...noir, raw: { inputEV: 0.5 }, turns: 1 }, fullCatalog, panel, { includeFilter: false });
check('raw, geometry, adjust', JSON.stringify(withRaw.steps.map((x) => x.filter)) === JSON.stringify(['CIRAWFilter', 'CIAffineTransform', 'CIExposureAdjust', 'CIHighlightShadowAdjust', 'CITemperatureAndTint']), JSON.stringify(withRaw));
const upToGeometry = R.buildRecipe({ ...noir, turns: 1 }, fullCatalog, panel, { includeAdjust: false, includeFilter: false });
check('up to geometry', upToGeometry.steps.length === 1 && upToGeometry.formatVersion === '1', JSON.stringify(upToGeometry));
// Without the panel, the old call shape still works (options third) and leaves adjust steps out.
check('old call shape', R.buildRecipe(noir, fullCatalog, { includeFilter: false }).steps.length === 0);
// A lone catalog Vignette whose step is also a slider's is read as the look.
const lookVignette = R.recipeOf([{ filter: 'CIVignette', parameters: { inputIntensity: 0.005, inputRadius: 1 } }]);
const lookBack = R.parseRecipe(lookVignette, asset, fullCatalog, panel);
check('ambiguous last step is the look', lookBack.recognised && lookBack.state.filterIndex === 4 && !Object.keys(lookBack.state.adjust).length, JSON.stringify(lookBack.state));
// Copy Edits carries the adjustments; a paste replaces the target's adjustments and look, keeping its geometry.
const copied = R.portableSteps(noirRecipe);
check('copy keeps adjustments', copied.length === 4, JSON.stringify(copied));
const targetAdjusted = R.buildRecipe({ ...R.emptyState(4000, 3000), turns: 1, adjust: { contrast: 0.5 }, filterIndex: 1 }, fullCatalog, panel);
const pastedAdjust = R.pasteInto(targetAdjusted, asset, fullCatalog, copied, panel);
check('paste replaces adjustments', JSON.stringify(pastedAdjust.steps.map((x) => x.filter)) === JSON.stringify(['CIAffineTransform', 'CIExposureAdjust', 'CIHighlightShadowAdjust', 'CITemperatureAndTint', 'CIPhotoEffectNoir']), JSON.stringify(pastedAdjust));
// cloneState copies the positions.
const cl = R.cloneState(noir); cl.adjust.exposure = 0;
check('clone copies adjust', noir.adjust.exposure === 0.42);
// A preset (the portable steps of an edit) applied in the editor: the target keeps its RAW development and
// geometry, its adjustments and look become the preset's; a preset's geometry or RAW step is ignored.
const presetTarget = { ...R.emptyState(4000, 3000), raw: { inputEV: 0.3 }, turns: 1, crop: { x: 5, y: 6, w: 700, h: 800 }, adjust: { contrast: 0.5 }, filterIndex: 1, t: 1 };
const applied = R.applyLook(presetTarget, noirRecipe.steps, fullCatalog, panel);
check('preset applied', applied && applied.filterIndex === 5 && applied.t === 0.4 && JSON.stringify(applied.adjust) === JSON.stringify(noir.adjust)
  && applied.turns === 1 && applied.crop.w === 700 && applied.raw.inputEV === 0.3 && presetTarget.adjust.contrast === 0.5, JSON.stringify(applied));
const appliedRecipe = R.buildRecipe(applied, fullCatalog, panel);
check('preset applied = pasted', R.sameRecipe(appliedRecipe, R.pasteInto(R.buildRecipe(presetTarget, fullCatalog, panel), asset, fullCatalog, R.portableSteps(noirRecipe), panel)), JSON.stringify(appliedRecipe));
const withGeometry = R.applyLook(presetTarget, [{ filter: 'CICrop', parameters: { inputRectangle: [0, 0, 10, 10] } }, ...copied], fullCatalog, panel);
check('preset geometry ignored', withGeometry && withGeometry.crop.w === 700 && withGeometry.filterIndex === 5, JSON.stringify(withGeometry));
const onlyAdjust = R.applyLook(presetTarget, copied.slice(0, 2), fullCatalog, panel);
check('preset without a look', onlyAdjust && onlyAdjust.filterIndex === 0 && Object.keys(onlyAdjust.adjust).length === 2, JSON.stringify(onlyAdjust));
check('unknown preset step', R.applyLook(presetTarget, [{ filter: 'CIBloom', parameters: { inputRadius: 3 } }], fullCatalog, panel) === null);
check('readLook empty', JSON.stringify(R.readLook([], fullCatalog, panel)) === JSON.stringify({ adjust: {}, filterIndex: 0, t: R.DEFAULT_INTENSITY }));
console.log(`${ok} passed, ${bad} failed`);
if (bad) process.exitCode = 1;
