// Checks of how the web app compares and offers people's names (app/person-names.js): node Tests/web/person-names.test.mjs
import { displayName, nameKey, matchPeople, personNamed } from '../../Sources/SepiaServer/Web/app/person-names.js';

let ok = 0;
let bad = 0;
const check = (name, cond, extra = '') => { if (cond) ok++; else { bad++; console.log('FAIL', name, extra); } };

// People in the People view's order: named first, most photos first; then the unnamed.
const people = [
  { id: 'a', name: 'Zoë Martin', assetCount: 40 },
  { id: 'b', name: 'Martin Okafor', assetCount: 25 },
  { id: 'c', name: 'Anna', assetCount: 12 },
  { id: 'd', name: 'Joanna Smith', assetCount: 9 },
  { id: 'e', name: 'Mart', assetCount: 3 },
  { id: 'f', name: null, assetCount: 30 },
];
const ids = (list) => list.map((p) => p.id).join(',');

check('an unnamed person', displayName(people[5]) === 'Unnamed');
check('a named person', displayName(people[0]) === 'Zoë Martin');
check('case, accents and width are folded', nameKey('  ZOË  Martin ') === 'zoe martin' && nameKey('ＺＯＥ') === 'zoe');
check('the name itself comes first, then names that start with it, then words, then inside',
  ids(matchPeople(people, 'mart')) === 'e,b,a', ids(matchPeople(people, 'mart')));
check('inside a name', ids(matchPeople(people, 'ann')) === 'c,d', ids(matchPeople(people, 'ann')));
check('without accents', ids(matchPeople(people, 'zoe')) === 'a');
check('nothing typed, nothing offered', matchPeople(people, '   ').length === 0);
check('unnamed people are never offered', !matchPeople(people, 'u').some((p) => p.id === 'f'));
check('the face’s own person is left out', ids(matchPeople(people, 'mart', { exclude: 'e' })) === 'b,a');
check('at most limit', matchPeople(people, 'a', { limit: 2 }).length === 2);
check('found by name, whatever its case', personNamed(people, 'zoe martin')?.id === 'a');
check('no one of that name', personNamed(people, 'Zoe') === null && personNamed(people, '') === null);

console.log(`person-names: ${ok} passed, ${bad} failed`);
if (bad) process.exit(1);
