// Checks of the search box's words (app/components/search-box.js): the word the suggestions are for, a keyword taken
// in its place, and how the server's terms are said: node Tests/web/search-words.test.mjs
import { lastWord, replaceLastWord, describeTerm } from '../../Sources/SepiaServer/Web/app/components/search-box.js';

let ok = 0;
let bad = 0;
const check = (name, cond, extra = '') => { if (cond) ok++; else { bad++; console.log('FAIL', name, extra); } };
const same = (name, got, want) => check(name, JSON.stringify(got) === JSON.stringify(want), `got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);

// The word being typed: the last one, until a space ends it.
same('one word', lastWord('lis'), 'lis');
same('the last of several', lastWord('summer 2023 lis'), 'lis');
same('a space ends it', lastWord('lis '), '');
same('nothing typed', lastWord(''), '');
same('tabs and runs of spaces', lastWord('dinner \t  jul'), 'jul');

// A keyword taken from the suggestions takes the typed word's place, with a space to go on typing.
same('the only word', replaceLastWord('lis', 'Lisbon trip'), 'Lisbon trip ');
same('after other words', replaceLastWord('summer 2023 lis', 'Lisbon trip'), 'summer 2023 Lisbon trip ');
same('after a space, added', replaceLastWord('summer ', 'Lisbon trip'), 'summer Lisbon trip ');
same('into nothing', replaceLastWord('', 'Lisbon'), 'Lisbon ');
same('a keyword with runs of spaces', replaceLastWord('lis', ' Lisbon   trip '), 'Lisbon trip ');
check('never longer than the server reads', replaceLastWord('a '.repeat(99) + 'b', 'Lisbon trip').length === 200);

// The server's terms, said.
same('a word', describeTerm({ kind: 'word', value: 'julia' }), { label: '“julia”' });
same('a kind', describeTerm({ kind: 'kind', value: 'favorite' }), { label: 'Favorites', icon: 'heart' });
same('a year', describeTerm({ kind: 'date', value: '2023' }), { label: '2023', icon: 'calendar' });
same('a month of a year', describeTerm({ kind: 'date', value: '2023-06' }), { label: 'June 2023', icon: 'calendar' });
same('a month of every year', describeTerm({ kind: 'date', value: '--06' }), { label: 'June', detail: 'every year', icon: 'calendar' });
same('a day', describeTerm({ kind: 'date', value: '2023-06-14' }), { label: 'June 14, 2023', icon: 'calendar' });
same('a season of a year', describeTerm({ kind: 'season', value: 'summer 2023' }), { label: 'Summer 2023', detail: 'June to August', icon: 'calendar' });
same('winter runs into the next year', describeTerm({ kind: 'season', value: 'winter 2022' }),
  { label: 'Winter 2022', detail: 'December 2022 to February 2023', icon: 'calendar' });
same('a season of every year', describeTerm({ kind: 'season', value: 'autumn' }), { label: 'Autumn', detail: 'September to November', icon: 'calendar' });

console.log(`search-words: ${ok} passed, ${bad} failed`);
if (bad) process.exit(1);
