// "Add to Album": a dialog listing the albums (and New Album); resolves with the chosen album or null.
import { api } from '../api.js';
import { h, plural } from '../util.js';
import { icon } from '../icons.js';
import { store } from '../store.js';
import { openDialog } from './dialog.js';
import { createAlbumFlow } from './sidebar.js';

export async function pickAlbum({ title = 'Add to Album', exclude = null } = {}) {
  if (!store.albumsLoaded) await store.loadAlbums().catch(() => {});
  let d;
  const list = h('ul', { class: 'picker-list' });
  const render = () => {
    list.replaceChildren();
    const albums = store.albums.filter((a) => a.id !== exclude && a.isEditable !== false);
    if (!albums.length) list.append(h('li', { class: 'hint' }, 'You have no albums yet. Create one.'));
    for (const a of albums) {
      const thumb = a.coverAssetID
        ? h('img', { src: api.imageURL(a.coverAssetID, { size: '128x128', mode: 'fill' }), alt: '', class: 'picker-thumb' })
        : h('span', { class: 'picker-thumb empty' }, icon('album'));
      list.append(h('li', {}, h('button', { type: 'button', class: 'picker-item', 'data-testid': 'album-pick', 'data-album-id': a.id, onclick: () => d.close(a) },
        thumb, h('span', { class: 'picker-text' }, h('span', { class: 'picker-title' }, a.title), h('span', { class: 'hint' }, plural(a.assetCount || 0, 'photo'))))));
    }
  };
  render();
  const newBtn = h('button', { type: 'button', class: 'btn', 'data-testid': 'album-pick-new', onclick: async () => {
    const album = await createAlbumFlow({ navigate: false });
    if (album) d.close(album);
  } }, icon('plus'), 'New Album');
  d = openDialog({ title, body: list, actions: [newBtn, h('button', { type: 'button', class: 'btn', onclick: () => d.close(null) }, 'Cancel')], testid: 'album-picker' });
  return d.closed.then((v) => v || null);
}
