// Sign in. Wrong password, too many attempts (with the wait time, counting down) and server problems
// are said in words.
import { api } from '../api.js';
import { h } from '../util.js';

export function authFrame(title, body) {
  return h('main', { class: 'auth', id: 'main' },
    h('div', { class: 'auth-card' },
      h('div', { class: 'auth-brand' }, h('img', { src: '/favicon.svg', alt: '', width: '48', height: '48' }), h('span', {}, 'Sepia')),
      h('h1', { class: 'auth-title' }, title),
      body),
    h('p', { class: 'auth-foot hint' }, 'Your photos, on your own server.'));
}

export function passwordField(id, label, autocomplete, hint) {
  const input = h('input', { id, name: id, type: 'password', class: 'input', autocomplete, required: true, 'data-testid': id, aria: { describedby: hint ? id + '-h' : null } });
  const toggle = h('button', { type: 'button', class: 'btn small ghost pw-toggle', aria: { label: 'Show password', pressed: 'false', controls: id } }, 'Show');
  toggle.addEventListener('click', () => {
    const show = input.type === 'password';
    input.type = show ? 'text' : 'password';
    toggle.textContent = show ? 'Hide' : 'Show';
    toggle.setAttribute('aria-pressed', String(show));
    toggle.setAttribute('aria-label', show ? 'Hide password' : 'Show password');
  });
  const el = h('div', { class: 'field' }, h('label', { for: id }, label), h('div', { class: 'pw-wrap' }, input, toggle), hint ? h('p', { id: id + '-h', class: 'hint' }, hint) : null);
  return { el, input };
}

function waitText(seconds) {
  if (seconds == null) return 'Wait a few minutes';
  if (seconds < 60) return `Wait ${seconds} second${seconds === 1 ? '' : 's'}`;
  const m = Math.ceil(seconds / 60);
  return `Wait ${m} minute${m === 1 ? '' : 's'}`;
}

export function mountLogin(container, params, ctx) {
  const err = h('div', { 'data-testid': 'login-error-region' });
  const pw = passwordField('login-password', 'Password', 'current-password');
  const submit = h('button', { type: 'submit', class: 'btn primary block', 'data-testid': 'login-submit' }, 'Sign In');
  const form = h('form', { class: 'stack', 'data-testid': 'login-form', novalidate: true, onsubmit: go },
    h('div', { class: 'field' }, h('label', { for: 'login-username' }, 'User name'),
      h('input', { id: 'login-username', name: 'username', class: 'input', autocomplete: 'username', required: true, autocapitalize: 'none', spellcheck: 'false', 'data-testid': 'login-username' })),
    pw.el, err, submit);
  const notice = params.notice ? h('p', { class: 'form-ok', role: 'status' }, params.notice) : null;
  const frame = authFrame('Sign in', h('div', { class: 'auth-body' }, notice, form));
  container.append(frame);
  form.username.focus();
  let timer = null;

  async function go(e) {
    e.preventDefault();
    err.replaceChildren();
    const username = form.username.value.trim();
    if (!username || !pw.input.value) {
      err.append(h('p', { class: 'form-error', role: 'alert', 'data-testid': 'login-error' }, 'Enter your user name and password.'));
      (username ? pw.input : form.username).focus();
      return;
    }
    submit.disabled = true;
    submit.replaceChildren(h('span', { class: 'spinner' }), 'Signing in…');
    try {
      const res = await api.login(username, pw.input.value);
      if (res.secondFactorRequired) { askSecondFactor(res.challenge); return; }
      signedIn(res);
    } catch (e2) {
      submit.disabled = false;
      submit.textContent = 'Sign In';
      if (e2.status === 401) {
        err.append(h('p', { class: 'form-error', role: 'alert', 'data-testid': 'login-error' }, 'The user name or password is wrong. Check both and try again.'));
        pw.input.select();
        pw.input.focus();
      } else if (e2.status === 429) {
        throttled(e2, err, submit);
      } else {
        err.append(h('p', { class: 'form-error', role: 'alert', 'data-testid': 'login-error' }, e2.message));
      }
    }
  }

  function signedIn(res) {
    api.setCsrfToken(res.csrfToken);
    history.replaceState(null, '', '/' + (params.returnHash || '#/library'));
    ctx.start();
  }

  // The second step: the code the authenticator app shows, or one of the recovery codes.
  function askSecondFactor(challenge) {
    let recovery = false;
    const err2 = h('div', { 'data-testid': 'second-factor-error-region' });
    const label = h('label', { for: 'second-factor-code' });
    const hint = h('p', { id: 'second-factor-code-h', class: 'hint' });
    const input = h('input', {
      id: 'second-factor-code', name: 'code', class: 'input', required: true, autocapitalize: 'none', spellcheck: 'false',
      'data-testid': 'second-factor-code', aria: { describedby: 'second-factor-code-h' },
    });
    const submit2 = h('button', { type: 'submit', class: 'btn primary block', 'data-testid': 'second-factor-submit' }, 'Verify');
    const toggle = h('button', { type: 'button', class: 'btn small ghost', 'data-testid': 'second-factor-toggle', onclick: () => mode(!recovery) });
    const form2 = h('form', { class: 'stack', 'data-testid': 'second-factor-form', novalidate: true, onsubmit: verify },
      h('div', { class: 'field' }, label, input, hint), err2, submit2, toggle);
    function mode(useRecovery) {
      recovery = useRecovery;
      label.textContent = recovery ? 'Recovery code' : 'Code from your authenticator app';
      hint.textContent = recovery ? 'One of the ten codes you saved when you turned on two-factor sign-in. Each works once.' : 'Six digits; a new code every 30 seconds.';
      input.setAttribute('autocomplete', recovery ? 'off' : 'one-time-code');
      input.setAttribute('inputmode', recovery ? 'text' : 'numeric');
      input.value = '';
      toggle.textContent = recovery ? 'Use the authenticator app instead' : 'Use a recovery code instead';
      err2.replaceChildren();
      input.focus();
    }
    frame.querySelector('.auth-title').textContent = 'Two-factor sign-in';
    frame.querySelector('.auth-body').replaceChildren(form2);
    mode(false);

    async function verify(e) {
      e.preventDefault();
      err2.replaceChildren();
      const value = input.value.trim();
      if (!value) { err2.append(h('p', { class: 'form-error', role: 'alert', 'data-testid': 'second-factor-error' }, recovery ? 'Enter a recovery code.' : 'Enter the code your app shows.')); input.focus(); return; }
      submit2.disabled = true;
      submit2.replaceChildren(h('span', { class: 'spinner' }), 'Verifying…');
      try {
        signedIn(await api.secondFactor(recovery ? { challenge, recoveryCode: value } : { challenge, code: value }));
      } catch (e2) {
        submit2.disabled = false;
        submit2.textContent = 'Verify';
        if (e2.status === 401 && /expired/.test(e2.message || '')) {
          // Five minutes passed: back to the password.
          frame.querySelector('.auth-title').textContent = 'Sign in';
          submit.disabled = false;
          submit.textContent = 'Sign In';
          pw.input.value = '';
          err.replaceChildren(h('p', { class: 'form-error', role: 'alert', 'data-testid': 'login-error' }, 'The sign-in took too long. Enter your password again.'));
          frame.querySelector('.auth-body').replaceChildren(form);
          pw.input.focus();
        } else if (e2.status === 401) {
          err2.append(h('p', { class: 'form-error', role: 'alert', 'data-testid': 'second-factor-error' },
            recovery ? 'This recovery code is wrong or was used already.' : 'The code is wrong or was used already. Wait for the next code and try again.'));
          input.select();
          input.focus();
        } else if (e2.status === 429) {
          throttled(e2, err2, submit2);
        } else {
          err2.append(h('p', { class: 'form-error', role: 'alert', 'data-testid': 'second-factor-error' }, e2.message));
        }
      }
    }
  }

  // Too many attempts: the wait, counting down, with the button off until it ends.
  function throttled(e2, region, button) {
    let left = e2.retryAfter ?? 60;
    const p = h('p', { class: 'form-error', role: 'alert', 'data-testid': region === err ? 'login-error' : 'second-factor-error' });
    const tick = () => {
      p.textContent = `Too many attempts. ${waitText(left)} before trying again.`;
      if (left <= 0) { clearInterval(timer); button.disabled = false; p.textContent = 'You can try again now.'; return; }
      left--;
    };
    button.disabled = true;
    clearInterval(timer);
    tick();
    timer = setInterval(tick, 1000);
    region.append(p);
    // Announced once; the countdown then updates silently.
    setTimeout(() => p.removeAttribute('role'), 1500);
  }

  return { el: frame, unmount() { clearInterval(timer); frame.remove(); } };
}
