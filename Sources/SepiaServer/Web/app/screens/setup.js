// First run and invitations: /setup?token=… creates the account (POST /api/v1/setup) and lands in the
// library. Unknown, used and expired links are said in words.
import { api } from '../api.js';
import { h } from '../util.js';
import { icon } from '../icons.js';
import { authFrame, passwordField } from './login.js';

export function mountSetup(container, params, ctx) {
  const token = new URLSearchParams(location.search).get('token') || '';
  const body = h('div', { class: 'auth-body' }, h('div', { class: 'auth-loading', role: 'status' }, h('span', { class: 'spinner' }), 'Checking your link…'));
  const frame = authFrame('Welcome to Sepia', body);
  container.append(frame);

  function problem(title, text) {
    body.replaceChildren(h('div', { class: 'auth-problem', role: 'alert', 'data-testid': 'setup-problem' }, icon('warning', { cls: 'problem-icon' }), h('h2', {}, title), h('p', {}, text),
      h('a', { class: 'btn', href: '/login' }, 'Go to Sign In')));
  }

  async function check() {
    if (!token) { problem('This link is incomplete', 'The setup link has no token. Copy the whole link that `sepia serve` printed (it ends with ?token=…).'); return; }
    try {
      const info = await api.setupInfo(token);
      showForm(info);
    } catch (e) {
      if (e.status === 410) problem('This link has expired or was already used', 'Setup links work once and for a limited time. Restart `sepia serve` to print a fresh one, or ask the owner for a new invitation.');
      else if (e.status === 404) problem('This link is not valid', 'Sepia does not know this setup link. Check that you copied all of it, or ask for a new one.');
      else problem('Sepia could not check the link', e.message);
    }
  }

  function showForm(info) {
    const isOwner = info.kind !== 'invitation';
    const uId = 'su-user';
    const err = h('div');
    const pw = passwordField('su-pass', 'Password', 'new-password', 'At least 10 characters.');
    const pw2 = passwordField('su-pass2', 'Repeat password', 'new-password');
    const submit = h('button', { type: 'submit', class: 'btn primary block', 'data-testid': 'setup-submit' }, isOwner ? 'Create Account' : 'Join');
    const form = h('form', { class: 'stack', 'data-testid': 'setup-form', novalidate: true, onsubmit: go },
      h('p', { class: 'auth-lead' }, isOwner
        ? 'Create the owner account. You will manage the library, other users and API tokens.'
        : 'You were invited to Sepia. Choose a user name and password for your own library.'),
      h('div', { class: 'field' }, h('label', { for: uId }, 'User name'),
        h('input', { id: uId, name: 'username', class: 'input', autocomplete: 'username', required: true, maxlength: '64', pattern: '[A-Za-z0-9._\\-]{1,64}', autocapitalize: 'none', spellcheck: 'false', 'data-testid': 'setup-username', aria: { describedby: uId + '-h' } }),
        h('p', { id: uId + '-h', class: 'hint' }, 'Letters, digits, “.”, “-” and “_”.')),
      pw.el, pw2.el, err, submit);
    body.replaceChildren(form);
    form.username.focus();

    async function go(e) {
      e.preventDefault();
      err.replaceChildren();
      const username = form.username.value.trim();
      const fail = (msg, field) => { err.append(h('p', { class: 'form-error', role: 'alert' }, msg)); field?.setAttribute('aria-invalid', 'true'); field?.focus(); };
      if (!/^[A-Za-z0-9._-]{1,64}$/.test(username)) return fail('Choose a user name of 1 to 64 letters, digits, “.”, “-” or “_”.', form.username);
      if (pw.input.value.length < 10) return fail('The password needs at least 10 characters.', pw.input);
      if (pw.input.value !== pw2.input.value) return fail('The two passwords are different. Type the same one twice.', pw2.input);
      submit.disabled = true;
      submit.replaceChildren(h('span', { class: 'spinner' }), 'Creating…');
      try {
        const res = await api.setup(token, username, pw.input.value);
        api.setCsrfToken(res.csrfToken);
        history.replaceState(null, '', '/#/library');
        ctx.start();
      } catch (e2) {
        submit.disabled = false;
        submit.textContent = isOwner ? 'Create Account' : 'Join';
        if (e2.status === 410) fail('This link has expired or was already used. Ask for a new one.');
        else if (e2.status === 409) fail('That user name is taken. Choose another.', form.username);
        else fail(e2.message);
      }
    }
  }

  check();
  return { el: frame, unmount() { frame.remove(); } };
}
