// Checks of app/recipe.js (no browser needed): node Sources/SepiaServer/Web/tests/recipe.test.mjs
import * as R from '../app/recipe.js';
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
console.log(`${ok} passed, ${bad} failed`);
