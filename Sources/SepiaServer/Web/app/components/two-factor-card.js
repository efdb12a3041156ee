// Two-factor sign-in in Settings: off → the password, then the QR code to scan (and the secret to type, for an app
// that cannot scan), then the app's first code turns it on and the ten recovery codes are shown once (copy or
// download them); on → new recovery codes, or off, each after the password.
import { api } from '../api.js';
import { h, copyText, plural } from '../util.js';
import { toast } from './toast.js';

export function twoFactorCard(card, uid) {
  const status = h('p', { class: 'hint', 'data-testid': 'two-factor-status', 'aria-live': 'polite' }, 'Loading…');
  const body = h('div', { class: 'stack narrow' });
  const el = card('Two-factor sign-in', 'tf-' + uid(), status, body);
  let qrURL = null;
  const freeQR = () => { if (qrURL) URL.revokeObjectURL(qrURL); qrURL = null; };

  async function refresh() {
    freeQR();
    try {
      const st = await api.twoFactorStatus();
      if (st.enabled) {
        status.textContent = `On: signing in asks for a code from your authenticator app. ${plural(st.recoveryCodesLeft, 'recovery code')} left.`;
        body.replaceChildren(h('div', { class: 'button-row' },
          h('button', { type: 'button', class: 'btn', 'data-testid': 'two-factor-new-codes', onclick: () => askPassword('New recovery codes', 'Make New Codes', newCodes) }, 'New Recovery Codes…'),
          h('button', { type: 'button', class: 'btn danger', 'data-testid': 'two-factor-off', onclick: () => askPassword('Turn off two-factor sign-in', 'Turn Off', turnOff) }, 'Turn Off…')));
      } else {
        status.textContent = 'Off: your password alone signs you in. With it on, signing in also asks for a code from an authenticator app on your phone.';
        body.replaceChildren(h('div', {},
          h('button', { type: 'button', class: 'btn primary', 'data-testid': 'two-factor-on', onclick: () => askPassword('Turn on two-factor sign-in', 'Continue', begin) }, 'Turn On…')));
      }
    } catch (e) {
      status.textContent = e.message;
    }
  }

  // A password form in the card; `action(password)` runs on submit, and says what went wrong in the form.
  function askPassword(title, label, action) {
    const id = 'tf-pw-' + uid();
    const msg = h('div', { role: 'status', 'aria-live': 'polite' });
    const input = h('input', { id, name: 'password', class: 'input', type: 'password', autocomplete: 'current-password', required: true, 'data-testid': 'two-factor-password' });
    const submit = h('button', { type: 'submit', class: 'btn primary', 'data-testid': 'two-factor-password-submit' }, label);
    const form = h('form', { class: 'stack', onsubmit: async (e) => {
      e.preventDefault();
      msg.replaceChildren();
      if (!input.value) { msg.append(h('p', { class: 'form-error', role: 'alert' }, 'Enter your password.')); input.focus(); return; }
      submit.disabled = true;
      try {
        await action(input.value);
      } catch (err) {
        submit.disabled = false;
        msg.append(h('p', { class: 'form-error', role: 'alert', 'data-testid': 'two-factor-error' }, err.status === 403 ? 'The password is wrong.' : err.message));
        input.select();
      }
    } },
    h('h3', {}, title),
    h('div', { class: 'field' }, h('label', { for: id }, 'Password'), input),
    msg,
    h('div', { class: 'button-row' }, submit, h('button', { type: 'button', class: 'btn ghost', onclick: refresh }, 'Cancel')));
    body.replaceChildren(form);
    input.focus();
  }

  async function begin(password) {
    const setup = await api.twoFactorSetup(password);
    freeQR();
    qrURL = URL.createObjectURL(new Blob([setup.qrCode], { type: 'image/svg+xml' }));
    const id = 'tf-code-' + uid();
    const msg = h('div', { role: 'status', 'aria-live': 'polite' });
    const input = h('input', { id, name: 'code', class: 'input code-input', inputmode: 'numeric', autocomplete: 'one-time-code', required: true, 'data-testid': 'two-factor-code' });
    const submit = h('button', { type: 'submit', class: 'btn primary', 'data-testid': 'two-factor-confirm' }, 'Turn On');
    const grouped = setup.secret.replace(/(.{4})/g, '$1 ').trim();
    body.replaceChildren(h('form', { class: 'stack', onsubmit: async (e) => {
      e.preventDefault();
      msg.replaceChildren();
      submit.disabled = true;
      try {
        const { recoveryCodes } = await api.twoFactorConfirm(input.value.trim());
        showCodes(recoveryCodes, 'Two-factor sign-in is on.');
      } catch (err) {
        submit.disabled = false;
        msg.append(h('p', { class: 'form-error', role: 'alert', 'data-testid': 'two-factor-error' }, err.message));
        input.select();
      }
    } },
    h('h3', {}, 'Scan this code with your authenticator app'),
    h('img', { class: 'qr-code', src: qrURL, alt: 'QR code for your authenticator app', width: '200', height: '200', 'data-testid': 'two-factor-qr' }),
    h('p', { class: 'hint' }, 'Or type this key in the app: ', h('code', { 'data-testid': 'two-factor-secret' }, grouped)),
    h('div', { class: 'field' }, h('label', { for: id }, 'The six-digit code the app shows now'), input),
    msg,
    h('div', { class: 'button-row' }, submit, h('button', { type: 'button', class: 'btn ghost', onclick: refresh }, 'Cancel'))));
    input.focus();
  }

  function showCodes(codes, heading) {
    freeQR();
    status.textContent = heading;
    const text = codes.join('\n') + '\n';
    const download = () => {
      const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
      const a = h('a', { href: url, download: 'sepia-recovery-codes.txt' });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    };
    body.replaceChildren(
      h('h3', {}, 'Save your recovery codes'),
      h('p', { class: 'hint' }, 'If you lose your phone, each of these codes signs you in once in place of a code from the app. They are shown only now: copy them or download them, and keep them somewhere safe.'),
      h('ul', { class: 'recovery-codes', 'data-testid': 'recovery-codes' }, ...codes.map((c) => h('li', {}, h('code', {}, c)))),
      h('div', { class: 'button-row' },
        h('button', { type: 'button', class: 'btn', onclick: () => copyText(text).then(() => toast('Recovery codes copied.')) }, 'Copy'),
        h('button', { type: 'button', class: 'btn', onclick: download }, 'Download'),
        h('button', { type: 'button', class: 'btn primary', 'data-testid': 'recovery-codes-done', onclick: refresh }, 'Done')));
  }

  async function newCodes(password) {
    const { recoveryCodes } = await api.twoFactorRecoveryCodes(password);
    showCodes(recoveryCodes, 'New recovery codes: the old ones no longer work.');
  }

  async function turnOff(password) {
    await api.twoFactorOff(password);
    toast('Two-factor sign-in is off.');
    await refresh();
  }

  refresh();
  return { el, unmount: freeQR };
}
