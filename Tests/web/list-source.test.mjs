// Checks of a list's loads (app/sources.js), as a search typed quickly makes them: node Sources/SepiaServer/Web/tests/list-source.test.mjs
import { ListSource } from '../../Sources/SepiaServer/Web/app/sources.js';

let ok = 0;
let bad = 0;
const check = (name, cond, extra = '') => { if (cond) ok++; else { bad++; console.log('FAIL', name, extra); } };

/** A server whose answers the test releases, in any order: each request waits for release(words). */
function slowServer() {
  const waiting = new Map();
  const asked = [];
  const fetch = (params, signal) => new Promise((resolve, reject) => {
    asked.push({ words: params.search, signal });
    signal?.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' })));
    waiting.set(params.search, () => resolve({ assets: [{ id: `photo with ${params.search}` }], total: 1 }));
  });
  return { fetch, asked, release: (words) => waiting.get(words)() };
}
const shown = (source) => source.sections.flatMap((s) => s.items.map((a) => a.id));
const settle = () => new Promise((r) => setTimeout(r, 0));

// Words typed on while the first answer is on its way: the older request is cancelled, and its answer —
// should it come after all, after the newer one — never replaces what the newer words found.
{
  const server = slowServer();
  const source = new ListSource({ search: 'har' }, { fetch: server.fetch });
  const layouts = [];
  source.on('layout', () => layouts.push(shown(source)));
  const first = source.load();
  source.params = { search: 'harbour' };
  const second = source.load();
  check('the older request is cancelled', !!server.asked[0].signal?.aborted && !server.asked[1].signal?.aborted);
  server.release('harbour');
  await second;
  server.release('har');
  await first.catch(() => {});
  await settle();
  check('the newer words are shown', JSON.stringify(shown(source)) === '["photo with harbour"]', JSON.stringify(shown(source)));
  check('one layout, the newer one', layouts.length === 1, JSON.stringify(layouts));
  check('the older load ends quietly', await first.then(() => true, () => false));
}

// Emptied: nothing is asked, nothing shown, and a load still on its way is cancelled.
{
  const server = slowServer();
  const source = new ListSource({ search: 'hill' }, { fetch: server.fetch });
  const pending = source.load();
  source.clear();
  check('clear cancels', !!server.asked[0].signal?.aborted);
  server.release('hill');
  await pending;
  check('clear shows nothing', shown(source).length === 0 && source.loaded && source.total === 0);
  check('clear asks nothing', server.asked.length === 1);
}

console.log(`list-source: ${ok} passed, ${bad} failed`);
if (bad) process.exit(1);
