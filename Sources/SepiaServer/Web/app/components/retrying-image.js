// An image that asks again when its load fails: a server rendering as much as it may answers 503 and asks the
// browser to come back (Retry-After), and an <img> cannot read that, so a thumbnail that failed is asked for
// again after a pause, twice, before it is shown as broken. A cell scrolled away (no longer in the document)
// is not asked for again.

/** The pauses, in milliseconds, before each new try. */
export const RETRY_DELAYS = [1500, 5000];

/**
 * Loads `url` into `img`, trying again after each of `delays` when it fails; calls `onGiveUp` once the last
 * try failed. The later tries add `retry=N` to the URL, so that the browser does not answer them with the
 * failure it remembers. `setTimer` is for tests.
 */
export function loadRetrying(img, url, { onGiveUp = () => {}, delays = RETRY_DELAYS, setTimer = setTimeout } = {}) {
  let attempt = 0;
  img.addEventListener('error', () => {
    if (attempt >= delays.length) {
      onGiveUp();
      return;
    }
    const delay = delays[attempt];
    attempt += 1;
    const next = `${url}${url.includes('?') ? '&' : '?'}retry=${attempt}`;
    setTimer(() => {
      if (img.isConnected === false) return;
      img.src = next;
    }, delay);
  });
  img.src = url;
}
