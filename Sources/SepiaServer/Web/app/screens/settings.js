// Settings: account (change password, sign out), two-factor sign-in (components/two-factor-card.js), signed-in
// browsers (components/sessions-card.js), Faces (the switch that turns finding faces and People on or
// off: off deletes every face and name, after a confirmation that says so), API tokens (create with access level
// and optional album limit; the secret shown once; list; revoke), share links (list; revoke), users (owner only:
// invite, list, remove).
import { api } from '../api.js';
import { h, formatShortDate, copyText, plural } from '../util.js';
import { icon } from '../icons.js';
import { store } from '../store.js';
import { toast } from '../components/toast.js';
import { confirmDialog, openDialog } from '../components/dialog.js';
import { people } from '../people.js';
import { twoFactorCard } from '../components/two-factor-card.js';
import { sessionsCard } from '../components/sessions-card.js';

const ACCESS = {
  read: 'Read — list, view, download, watch changes',
  'add-only': 'Add only — upload, cannot see anything',
  'read-write': 'Read and write — everything in the library',
};

export function mountSettings(container, params, ctx) {
  const el = h('section', { class: 'screen settings-screen', aria: { labelledby: 'settings-title' } },
    h('header', { class: 'topbar' },
      h('button', { type: 'button', class: 'btn icon ghost menu-btn', aria: { label: 'Open menu', controls: 'sidebar' }, onclick: () => ctx.shell.openMenu() }, icon('menu')),
      h('div', { class: 'topbar-titles' }, h('h1', { id: 'settings-title', class: 'topbar-title' }, 'Settings'))));
  const scroller = h('div', { class: 'scroller page-pad settings' });
  el.append(scroller);
  container.append(el);

  const uid = () => Math.random().toString(36).slice(2, 7);
  const card = (titleText, id, ...children) => h('section', { class: 'card', aria: { labelledby: id } }, h('h2', { id, class: 'card-title' }, titleText), ...children);

  // ----- Account
  const who = h('p', { class: 'account-line' });
  const renderWho = () => {
    const u = store.user || {};
    who.replaceChildren(icon('user'), h('span', {}, 'Signed in as ', h('strong', {}, u.username || u.name || '—'), store.isOwner ? ' (owner)' : ''));
  };
  renderWho();
  const curId = 'pw-cur-' + uid();
  const newId = 'pw-new-' + uid();
  const repId = 'pw-rep-' + uid();
  const pwMsg = h('div', { role: 'status', 'aria-live': 'polite' });
  const pwForm = h('form', { class: 'stack narrow', 'data-testid': 'password-form', onsubmit: changePassword },
    h('h3', {}, 'Change password'),
    h('div', { class: 'field' }, h('label', { for: curId }, 'Current password'), h('input', { id: curId, name: 'current', class: 'input', type: 'password', autocomplete: 'current-password', required: true })),
    h('div', { class: 'field' }, h('label', { for: newId }, 'New password'), h('input', { id: newId, name: 'new', class: 'input', type: 'password', autocomplete: 'new-password', minlength: '10', required: true, aria: { describedby: newId + '-h' } }), h('p', { id: newId + '-h', class: 'hint' }, 'At least 10 characters. Your other sessions are signed out.')),
    h('div', { class: 'field' }, h('label', { for: repId }, 'Repeat new password'), h('input', { id: repId, name: 'repeat', class: 'input', type: 'password', autocomplete: 'new-password', required: true })),
    pwMsg,
    h('div', {}, h('button', { type: 'submit', class: 'btn primary', 'data-testid': 'password-save' }, 'Change Password')));
  const signOut = h('button', { type: 'button', class: 'btn', 'data-testid': 'sign-out', onclick: () => ctx.signOut() }, icon('logout'), 'Sign Out');
  scroller.append(card('Account', 'acc-' + uid(), who, pwForm, h('div', { class: 'card-foot' }, signOut)));
  const twoFactor = twoFactorCard(card, uid);
  scroller.append(twoFactor.el);
  scroller.append(sessionsCard(card, uid).el);

  // ----- Faces
  const facesLabel = 'faces-label-' + uid();
  const facesSwitch = h('button', { type: 'button', role: 'switch', class: 'switch', 'data-testid': 'faces-switch', aria: { checked: 'false', labelledby: facesLabel, describedby: facesLabel + '-h' }, disabled: true, onclick: toggleFaces },
    h('span', { class: 'switch-thumb', 'aria-hidden': 'true' }));
  const facesStatus = h('p', { class: 'hint', 'data-testid': 'faces-status', 'aria-live': 'polite' }, 'Loading…');
  scroller.append(card('Faces', 'faces-' + uid(),
    h('div', { class: 'switch-row' },
      h('div', { class: 'row-main' },
        h('span', { id: facesLabel, class: 'switch-label' }, 'Find faces and group them into people'),
        h('span', { id: facesLabel + '-h', class: 'hint' }, 'Sepia looks for faces in your photos on this server — nothing leaves it — and shows the people in People. Turning this off deletes every face it found and every name you gave.')),
      facesSwitch),
    facesStatus));

  function drawFaces() {
    const st = people.status;
    if (!st) return;
    const on = st.enabled !== false;
    facesSwitch.disabled = false;
    facesSwitch.setAttribute('aria-checked', String(on));
    let text;
    if (!on) text = 'Faces are off: Sepia does not look for them, and People is empty.';
    else if (st.modelsMissing) text = 'Faces are on, but the face models are not installed: run scripts/setup on the server, then start Sepia again.';
    else {
      text = `${plural(st.people ?? 0, 'person', 'people')} (${st.namedPeople ?? 0} named), ${plural(st.faces ?? 0, 'face')} in ${plural(st.indexedAssets ?? 0, 'photo')} looked at.`;
      if (st.assetsToIndex > 0) text += ` Finding faces: ${st.indexedAssets.toLocaleString()} of ${plural(st.indexedAssets + st.assetsToIndex, 'photo')}.`;
    }
    facesStatus.textContent = text;
  }

  async function toggleFaces() {
    const on = facesSwitch.getAttribute('aria-checked') === 'true';
    if (on) {
      const ok = await confirmDialog({
        title: 'Turn off faces?',
        message: 'Every face Sepia found and every name you gave is deleted from this library, with your corrections. Turning faces on again finds the faces anew, but not the names.',
        confirmLabel: 'Turn Off and Delete', destructive: true, testid: 'faces-off-dialog',
      });
      if (!ok) return;
    }
    facesSwitch.disabled = true;
    try {
      await api.setFacesEnabled(!on);
      toast(on ? 'Faces are off. Every face and name was deleted.' : 'Faces are on. Sepia looks for them in your photos in the background.');
      people.reset();
      await people.loadStatus();
    } catch (e) {
      toast.error(e, on ? 'Faces could not be turned off.' : 'Faces could not be turned on.');
      facesSwitch.disabled = false;
    }
  }
  const offFaces = people.on('status', drawFaces);
  people.loadStatus().catch((e) => { facesStatus.textContent = e.message; });

  async function changePassword(e) {
    e.preventDefault();
    const f = e.target;
    pwMsg.replaceChildren();
    if (f.new.value.length < 10) { pwMsg.append(h('p', { class: 'form-error', role: 'alert' }, 'The new password needs at least 10 characters.')); f.new.focus(); return; }
    if (f.new.value !== f.repeat.value) { pwMsg.append(h('p', { class: 'form-error', role: 'alert' }, 'The two new passwords are different. Type the same one twice.')); f.repeat.focus(); return; }
    const btn = f.querySelector('[type=submit]');
    btn.disabled = true;
    try {
      await api.changePassword(f.current.value, f.new.value);
      f.reset();
      pwMsg.append(h('p', { class: 'form-ok' }, 'Password changed. Your other sessions were signed out.'));
    } catch (err) {
      const msg = err.status === 401 || err.status === 403 ? 'The current password is wrong.' : err.message;
      pwMsg.append(h('p', { class: 'form-error', role: 'alert' }, msg));
    } finally { btn.disabled = false; }
  }

  // ----- API tokens
  const tokenList = h('ul', { class: 'rows', 'data-testid': 'token-list' }, h('li', { class: 'hint' }, 'Loading…'));
  const tnId = 'tok-name-' + uid();
  const taId = 'tok-acc-' + uid();
  const talId = 'tok-alb-' + uid();
  const albumSelect = h('select', { id: talId, class: 'select', 'data-testid': 'token-album' }, h('option', { value: '' }, 'All photos'));
  const tokenMsg = h('div', { 'aria-live': 'polite' });
  const tokenForm = h('form', { class: 'grid-form', 'data-testid': 'token-form', onsubmit: createToken },
    h('div', { class: 'field' }, h('label', { for: tnId }, 'Name'), h('input', { id: tnId, name: 'name', class: 'input', required: true, maxlength: '200', placeholder: 'Backup script', 'data-testid': 'token-name' })),
    h('div', { class: 'field' }, h('label', { for: taId }, 'Access'), h('select', { id: taId, name: 'access', class: 'select', 'data-testid': 'token-access' }, Object.entries(ACCESS).map(([v, label]) => h('option', { value: v }, label)))),
    h('div', { class: 'field' }, h('label', { for: talId }, 'Limited to album'), albumSelect),
    h('div', { class: 'field end' }, h('button', { type: 'submit', class: 'btn primary', 'data-testid': 'token-create' }, icon('key'), 'Create Token')));
  scroller.append(card('API tokens', 'tok-' + uid(), h('p', { class: 'hint' }, 'Tokens let scripts and apps use your library with “Authorization: Bearer …”. A token limited to an album sees only that album, and uploads go into it.'), tokenForm, tokenMsg, tokenList));

  const fillAlbums = () => {
    const v = albumSelect.value;
    albumSelect.replaceChildren(h('option', { value: '' }, 'All photos'), ...store.albums.map((a) => h('option', { value: a.id }, a.title)));
    albumSelect.value = v;
  };
  const offAlbums = store.on('albums', fillAlbums);
  fillAlbums();

  async function loadTokens() {
    try {
      const { tokens } = await api.tokens();
      tokenList.replaceChildren();
      if (!tokens?.length) tokenList.append(h('li', { class: 'hint', 'data-testid': 'token-empty' }, 'No API tokens yet.'));
      for (const t of tokens || []) {
        const albums = (t.albumIDs || []).map((id) => store.albums.find((a) => a.id === id)?.title || 'an album').join(', ');
        tokenList.append(h('li', { class: 'row', 'data-testid': 'token-row', 'data-token-id': t.id },
          h('div', { class: 'row-main' }, h('strong', {}, t.name), h('span', { class: 'hint' }, [ACCESS[t.accessLevel]?.split(' — ')[0] || t.accessLevel, albums ? `only ${albums}` : null, t.createdAt || t.creationDate ? `created ${formatShortDate(t.createdAt || t.creationDate)}` : null, t.lastUsedAt ? `last used ${formatShortDate(t.lastUsedAt)}${t.lastPlace ? ` from ${t.lastPlace.toLowerCase()}${t.lastPlace !== 'Unknown' && t.lastAddress ? ` (${t.lastAddress})` : ''}` : ''}` : null, t.expiresAt ? `expires ${formatShortDate(t.expiresAt)}` : null].filter(Boolean).join(' · '))),
          h('button', { type: 'button', class: 'btn small danger-text', 'data-testid': 'token-revoke', aria: { label: `Revoke token ${t.name}` }, onclick: () => revokeToken(t) }, 'Revoke')));
      }
    } catch (e) { tokenList.replaceChildren(h('li', { class: 'form-error', role: 'alert' }, e.message)); }
  }

  async function createToken(e) {
    e.preventDefault();
    const f = e.target;
    const body = { name: f.name.value.trim(), accessLevel: f.access.value };
    if (albumSelect.value) body.albumIDs = [albumSelect.value];
    const btn = f.querySelector('[type=submit]');
    btn.disabled = true;
    tokenMsg.replaceChildren();
    try {
      const t = await api.createToken(body);
      f.reset();
      showSecret(t);
      loadTokens();
    } catch (err) { tokenMsg.append(h('p', { class: 'form-error', role: 'alert' }, err.message)); }
    finally { btn.disabled = false; }
  }

  function showSecret(t) {
    const secretId = 'secret-' + uid();
    const input = h('input', { id: secretId, class: 'input mono', readonly: true, value: t.token, 'data-testid': 'token-secret' });
    const copy = h('button', { type: 'button', class: 'btn primary', 'data-testid': 'token-copy', onclick: async () => { if (await copyText(t.token)) { copy.replaceChildren(icon('check'), 'Copied'); } else { input.select(); toast.error('Copying is not allowed here; the token is selected — copy it with Ctrl+C.'); } } }, icon('copy'), 'Copy');
    let d;
    d = openDialog({
      title: 'Your new token', testid: 'token-dialog',
      body: h('div', { class: 'stack' },
        h('p', {}, 'Copy it now: this is the only time Sepia shows it. It is stored hashed, so it cannot be shown again.'),
        h('div', { class: 'field' }, h('label', { for: secretId }, t.name || 'Token'), h('div', { class: 'input-row' }, input, copy))),
      actions: [h('button', { type: 'button', class: 'btn', onclick: () => d.close() }, 'Done')],
      initialFocus: () => copy,
      returnFocus: tokenForm.querySelector('[type=submit]'),
    });
    input.select();
  }

  async function revokeToken(t) {
    if (!await confirmDialog({ title: `Revoke “${t.name}”?`, message: 'Scripts and apps using this token lose access at once.', confirmLabel: 'Revoke Token', destructive: true })) return;
    try { await api.revokeToken(t.id); toast('Token revoked.'); loadTokens(); } catch (e) { toast.error(e, 'The token could not be revoked.'); }
  }

  // ----- Share links
  const shareList = h('ul', { class: 'rows', 'data-testid': 'share-list' }, h('li', { class: 'hint' }, 'Loading…'));
  scroller.append(card('Share links', 'sh-' + uid(), h('p', { class: 'hint' }, 'Links you created for photos and albums. Anyone with a link can see what it shows until it expires or you revoke it.'), shareList));

  async function loadShares() {
    try {
      const { shares } = await api.shares();
      shareList.replaceChildren();
      if (!shares?.length) shareList.append(h('li', { class: 'hint', 'data-testid': 'share-empty' }, 'No share links. Create one from a photo (More → Share Link) or an album.'));
      for (const s of shares || []) {
        const url = s.url || `${location.origin}/s/${s.token}`;
        const albumTitle = s.title || store.albums.find((a) => a.id === s.albumID)?.title;
        const what = s.albumID ? `Album${albumTitle ? ` “${albumTitle}”` : ''}` : `Photo${s.title ? ` “${s.title}”` : ''}`;
        const expired = s.expiresAt && new Date(s.expiresAt) < new Date();
        shareList.append(h('li', { class: 'row', 'data-testid': 'share-row', 'data-share-id': s.id },
          h('div', { class: 'row-main' }, h('strong', {}, what),
            h('a', { href: url, class: 'mono small-link', target: '_blank', rel: 'noopener' }, url),
            h('span', { class: 'hint' }, [s.createdAt || s.creationDate ? `created ${formatShortDate(s.createdAt || s.creationDate)}` : null, s.expiresAt ? (expired ? 'expired' : `expires ${formatShortDate(s.expiresAt)}`) : 'never expires', s.includeMetadata ? 'with date, camera and place' : null, s.allowDownload ? 'downloads allowed' : null].filter(Boolean).join(' · '))),
          h('button', { type: 'button', class: 'btn small', aria: { label: `Copy link to ${what}` }, onclick: async () => { if (await copyText(url)) toast.success('Link copied.'); else toast.error('Copying is not allowed here.'); } }, icon('copy'), 'Copy'),
          h('button', { type: 'button', class: 'btn small danger-text', 'data-testid': 'share-revoke', aria: { label: `Revoke link to ${what}` }, onclick: () => revokeShare(s) }, 'Revoke')));
      }
    } catch (e) { shareList.replaceChildren(h('li', { class: 'form-error', role: 'alert' }, e.message)); }
  }

  async function revokeShare(s) {
    if (!await confirmDialog({ title: 'Revoke this link?', message: 'People who have it can no longer open it. This cannot be undone.', confirmLabel: 'Revoke Link', destructive: true })) return;
    try { await api.revokeShare(s.id); toast('Link revoked.'); loadShares(); } catch (e) { toast.error(e, 'The link could not be revoked.'); }
  }

  // ----- Users (owner only)
  const usersCard = h('div');
  scroller.append(usersCard);

  async function loadUsers() {
    const userList = h('ul', { class: 'rows', 'data-testid': 'user-list' });
    try {
      const { users } = await api.users();
      const inviteBtn = h('button', { type: 'button', class: 'btn primary', 'data-testid': 'user-invite', onclick: () => invite(inviteBtn) }, icon('plus'), 'Invite Someone');
      usersCard.replaceChildren(card('Users', 'us-' + uid(), h('p', { class: 'hint' }, 'Each person gets an account with their own, separate library. Invitations are one-time links.'), h('div', {}, inviteBtn), userList));
      for (const u of users || []) {
        const me = u.id === store.user?.id;
        userList.append(h('li', { class: 'row', 'data-testid': 'user-row' },
          h('div', { class: 'row-main' }, h('strong', {}, u.username || u.name), h('span', { class: 'hint' }, [u.role === 'owner' || u.isOwner ? 'owner' : 'member', me ? 'you' : null, u.createdAt || u.creationDate ? `joined ${formatShortDate(u.createdAt || u.creationDate)}` : null].filter(Boolean).join(' · '))),
          u.twoFactorEnabled && !me ? h('button', { type: 'button', class: 'btn small', 'data-testid': 'user-reset-two-factor', aria: { label: `Reset two-factor sign-in of ${u.username}` }, onclick: () => resetTwoFactor(u) }, 'Reset Two-Factor') : null,
          me || u.role === 'owner' || u.isOwner ? null : h('button', { type: 'button', class: 'btn small danger-text', 'data-testid': 'user-remove', aria: { label: `Remove ${u.username}` }, onclick: () => removeUser(u) }, 'Remove')));
      }
    } catch (e) {
      if (e.status === 403) usersCard.replaceChildren(); // not the owner: no section
      else usersCard.replaceChildren(card('Users', 'us-' + uid(), h('p', { class: 'form-error', role: 'alert' }, e.message)));
    }
  }

  async function invite(button) {
    try {
      const inv = await api.invite(72);
      const linkId = 'inv-' + uid();
      const input = h('input', { id: linkId, class: 'input mono', readonly: true, value: inv.url, 'data-testid': 'invite-url' });
      const copy = h('button', { type: 'button', class: 'btn primary', 'data-testid': 'invite-copy', onclick: async () => { if (await copyText(inv.url)) copy.replaceChildren(icon('check'), 'Copied'); else input.select(); } }, icon('copy'), 'Copy');
      let d;
      d = openDialog({
        title: 'Invitation link', testid: 'invite-dialog',
        body: h('div', { class: 'stack' }, h('p', {}, `Send this link to the person you invite. It creates one account and works once, until ${new Date(inv.expiresAt).toLocaleString()}.`),
          h('div', { class: 'field' }, h('label', { for: linkId }, 'Link'), h('div', { class: 'input-row' }, input, copy))),
        actions: [h('button', { type: 'button', class: 'btn', onclick: () => d.close() }, 'Done')],
        initialFocus: () => copy,
        onClose: () => loadUsers().then(() => usersCard.querySelector('[data-testid="user-invite"]')?.focus()),
      });
    } catch (e) { toast.error(e, 'The invitation could not be created.'); }
  }

  async function resetTwoFactor(u) {
    if (!await confirmDialog({ title: `Reset ${u.username}’s two-factor sign-in?`, message: `For someone who lost both their phone and their recovery codes: ${u.username} then signs in with their password alone, until they turn two-factor sign-in on again in Settings.`, confirmLabel: 'Reset', destructive: true, testid: 'user-reset-two-factor-dialog' })) return;
    try { await api.resetTwoFactor(u.id); toast(`${u.username} signs in with their password alone now.`); loadUsers(); } catch (e) { toast.error(e, 'Two-factor sign-in could not be reset.'); }
  }

  async function removeUser(u) {
    if (!await confirmDialog({ title: `Remove ${u.username}?`, message: 'Their account, sessions, tokens and share links are removed. Their photos stay on the server’s disk but are no longer reachable from Sepia.', confirmLabel: 'Remove User', destructive: true, testid: 'user-remove-dialog' })) return;
    try { await api.removeUser(u.id); toast(`${u.username} removed.`); loadUsers(); } catch (e) { toast.error(e, 'The user could not be removed.'); }
  }

  scroller.append(h('p', { class: 'hint about' }, 'Sepia — photos stay on your server; edits never change the originals. '
    + 'Place names from GeoNames (CC BY 4.0); base map from Natural Earth; maps drawn with Leaflet.'));
  loadTokens();
  loadShares();
  if (store.isOwner) loadUsers();
  if (!store.albumsLoaded) store.loadAlbums().catch(() => {});

  return { el, unmount() { offAlbums(); offFaces(); twoFactor.unmount(); el.remove(); }, show() { el.inert = false; }, hide() { el.inert = true; } };
}
