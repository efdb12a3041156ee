// A name edited in place (a person's, on their page and on the People view's cards): what shows the name is
// replaced by a text field with the name selected. Enter saves, Escape puts the name back as it was; leaving the
// field saves, as Info's title does. The keyboard's focus comes back to `returnFocus` (or what showed the name).
import { h } from '../util.js';

/**
 * editName(shown, {value, label, placeholder, testid, returnFocus, onSave: async (text) → bool}) → Promise<bool>
 * `shown` is hidden while the field is there. `onSave` gets the trimmed text (empty: no name); when it resolves
 * false the field stays, for another try. Resolves true when saved, false when cancelled.
 */
export function editName(shown, { value = '', label = 'Name', placeholder = 'Add a name', testid = 'name-input', returnFocus, onSave }) {
  return new Promise((resolve) => {
    const input = h('input', {
      class: 'input name-input', type: 'text', value, placeholder, maxlength: '64', autocomplete: 'off', spellcheck: 'false',
      enterkeyhint: 'done', 'data-testid': testid, aria: { label },
    });
    let state = 'editing';
    const finish = (saved) => {
      state = 'done';
      input.remove();
      shown.hidden = false;
      (returnFocus?.() || shown).focus?.({ preventScroll: true });
      resolve(saved);
    };
    const save = async () => {
      if (state !== 'editing') return;
      const text = input.value.trim();
      if (text === String(value || '').trim()) { finish(false); return; }
      state = 'saving';
      input.setAttribute('aria-busy', 'true');
      const ok = await onSave(text);
      input.removeAttribute('aria-busy');
      if (ok === false && input.isConnected) { state = 'editing'; input.focus(); input.select(); return; }
      finish(true);
    };
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') { e.preventDefault(); save(); }
      else if (e.key === 'Escape') { e.preventDefault(); e.stopPropagation(); if (state === 'editing') finish(false); }
    });
    input.addEventListener('blur', () => { if (state === 'editing' && input.isConnected) save(); });
    shown.hidden = true;
    shown.after(input);
    input.focus();
    input.select();
  });
}
