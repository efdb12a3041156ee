// People's names as the app shows and compares them: "Unnamed" for a person without one, and the names that
// match what is typed (the face's name field, the search field), compared as the server does — without regard
// to case, accents or width, so that "zoe" finds "Zoë".

/** The name a person is shown with. */
export const displayName = (person) => person?.name || 'Unnamed';

/** The form two names are compared in: "Zoë", "zoe" and "ＺＯＥ" are one. */
export function nameKey(text) {
  return String(text ?? '').normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * The named people whose name matches `text`, best first: the name itself, then a name that starts with it, then
 * one with a word that starts with it, then one that contains it (each group in the order given, which is the
 * People view's: most photos first). `exclude` leaves out a person (the one a face belongs to). At most `limit`.
 */
export function matchPeople(people, text, { limit = 8, exclude = null } = {}) {
  const q = nameKey(text);
  if (!q) return [];
  const ranked = [];
  for (const p of people) {
    if (!p.name || p.id === exclude) continue;
    const key = nameKey(p.name);
    let rank = -1;
    if (key === q) rank = 0;
    else if (key.startsWith(q)) rank = 1;
    else if (key.split(' ').some((word) => word.startsWith(q))) rank = 2;
    else if (key.includes(q)) rank = 3;
    if (rank >= 0) ranked.push({ p, rank });
  }
  return ranked.sort((a, b) => a.rank - b.rank).slice(0, limit).map((r) => r.p);
}

/** The person called `text` (compared as above), or null. */
export function personNamed(people, text) {
  const q = nameKey(text);
  return q ? people.find((p) => p.name && nameKey(p.name) === q) || null : null;
}
