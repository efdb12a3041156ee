// Checks of the web app's media kinds (app/media-kind.js): node Tests/web/media-kind.test.mjs
import { KINDS, mediaKind, isVideo, isLivePhoto, isRAWPair, rawBadge, kindOf } from '../../Sources/SepiaServer/Web/app/media-kind.js';
import * as util from '../../Sources/SepiaServer/Web/app/util.js';

let ok = 0;
let bad = 0;
const check = (name, cond, extra = '') => { if (cond) ok++; else { bad++; console.log('FAIL', name, extra); } };

// One asset of each kind, as the API describes it.
const assets = {
  photo: { mediaType: 'image', mediaSubtypes: [], originalFormat: 'jpeg' },
  raw: { mediaType: 'image', mediaSubtypes: [], originalFormat: 'raw' },
  rawPlusJPEG: { mediaType: 'image', mediaSubtypes: ['photoRAWPair'], originalFormat: 'jpeg' },
  livePhoto: { mediaType: 'image', mediaSubtypes: ['photoLive'], originalFormat: 'heic' },
  video: { mediaType: 'video', mediaSubtypes: [], originalFormat: 'mov', duration: 2 },
};

for (const [name, asset] of Object.entries(assets)) {
  const kind = mediaKind(asset);
  check(`${name}: its kind`, kind === KINDS[name], kind?.name);
  check(`${name}: the name the server gives it`, kind.name === name);
}
// What each screen asks, kind by kind.
check('stages', JSON.stringify(Object.values(assets).map((a) => mediaKind(a).stage)) === '["photo","photo","photo","live","video"]');
check('only a video is a movie', Object.values(assets).filter(isVideo).length === 1 && isVideo(assets.video));
check('a Live Photo and a video have motion', JSON.stringify(Object.keys(assets).filter((k) => mediaKind(assets[k]).hasMotion)) === '["livePhoto","video"]');
check('every still is editable, a video is not', JSON.stringify(Object.keys(assets).filter((k) => !mediaKind(assets[k]).isEditable)) === '["video"]');
check('labels', JSON.stringify(Object.values(assets).map(kindOf)) === '["Photo","Photo","Photo","Live Photo","Video"]');
check('spoken in the grid', JSON.stringify(Object.values(assets).map((a) => mediaKind(a).spoken)) === '["Photo","RAW photo","RAW+JPEG photo","Live Photo","Video"]');
check('RAW badges', JSON.stringify(Object.values(assets).map(rawBadge)) === '["","RAW","RAW+JPEG","",""]');
check('Live Photo', isLivePhoto(assets.livePhoto) && !isLivePhoto(assets.photo) && !isLivePhoto(assets.video));
check('RAW pair', isRAWPair(assets.rawPlusJPEG) && !isRAWPair(assets.raw));
// A video that carries a Live Photo's subtype (its movie, shown alone) is a video, as the server judges it.
check('a video first', mediaKind({ mediaType: 'video', mediaSubtypes: ['photoLive'] }) === KINDS.video);
// Nothing known yet (an asset still loading): a photo, never a throw.
check('nothing known', mediaKind(undefined) === KINDS.photo && mediaKind({}) === KINDS.photo);
// util.js answers with the same functions, so no module keeps a kind test of its own.
check('util re-exports', util.isVideo === isVideo && util.kindOf === kindOf && util.mediaKind === mediaKind && util.rawBadge === rawBadge);

console.log(`media-kind: ${ok} passed, ${bad} failed`);
if (bad) process.exit(1);
