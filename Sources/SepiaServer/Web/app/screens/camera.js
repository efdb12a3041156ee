// Take Photo: the camera through getUserMedia with the permission states of iOS — not determined
// (explain, then ask), denied (say how to allow it again), unavailable (no camera or not a secure
// context). Live view with Homepwner's crosshair, a shutter (button, Space or Enter), then a review step
// with an optional square crop (the picker's allowsEditing), Retake / Use Photo. The frame is encoded
// as JPEG, uploaded like any file, and the app opens the new photo.
import { h, keyBelongsToControl } from '../util.js';
import { icon } from '../icons.js';
import { store } from '../store.js';
import { uploads } from '../components/upload-queue.js';
import { toast } from '../components/toast.js';
import { CropBox } from '../components/crop-box.js';

const USAGE = 'Sepia uses your camera to take pictures for your library.';

export function mountCamera(container, params, ctx) {
  let stream = null;
  let permission = null;
  let facing = 'environment';
  let captured = null; // {canvas, w, h}
  let crop = null;
  let alive = true;

  const close = h('button', { type: 'button', class: 'btn icon ghost on-dark', 'data-testid': 'camera-close', aria: { label: 'Close camera' }, onclick: () => ctx.back() }, icon('close'));
  const title = h('h1', { class: 'camera-title', id: 'camera-title' }, 'Take Photo');
  const body = h('div', { class: 'camera-body' });
  const el = h('section', { class: 'screen overlay-screen camera-screen', 'data-testid': 'camera', aria: { labelledby: 'camera-title' } },
    h('header', { class: 'camera-bar' }, close, title, h('div', { class: 'topbar-spacer' })), body);
  container.append(el);

  function stateView(kind, { heading, text, actions = [], iconName = 'camera' }) {
    el.dataset.state = kind;
    body.replaceChildren(h('div', { class: 'camera-message', 'data-testid': `camera-${kind}` },
      icon(iconName, { cls: 'camera-message-icon' }), h('h2', {}, heading), h('p', {}, text), h('div', { class: 'actions' }, actions)));
    body.querySelector('.actions button')?.focus();
  }

  function showUnavailable(reason) {
    stateView('unavailable', {
      heading: 'No camera available',
      text: reason || (!window.isSecureContext
        ? 'Browsers allow the camera only on secure pages (HTTPS or localhost). Open Sepia through HTTPS to take photos.'
        : 'This device has no camera Sepia can use. You can still Add Photos from your files.'),
      iconName: 'cloudOff',
      actions: [h('button', { type: 'button', class: 'btn primary', onclick: () => ctx.back() }, 'Back to Library')],
    });
  }

  function showPrompt() {
    stateView('prompt', {
      heading: 'Allow camera access',
      text: USAGE + ' Your browser will ask for permission; pictures are only taken when you press the shutter.',
      actions: [
        h('button', { type: 'button', class: 'btn primary', 'data-testid': 'camera-allow', onclick: start }, icon('camera'), 'Allow camera'),
        h('button', { type: 'button', class: 'btn', onclick: () => ctx.back() }, 'Not Now'),
      ],
    });
  }

  function showDenied() {
    const ua = navigator.userAgent;
    const how = /Firefox/.test(ua)
      ? 'Click the camera icon in the address bar (or the padlock → Connection secure → More information → Permissions) and allow the camera, then reload.'
      : /Safari/.test(ua) && !/Chrome|Chromium/.test(ua)
        ? 'In Safari, choose Safari → Settings for This Website (or the “aA” menu on iPhone → Website Settings) and set Camera to Allow, then reload.'
        : 'Click the padlock or site-settings icon at the left of the address bar, set Camera to Allow, then reload the page.';
    stateView('denied', {
      heading: 'Camera access is turned off',
      text: `${USAGE} You denied access earlier, so the browser no longer asks. ${how}`,
      iconName: 'lock',
      actions: [
        h('button', { type: 'button', class: 'btn primary', onclick: () => location.reload() }, 'Reload'),
        h('button', { type: 'button', class: 'btn', onclick: () => ctx.back() }, 'Back to Library'),
      ],
    });
  }

  async function init() {
    if (!window.isSecureContext || !navigator.mediaDevices?.getUserMedia) { showUnavailable(); return; }
    const hasCamera = await store.detectCamera();
    if (!hasCamera) { showUnavailable(); return; }
    try {
      permission = await navigator.permissions?.query({ name: 'camera' });
    } catch { permission = null; }
    if (permission) {
      permission.onchange = () => {
        if (!alive) return;
        if (permission.state === 'denied') { stopStream(); showDenied(); }
        else if (permission.state === 'granted' && !stream && !captured) start();
      };
    }
    if (permission?.state === 'granted') start();
    else if (permission?.state === 'denied') showDenied();
    else showPrompt();
  }

  async function start() {
    stateView('starting', { heading: 'Starting the camera…', text: 'If your browser asks, choose Allow.', actions: [h('span', { class: 'spinner large', role: 'status', aria: { label: 'Starting camera' } })] });
    try {
      stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: facing, width: { ideal: 1920 }, height: { ideal: 1080 } }, audio: false });
      if (!alive) { stopStream(); return; }
      showLive();
    } catch (e) {
      if (!alive) return;
      if (e.name === 'NotAllowedError' || e.name === 'SecurityError') showDenied();
      else if (e.name === 'NotFoundError' || e.name === 'OverconstrainedError') showUnavailable('No camera was found. Connect one, or Add Photos from your files instead.');
      else if (e.name === 'NotReadableError') showUnavailable('The camera is in use by another app or could not be started. Close the other app and try again.');
      else showUnavailable(`The camera could not be started: ${e.message || e.name}.`);
    }
  }

  function stopStream() {
    stream?.getTracks().forEach((t) => t.stop());
    stream = null;
  }

  function showLive() {
    el.dataset.state = 'live';
    const video = h('video', { class: 'camera-video', autoplay: true, playsinline: true, muted: true, 'data-testid': 'camera-video', aria: { label: 'Camera view' } });
    video.srcObject = stream;
    video.muted = true;
    const crosshair = h('div', { class: 'crosshair', 'aria-hidden': 'true', 'data-testid': 'camera-crosshair' }, h('span', { class: 'ch-h' }), h('span', { class: 'ch-v' }), h('span', { class: 'ch-ring' }));
    const shutter = h('button', { type: 'button', class: 'shutter', 'data-testid': 'camera-shutter', aria: { label: 'Take picture' }, title: 'Take picture (Space or Enter)', onclick: () => capture(video) }, h('span', { class: 'shutter-inner' }));
    const flip = h('button', { type: 'button', class: 'btn icon on-dark', 'data-testid': 'camera-switch', aria: { label: 'Switch camera' }, onclick: async () => { facing = facing === 'environment' ? 'user' : 'environment'; stopStream(); await start(); } }, icon('switchCamera'));
    navigator.mediaDevices.enumerateDevices().then((d) => { flip.hidden = d.filter((x) => x.kind === 'videoinput').length < 2; }).catch(() => { flip.hidden = true; });
    body.replaceChildren(
      h('div', { class: 'camera-view', 'data-toast-anchor': '12' }, video, crosshair),
      h('div', { class: 'camera-controls' }, h('span', { class: 'control-spacer' }), shutter, flip));
    video.play?.().catch(() => {});
    shutter.focus();
  }

  function capture(video) {
    const w = video.videoWidth;
    const hgt = video.videoHeight;
    if (!w || !hgt) { toast.error('The camera has not delivered a picture yet. Try again in a moment.'); return; }
    const canvas = h('canvas', { class: 'camera-still', 'data-testid': 'camera-still', role: 'img', aria: { label: 'The picture you took' } });
    canvas.width = w;
    canvas.height = hgt;
    canvas.getContext('2d').drawImage(video, 0, 0, w, hgt);
    captured = { canvas, w, h: hgt };
    stopStream();
    showReview();
  }

  function showReview() {
    el.dataset.state = 'review';
    crop = null;
    const { canvas, w, h: hgt } = captured;
    const squareId = 'sq-' + Math.random().toString(36).slice(2, 6);
    const squareToggle = h('input', { type: 'checkbox', id: squareId, role: 'switch', 'data-testid': 'square-crop' });
    let cropBox = null;
    const view = h('div', { class: 'camera-view review', 'data-toast-anchor': '12' }, canvas);
    const place = () => {
      if (!cropBox) return;
      const vr = view.getBoundingClientRect();
      const cr = canvas.getBoundingClientRect();
      const aspect = w / hgt;
      let dw = cr.width; let dh = cr.width / aspect;
      if (dh > cr.height) { dh = cr.height; dw = dh * aspect; }
      cropBox.setDisplay({ left: cr.left - vr.left + (cr.width - dw) / 2, top: cr.top - vr.top + (cr.height - dh) / 2, width: dw, height: dh });
    };
    squareToggle.addEventListener('change', () => {
      if (squareToggle.checked) {
        const s = Math.min(w, hgt);
        crop = { x: (w - s) / 2, y: (hgt - s) / 2, w: s, h: s };
        cropBox = new CropBox({ imageW: w, imageH: hgt, crop, square: true, testid: 'camera-crop-box', onChange: (c) => { crop = c || { x: 0, y: 0, w, h: hgt }; } });
        view.append(cropBox.el);
        place();
      } else {
        cropBox?.el.remove();
        cropBox = null;
        crop = null;
      }
    });
    const ro = new ResizeObserver(place);
    ro.observe(view);
    const retake = h('button', { type: 'button', class: 'btn on-dark-btn', 'data-testid': 'camera-retake', onclick: () => { ro.disconnect(); captured = null; start(); } }, 'Retake');
    const use = h('button', { type: 'button', class: 'btn primary', 'data-testid': 'camera-use', onclick: () => { ro.disconnect(); usePhoto(use); } }, 'Use Photo');
    body.replaceChildren(view,
      h('div', { class: 'camera-controls review-controls' }, retake,
        h('label', { class: 'checkbox on-dark-text', for: squareId }, squareToggle, 'Square crop'), use));
    use.focus();
  }

  async function usePhoto(button) {
    const { canvas, w, h: hgt } = captured;
    const c = crop || { x: 0, y: 0, w, h: hgt };
    const out = document.createElement('canvas');
    out.width = Math.round(c.w);
    out.height = Math.round(c.h);
    out.getContext('2d').drawImage(canvas, Math.round(c.x), Math.round(c.y), out.width, out.height, 0, 0, out.width, out.height);
    button.disabled = true;
    button.replaceChildren(h('span', { class: 'spinner' }), 'Saving…');
    const blob = await new Promise((resolve) => out.toBlob(resolve, 'image/jpeg', 0.92));
    if (!blob) { toast.error('The picture could not be encoded.'); button.disabled = false; button.textContent = 'Use Photo'; return; }
    const stamp = new Date();
    const name = `Photo ${stamp.getFullYear()}-${String(stamp.getMonth() + 1).padStart(2, '0')}-${String(stamp.getDate()).padStart(2, '0')} ${String(stamp.getHours()).padStart(2, '0')}.${String(stamp.getMinutes()).padStart(2, '0')}.${String(stamp.getSeconds()).padStart(2, '0')}.jpg`;
    const file = new File([blob], name, { type: 'image/jpeg', lastModified: stamp.getTime() });
    const album = params.query?.get('album') || null;
    uploads.add([file], {
      album,
      onDone: (item) => {
        if (item.id) ctx.replace(`#/photo/${item.id}`);
      },
    });
    const off = uploads.onItemDone((item) => {
      if (item.file !== file) return;
      off();
      if (item.state === 'error' || item.state === 'cancelled') {
        toast.error(`The photo could not be saved: ${item.message}`);
        button.disabled = false;
        button.textContent = 'Use Photo';
      }
    });
  }

  const onKey = (e) => {
    if (keyBelongsToControl(e)) return;
    if (e.key === 'Escape') { e.preventDefault(); ctx.back(); return; }
    if (el.dataset.state === 'live' && (e.key === ' ' || e.key === 'Enter') && !e.target.closest('button, input, a')) {
      e.preventDefault();
      const video = body.querySelector('video');
      if (video) capture(video);
    }
  };
  document.addEventListener('keydown', onKey);
  init();

  return {
    el,
    unmount() {
      alive = false;
      stopStream();
      if (permission) permission.onchange = null;
      document.removeEventListener('keydown', onKey);
      el.remove();
    },
  };
}
