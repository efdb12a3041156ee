// What an item is — a photo, a RAW photo, a RAW+JPEG pair, a Live Photo or a video — and what the screens do with
// each kind, in one place: the web app's side of the server's MediaKind (docs/media-kinds.md). Screens ask
// `mediaKind(asset)` rather than testing `mediaType` and `mediaSubtypes`; a new kind is one more entry in KINDS
// and one more line in mediaKind().

/**
 * The kinds, by the server's names. `label`: what an item is called in labels ("Shared photo", "Photo 3 of 12");
 * `spoken`: what a grid cell's label starts with; `stage`: what the viewer shows ('photo', 'live' with its movie
 * beside the still, 'video' in a player); `badge`: the RAW badge on a cell and in Info.
 */
export const KINDS = Object.freeze({
  photo: Object.freeze({ name: 'photo', label: 'Photo', spoken: 'Photo', stage: 'photo', isMovie: false, hasMotion: false, isEditable: true, badge: '' }),
  raw: Object.freeze({ name: 'raw', label: 'Photo', spoken: 'RAW photo', stage: 'photo', isMovie: false, hasMotion: false, isEditable: true, badge: 'RAW' }),
  rawPlusJPEG: Object.freeze({ name: 'rawPlusJPEG', label: 'Photo', spoken: 'RAW+JPEG photo', stage: 'photo', isMovie: false, hasMotion: false, isEditable: true, badge: 'RAW+JPEG' }),
  livePhoto: Object.freeze({ name: 'livePhoto', label: 'Live Photo', spoken: 'Live Photo', stage: 'live', isMovie: false, hasMotion: true, isEditable: true, badge: '' }),
  video: Object.freeze({ name: 'video', label: 'Video', spoken: 'Video', stage: 'video', isMovie: true, hasMotion: true, isEditable: false, badge: '' }),
});

const hasSubtype = (a, subtype) => Array.isArray(a?.mediaSubtypes) && a.mediaSubtypes.includes(subtype);

/** The kind of an asset as the API describes it, judged in the order the server judges it (Asset.mediaKind). */
export function mediaKind(a) {
  if (a?.mediaType === 'video') return KINDS.video;
  if (hasSubtype(a, 'photoLive')) return KINDS.livePhoto;
  if (hasSubtype(a, 'photoRAWPair')) return KINDS.rawPlusJPEG;
  if (a?.originalFormat === 'raw') return KINDS.raw;
  return KINDS.photo;
}

/** Whether an asset is a video: played in a player, with a duration. */
export const isVideo = (a) => mediaKind(a).isMovie;

/** Whether an asset is a Live Photo: a still with the movie taken with it. */
export const isLivePhoto = (a) => mediaKind(a) === KINDS.livePhoto;

/** Whether an asset is a RAW+JPEG pair: one shot kept as the camera's RAW file and its JPEG. */
export const isRAWPair = (a) => mediaKind(a) === KINDS.rawPlusJPEG;

/** The RAW badge of an asset: "RAW+JPEG" for a pair, "RAW" for a camera RAW file alone, else "". */
export const rawBadge = (a) => mediaKind(a).badge;

/** What an asset is, for labels: "Video", "Live Photo" or "Photo". */
export const kindOf = (a) => mediaKind(a).label;
