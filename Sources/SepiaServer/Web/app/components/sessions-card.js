// Signed-in browsers in Settings: each browser the account is signed in on (what it is, where it was last used
// from, when), this one marked; Sign Out for any other, and Sign Out Everywhere Else.
import { api } from '../api.js';
import { h, formatShortDate, plural } from '../util.js';
import { toast } from './toast.js';
import { confirmDialog } from './dialog.js';

/** "Active now", "Active 5 minutes ago", "Active 3 hours ago", or the date. */
export function lastActive(iso, now = Date.now()) {
  const minutes = Math.floor((now - new Date(iso).getTime()) / 60000);
  if (!Number.isFinite(minutes)) return '';
  if (minutes < 2) return 'Active now';
  if (minutes < 60) return `Active ${minutes} minutes ago`;
  if (minutes < 24 * 60) return `Active ${plural(Math.floor(minutes / 60), 'hour')} ago`;
  return `Active ${formatShortDate(iso)}`;
}

export function sessionsCard(card, uid) {
  const list = h('ul', { class: 'rows', 'data-testid': 'session-list' }, h('li', { class: 'hint' }, 'Loading…'));
  const others = h('button', { type: 'button', class: 'btn', 'data-testid': 'session-sign-out-others', disabled: true, onclick: signOutOthers }, 'Sign Out Everywhere Else');
  const el = card('Signed-in browsers', 'se-' + uid(),
    h('p', { class: 'hint' }, 'Where your account is signed in. Signing a browser out ends its session at once; it needs your password (and second factor) to come back.'),
    list, h('div', { class: 'card-foot' }, others));

  async function refresh() {
    try {
      const { sessions } = await api.sessions();
      list.replaceChildren();
      for (const s of sessions) {
        const where = [s.place, s.address && s.place !== 'Unknown' ? s.address : null].filter(Boolean).join(' · ');
        list.append(h('li', { class: 'row', 'data-testid': 'session-row', 'data-session-id': s.id, 'data-current': String(s.current) },
          h('div', { class: 'row-main' },
            h('strong', { 'data-testid': 'session-device', title: s.userAgent || null }, s.device),
            h('span', { class: 'hint' }, [s.current ? 'This browser' : lastActive(s.lastUsedAt), where].filter(Boolean).join(' · '))),
          s.current ? null : h('button', { type: 'button', class: 'btn small danger-text', 'data-testid': 'session-sign-out', aria: { label: `Sign out ${s.device}, ${lastActive(s.lastUsedAt).toLowerCase()}` }, onclick: () => signOut(s) }, 'Sign Out')));
      }
      others.disabled = sessions.filter((s) => !s.current).length === 0;
    } catch (e) {
      list.replaceChildren(h('li', { class: 'form-error', role: 'alert' }, e.message));
    }
  }

  async function signOut(s) {
    try { await api.signOutSession(s.id); toast(`${s.device} is signed out.`); } catch (e) { toast.error(e, 'The browser could not be signed out.'); }
    refresh();
  }

  async function signOutOthers() {
    if (!await confirmDialog({ title: 'Sign out everywhere else?', message: 'Every other browser signed in to your account is signed out at once. API tokens keep working; revoke them below.', confirmLabel: 'Sign Out Others', destructive: true, testid: 'session-sign-out-others-dialog' })) return;
    try {
      const { signedOut } = await api.signOutOtherSessions();
      toast(`Signed out of ${plural(signedOut, 'other browser')}.`);
    } catch (e) { toast.error(e, 'The other browsers could not be signed out.'); }
    refresh();
  }

  refresh();
  return { el, refresh };
}
