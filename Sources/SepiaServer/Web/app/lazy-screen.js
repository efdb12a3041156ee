// Screens that are not the first one a person sees (the photo, the editor, the camera, settings, and the pages
// outside the app) are loaded when they are first opened, not with the app: the first screen then waits for
// about half of the app's code only. Once the first screen is up, `preloadScreens` fetches the rest while the
// browser is idle, so that opening a photo does not wait for the network either.

/**
 * A screen's mount function whose module is imported on first use. It returns at once, as a mounted screen
 * does: a stand-in that mounts the real screen once its module is there, passes `update` on (or keeps the last
 * one for the mount), and answers the router in the meantime (`canLeave`: nothing is edited yet). Unmounted
 * before its module came, it mounts nothing.
 * @param {() => Promise<object>} load imports the module
 * @param {string} name the mount function it exports
 */
export function lazyScreen(load, name) {
  loaders.push(load);
  return (target, params, ctx) => {
    let screen = null;
    let gone = false;
    let latest = params;
    load().then((module) => {
      if (!gone) screen = module[name](target, latest, ctx);
    }).catch((e) => {
      if (gone) return;
      const message = document.createElement('p');
      message.className = 'form-error';
      message.setAttribute('role', 'alert');
      message.textContent = `This page could not be loaded (${e.message}). Check the connection and reload the page.`;
      target.append(message);
      screen = { unmount: () => message.remove() };
    });
    return {
      update(p) { if (screen) screen.update?.(p); else latest = p; },
      canLeave: () => screen?.canLeave?.() ?? true,
      confirmLeave: async () => (screen?.confirmLeave ? screen.confirmLeave() : true),
      show() { screen?.show?.(); },
      hide() { screen?.hide?.(); },
      focusAsset(id) { screen?.focusAsset?.(id); },
      unmount() { gone = true; screen?.unmount(); screen = null; },
    };
  };
}

const loaders = [];

/**
 * Fetches every lazily loaded screen's module, a second after the first screen was asked for and then while the
 * browser is idle, so that it does not compete with that screen's own requests and rendering.
 */
export function preloadScreens() {
  const idle = window.requestIdleCallback || ((f) => setTimeout(f, 0));
  setTimeout(() => idle(() => { for (const load of loaders) load().catch(() => {}); }, { timeout: 2000 }), 1000);
}
