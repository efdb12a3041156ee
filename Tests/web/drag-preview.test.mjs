// Checks of the editor's drag preview (app/components/drag-preview.js): node Tests/web/drag-preview.test.mjs
import { DragPreview, keyframePositions, bracket, fetchOrder } from '../../Sources/SepiaServer/Web/app/components/drag-preview.js';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let ok = 0;
let bad = 0;
const check = (name, cond, extra = '') => { if (cond) ok++; else { bad++; console.log('FAIL', name, extra); } };

// Node has no canvas: a bitmap is its size, and the canvas records what was drawn with which alpha.
const closed = [];
globalThis.createImageBitmap = async (source) => {
  if (source.broken) throw new Error('not an image');
  return { width: 4, height: 3, value: source.value, close() { closed.push(source.value); } };
};
function fakeCanvas() {
  const draws = [];
  const ctx = { globalAlpha: 1, drawImage(bitmap) { draws.push({ value: bitmap.value, alpha: this.globalAlpha }); } };
  return { width: 0, height: 0, hidden: true, draws, getContext: () => ctx };
}

// Positions: every 0.1 and both ends, without float noise or −0.
{
  const p = keyframePositions(-1, 1);
  check('21 positions over −1…1', p.length === 21 && p[0] === -1 && p[20] === 1, JSON.stringify(p));
  check('no float noise', p.includes(0.3) && p.includes(-0.7) && Object.is(p[10], 0), JSON.stringify(p));
  check('ends kept off the grid', JSON.stringify(keyframePositions(-0.35, 0.5).slice(0, 2)) === '[-0.35,-0.3]');
}

// Bracket: the two frames around a value, weighted by where it sits; none across a gap wider than a step.
{
  const f = [{ value: 0.2 }, { value: 0.3 }, { value: 0.33 }, { value: 0.6 }];
  const b = bracket(f, 0.25);
  check('between two frames', b.a.value === 0.2 && b.b.value === 0.3 && Math.abs(b.t - 0.5) < 1e-9);
  check('on a frame', bracket(f, 0.3).t === 0 && bracket(f, 0.3).a === bracket(f, 0.3).b);
  check('an off-grid frame narrows the bracket', bracket(f, 0.32).a.value === 0.3 && bracket(f, 0.32).b.value === 0.33);
  check('no blend across a wide gap', bracket(f, 0.5) === null);
  check('no blend outside the frames', bracket(f, 0.1) === null && bracket(f, 0.7) === null);
}

// Order: the two around the value first, the one ahead of the motion first among them, then alternately.
{
  const p = keyframePositions(-1, 1);
  check('ahead first', JSON.stringify(fetchOrder(p, 0.33, 1).slice(0, 4)) === '[0.4,0.3,0.5,0.2]', JSON.stringify(fetchOrder(p, 0.33, 1)));
  check('backwards', JSON.stringify(fetchOrder(p, 0.33, -1).slice(0, 4)) === '[0.3,0.4,0.2,0.5]');
  check('on a keyframe, it alone first', fetchOrder(p, 0.3, -1)[0] === 0.3 && fetchOrder(p, 0.3, -1)[1] === 0.2);
  check('clipped at the ends', JSON.stringify(fetchOrder(p, -1, -1)) === '[-1,-0.9,-0.8,-0.7]');
}

// A drag: the first value waits for its keyframes (one request at a time), then is painted as their blend;
// later values in between are painted at once, without a request.
{
  const canvas = fakeCanvas();
  const asked = [];
  let inFlight = 0;
  let most = 0;
  const drag = new DragPreview({ canvas });
  const frameAt = async (v) => { asked.push(v); inFlight++; most = Math.max(most, inFlight); await sleep(5); inFlight--; return { value: v }; };
  const waits = [];
  drag.onWaiting = (w) => waits.push(w);
  drag.begin({ identity: 'a', min: -1, max: 1, value: 0, frameAt });
  check('pending before its keyframes', drag.show(0.05) === 'pending' && drag.waiting);
  await sleep(40);
  check('waiting told, then done', JSON.stringify(waits) === '[true,false]' && !drag.waiting, JSON.stringify(waits));
  check('the two around it fetched first', JSON.stringify(asked.slice(0, 2).sort()) === '[0,0.1]', JSON.stringify(asked));
  check('one request at a time', most === 1);
  const drawn = canvas.draws.find((d) => d.value === 0.1);
  check('painted once they arrived, as a half blend', !!drawn && Math.abs(drawn.alpha - 0.5) < 1e-9 && !canvas.hidden, JSON.stringify(canvas.draws));
  check('a value in between is painted at once', drag.show(0.07) === 'painted');
  const last = canvas.draws.slice(-2);
  check('as 0.0·0.3 + 0.1·0.7', last[0].value === 0 && last[0].alpha === 1 && last[1].value === 0.1 && Math.abs(last[1].alpha - 0.7) < 1e-9, JSON.stringify(last));
  await sleep(60);
  check('keyframes around fetched while idle, within reach', asked.includes(0.4) && asked.includes(-0.3) && asked.every((v) => v >= -0.3 && v <= 0.4), JSON.stringify(asked));
  check('the size of the frames', canvas.width === 4 && canvas.height === 3);
  drag.end();
  const count = asked.length;
  check('nothing painted after the release', drag.show(0.2) === 'unavailable');
  // The same slider with nothing else changed: the keyframes are kept.
  drag.begin({ identity: 'a', min: -1, max: 1, value: 0.07, frameAt });
  check('kept for the next drag', drag.show(0.02) === 'painted');
  // Something else changed: dropped.
  drag.end();
  drag.begin({ identity: 'b', min: -1, max: 1, value: 0.07, frameAt });
  check('dropped for another edit', drag.show(0.02) === 'pending' && closed.length >= count, `${closed.length} ${count}`);
  drag.clear();
}

// A keyframe that cannot be fetched: the value is handed back to the editor, which renders it itself.
{
  const fallbacks = [];
  const drag = new DragPreview({ canvas: fakeCanvas(), onFallback: (v) => fallbacks.push(v) });
  drag.begin({ identity: 'x', min: 0, max: 1, value: 0, frameAt: async () => { throw new Error('429'); } });
  check('pending first', drag.show(0.45) === 'pending');
  await sleep(20);
  check('handed back', fallbacks.length === 1 && fallbacks[0] === 0.45 && !drag.waiting, JSON.stringify(fallbacks));
  check('then unavailable at once', drag.show(0.46) === 'unavailable');
  drag.clear();
}

// A frame that cannot be decoded is a failure too.
{
  const fallbacks = [];
  const drag = new DragPreview({ canvas: fakeCanvas(), onFallback: (v) => fallbacks.push(v) });
  drag.begin({ identity: 'y', min: 0, max: 1, value: 0, frameAt: async () => ({ broken: true }) });
  drag.show(0.3);
  await sleep(20);
  check('an undecodable keyframe is handed back', fallbacks.length === 1);
  drag.clear();
}

// The budget: no more frames than fit, the farthest from the thumb dropped first.
{
  const drag = new DragPreview({ canvas: fakeCanvas(), budget: 4 * 3 * 4 * 3 }); // three frames
  drag.begin({ identity: 'z', min: -1, max: 1, value: 0.5, frameAt: async (v) => ({ value: v }) });
  drag.show(0.55);
  await sleep(30);
  check('at most three frames', drag.frames.length <= 3, String(drag.frames.length));
  check('the two around the thumb kept', drag.frames.some((f) => f.value === 0.5) && drag.frames.some((f) => f.value === 0.6), JSON.stringify(drag.frames.map((f) => f.value)));
  drag.clear();
  check('clear closes every bitmap', drag.frames.length === 0);
}

// The exact render shown at the press is a frame: the first move next to it waits for one keyframe only.
{
  const canvas = fakeCanvas();
  const asked = [];
  const drag = new DragPreview({ canvas });
  drag.begin({ identity: 'c', min: -1, max: 1, value: 0.33, frameAt: async (v) => { asked.push(v); await sleep(20); return { value: v }; }, current: { value: 0.33 } });
  await sleep(1);
  check('a value between the shown render and the next keyframe', drag.show(0.31) === 'pending');
  await sleep(60);
  check('painted with the shown render', canvas.draws.some((d) => d.value === 0.33) && asked.includes(0.3) && !asked.includes(0.33), JSON.stringify({ asked, draws: canvas.draws }));
  drag.clear();
}

console.log(`drag-preview: ${ok} passed, ${bad} failed`);
if (bad) process.exit(1);
