// Checks of the preview scheduler (app/components/intensity-slider.js): node Tests/web/scheduler.test.mjs
import { LatestRequest } from '../../Sources/SepiaServer/Web/app/components/intensity-slider.js';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let ok = 0;
let bad = 0;
const check = (name, cond, extra = '') => { if (cond) ok++; else { bad++; console.log('FAIL', name, extra); } };

// A slow server (50 ms) and a fast drag (40 values, 5 ms apart): one request at the start, then exactly
// one for the latest value each time a response arrives, never two at once, and the last shown is the last value.
{
  let inFlight = 0;
  let maxInFlight = 0;
  const sent = [];
  const shown = [];
  const s = new LatestRequest(async (v) => {
    sent.push(v); inFlight++; maxInFlight = Math.max(maxInFlight, inFlight);
    await sleep(50);
    inFlight--;
    return v;
  }, { onResult: (r) => shown.push(r) });
  for (let i = 0; i < 40; i++) { s.request(i); await sleep(5); }
  await sleep(200);
  check('one in flight', maxInFlight === 1, String(maxInFlight));
  check('few requests', sent.length <= 6 && sent.length >= 2, JSON.stringify(sent));
  check('first value sent at once', sent[0] === 0);
  check('last value wins', sent[sent.length - 1] === 39 && shown[shown.length - 1] === 39, JSON.stringify(sent));
}
// Nothing pending: no extra request.
{
  const sent = [];
  const s = new LatestRequest(async (v) => { sent.push(v); await sleep(10); return v; });
  s.request('a');
  await sleep(50);
  check('single', sent.length === 1);
}
// An error does not stop the next value.
{
  const sent = [];
  const errors = [];
  const s = new LatestRequest(async (v) => { sent.push(v); await sleep(10); if (v === 1) throw new Error('boom'); return v; }, { onError: (e) => errors.push(e) });
  s.request(1); s.request(2);
  await sleep(60);
  check('error then latest', errors.length === 1 && sent.join() === '1,2', sent.join());
}
// A result still being shown (onResult's promise, 30 ms: the browser decoding the preview) keeps its request
// in flight: the next one goes out when it is shown, not when the response arrived.
{
  const events = [];
  const s = new LatestRequest(async (v) => { events.push(`send ${v}`); await sleep(5); return v; }, {
    onResult: async (r) => { events.push(`got ${r}`); await sleep(30); events.push(`shown ${r}`); },
  });
  s.request(1);
  await sleep(10);
  s.request(2);
  s.request(3);
  await sleep(120);
  check('next request after shown', events.join() === 'send 1,got 1,shown 1,send 3,got 3,shown 3', events.join());
}
console.log(`${ok} passed, ${bad} failed`);
