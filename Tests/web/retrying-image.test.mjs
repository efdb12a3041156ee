// Checks of the thumbnail that asks again when its load fails (app/components/retrying-image.js):
// node Tests/web/retrying-image.test.mjs
import { loadRetrying } from '../../Sources/SepiaServer/Web/app/components/retrying-image.js';

let ok = 0;
let bad = 0;
const check = (name, cond, extra = '') => { if (cond) ok++; else { bad++; console.log('FAIL', name, extra); } };

// An <img> as the function uses it: its src, its error listeners, whether it is in the document.
class FakeImage {
  constructor() { this.listeners = []; this.sources = []; this.isConnected = true; }
  addEventListener(type, listener) { if (type === 'error') this.listeners.push(listener); }
  set src(value) { this.sources.push(value); }
  fail() { for (const listener of this.listeners) listener(); }
}
// Timers run when the test says.
const timers = [];
const setTimer = (fn, delay) => timers.push({ fn, delay });
const runTimers = () => { while (timers.length) timers.shift().fn(); };

{
  const img = new FakeImage();
  let gaveUp = 0;
  loadRetrying(img, '/api/v1/assets/a/image?size=200x200&mode=fill', { onGiveUp: () => gaveUp++, setTimer });
  check('the first load asks the URL itself', img.sources.length === 1 && img.sources[0] === '/api/v1/assets/a/image?size=200x200&mode=fill');
  img.fail();
  check('a failure waits before asking again', img.sources.length === 1 && timers.length === 1 && timers[0].delay === 1500);
  runTimers();
  check('the second try is another URL', img.sources[1] === '/api/v1/assets/a/image?size=200x200&mode=fill&retry=1', img.sources[1]);
  img.fail();
  check('a longer pause before the third', timers[0]?.delay === 5000);
  runTimers();
  check('the third try', img.sources[2]?.endsWith('&retry=2'));
  check('no giving up while tries are left', gaveUp === 0);
  img.fail();
  check('gives up after the last try, once', gaveUp === 1 && timers.length === 0 && img.sources.length === 3);
}
{
  const img = new FakeImage();
  loadRetrying(img, '/thumb', { setTimer });
  img.fail();
  img.isConnected = false;
  runTimers();
  check('a cell scrolled away is not asked for again', img.sources.length === 1);
}
{
  const img = new FakeImage();
  let gaveUp = 0;
  loadRetrying(img, '/thumb', { setTimer, onGiveUp: () => gaveUp++ });
  runTimers();
  check('a load that does not fail is asked once', img.sources.length === 1 && gaveUp === 0);
}

console.log(`retrying-image: ${ok} passed, ${bad} failed`);
if (bad) process.exit(1);
