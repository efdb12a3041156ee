// How the app shows an error from the server: its `message`, a sentence for people, exactly as sent (never
// re-cased: it may name a file); its `detail`, the technical words when the server gives them, in a closed
// "Details" disclosure under it (data-testid="error-detail") where there is room for one — an upload's
// refusal, the editor's preview, a paste's failures — and never in the sentence. (api.js writes every
// detail to the console, for the places with no room: toasts, forms.)
import { h } from '../util.js';

/** The sentence to show for an error (an ApiError, another Error, or a string). */
export function errorMessage(err, fallback = 'Something went wrong.') {
  if (typeof err === 'string') return err;
  return err?.message || fallback;
}

/** The technical words of an error, or null. */
export function errorDetail(err) {
  return (err && typeof err === 'object' && typeof err.detail === 'string' && err.detail) || null;
}

/** A closed disclosure with an error's detail, or null when it has none. */
export function errorDetails(err) {
  const detail = errorDetail(err);
  if (!detail) return null;
  return h('details', { class: 'error-detail', 'data-testid': 'error-detail' },
    h('summary', {}, 'Details'), h('p', { class: 'error-detail-text' }, detail));
}

/**
 * An error for a block (a div, a list item, an alert; not a <p>, which cannot hold the disclosure): [the sentence, its disclosure]. `prefix`
 * goes before the sentence ("The preview could not be rendered: ").
 */
export function errorContent(err, { prefix = '', fallback } = {}) {
  return [h('span', { class: 'error-message' }, prefix + errorMessage(err, fallback)), errorDetails(err)];
}
