// Checks of how the web app says a place (app/util.js, placeName): node Tests/web/place-names.test.mjs
import { placeName } from '../../Sources/SepiaServer/Web/app/util.js';

let ok = 0;
let bad = 0;
const check = (name, cond, extra = '') => { if (cond) ok++; else { bad++; console.log('FAIL', name, extra); } };

// Places as the API describes them (an asset's `place`).
const lisbon = { id: 2267057, city: 'Lisbon', region: 'Lisbon', country: 'Portugal', countryCode: 'PT' };
const munich = { id: 2867714, city: 'Munich', region: 'Bavaria', country: 'Germany', countryCode: 'DE' };
const noRegion = { id: 3042030, city: 'Monaco', region: null, country: 'Monaco', countryCode: 'MC' };

check('city, region and country', placeName(munich) === 'Munich, Bavaria, Germany', placeName(munich));
check('a region named as its city is said once', placeName(lisbon) === 'Lisbon, Portugal', placeName(lisbon));
check('no region', placeName(noRegion) === 'Monaco, Monaco', placeName(noRegion));
check('an empty region is left out', placeName({ ...munich, region: '' }) === 'Munich, Germany');
check('no place, no words', placeName(null) === '' && placeName(undefined) === '');

console.log(`place-names: ${ok} passed, ${bad} failed`);
if (bad) process.exit(1);
