// The choice before a ZIP download: the originals (every original file of each item) or the current versions
// (edits applied), each with its companions (a Live Photo's movie, a RAW+JPEG pair's other file).
import { h } from '../util.js';
import { openDialog } from './dialog.js';

/**
 * downloadDialog({title, message, initial: 'original'|'current', confirmLabel}) → Promise<'original'|'current'|null>
 */
export function downloadDialog({ title, message, initial = 'original', confirmLabel = 'Download' }) {
  const name = 'dl-version-' + Math.random().toString(36).slice(2, 7);
  const choice = (value, label, hint) => {
    const input = h('input', { type: 'radio', name, value, 'data-testid': 'download-' + value });
    input.checked = value === initial;
    return h('label', { class: 'choice' }, input, h('span', {}, h('strong', {}, label), h('span', { class: 'hint' }, hint)));
  };
  const form = h('fieldset', { class: 'choices' },
    h('legend', { class: 'visually-hidden' }, 'Version'),
    choice('original', 'Originals', 'Every file as it was imported, a Live Photo’s movie and a RAW’s JPEG included.'),
    choice('current', 'Current versions', 'Edited photos with their edits applied, as JPEG; the others as they are.'));
  let d;
  const go = h('button', { type: 'button', class: 'btn primary', 'data-testid': 'download-confirm', onclick: () => d.close(form.querySelector('input:checked')?.value || initial) }, confirmLabel);
  const cancel = h('button', { type: 'button', class: 'btn', 'data-testid': 'download-cancel', onclick: () => d.close(null) }, 'Cancel');
  d = openDialog({ title, body: h('div', { class: 'stack' }, message ? h('p', { class: 'hint' }, message) : null, form), actions: [cancel, go], testid: 'download-dialog', initialFocus: () => form.querySelector('input:checked') });
  return d.closed.then((v) => v || null);
}
