// Share links: a dialog that creates a link for a photo or an album (optional expiry, optional
// metadata, optional downloads) and shows the URL with a Copy button.
import { api } from '../api.js';
import { h, copyText } from '../util.js';
import { icon } from '../icons.js';
import { openDialog } from './dialog.js';
import { toast } from './toast.js';

const EXPIRY = [
  { label: 'Never', hours: 0 },
  { label: 'In 1 day', hours: 24 },
  { label: 'In 7 days', hours: 24 * 7 },
  { label: 'In 30 days', hours: 24 * 30 },
];

/** target: {assetID} or {albumID}; name: what is shared, for the title. */
export function shareLinkDialog(target, name) {
  let d;
  const selectId = 'share-exp-' + Math.random().toString(36).slice(2, 7);
  const expiry = h('select', { id: selectId, class: 'select', 'data-testid': 'share-expiry' }, EXPIRY.map((e, i) => h('option', { value: String(i) }, e.label)));
  const meta = h('input', { type: 'checkbox', 'data-testid': 'share-include-metadata' });
  const downloads = h('input', { type: 'checkbox', 'data-testid': 'share-allow-download' });
  const error = h('p', { class: 'form-error', role: 'alert', hidden: true });
  const form = h('div', { class: 'stack' },
    h('p', { class: 'hint' }, 'Anyone with the link can see ' + (target.albumID ? 'the photos in this album' : 'this photo') + ' without an account. You can revoke it at any time in Settings.'),
    h('div', { class: 'field' }, h('label', { for: selectId }, 'Link expires'), expiry),
    h('label', { class: 'checkbox' }, meta, 'Include date, camera and place'),
    h('label', { class: 'checkbox' }, downloads, 'Allow downloads (the files keep their date, camera and place)'),
    error);
  const create = h('button', { type: 'button', class: 'btn primary', 'data-testid': 'share-create', onclick: submit }, 'Create Link');
  const cancel = h('button', { type: 'button', class: 'btn', onclick: () => d.close() }, 'Cancel');
  d = openDialog({ title: `Share ${name}`, body: form, actions: [cancel, create], testid: 'share-dialog' });

  async function submit() {
    create.disabled = true;
    create.replaceChildren(h('span', { class: 'spinner' }), 'Creating…');
    const e = EXPIRY[Number(expiry.value)];
    const body = { ...target, includeMetadata: meta.checked, allowDownload: downloads.checked };
    if (e.hours) body.expiresAt = new Date(Date.now() + e.hours * 3600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    try {
      const share = await api.createShare(body);
      showResult(share);
    } catch (err) {
      error.textContent = err.message;
      error.hidden = false;
      create.disabled = false;
      create.textContent = 'Create Link';
    }
  }

  function showResult(share) {
    const url = share.url || `${location.origin}/s/${share.token}`;
    const inputId = 'share-url-' + Math.random().toString(36).slice(2, 7);
    const input = h('input', { id: inputId, class: 'input mono', readonly: true, value: url, 'data-testid': 'share-link-url' });
    const copy = h('button', { type: 'button', class: 'btn primary', 'data-testid': 'share-link-copy', onclick: async () => {
      const ok = await copyText(url);
      if (ok) { copy.replaceChildren(icon('check'), 'Copied'); toast.success('Link copied.'); } else { input.select(); toast.error('Copying is not allowed here; the link is selected — copy it with Ctrl+C.'); }
    } }, icon('copy'), 'Copy');
    const body = d.el.querySelector('.dialog-body');
    body.replaceChildren(h('div', { class: 'stack' },
      h('p', {}, 'Your link is ready.' + (share.expiresAt ? ` It works until ${new Date(share.expiresAt).toLocaleString()}.` : '')),
      h('div', { class: 'field' }, h('label', { for: inputId }, 'Link'), h('div', { class: 'input-row' }, input, copy))));
    const actions = d.el.querySelector('.dialog-actions');
    actions.replaceChildren(h('button', { type: 'button', class: 'btn', 'data-testid': 'share-done', onclick: () => d.close() }, 'Done'));
    input.focus();
    input.select();
  }
}
