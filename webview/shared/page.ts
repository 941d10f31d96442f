/** The element the panel's app draws in; a page without it was served wrong, and says so. */
export function appElement(): HTMLElement {
  const app = document.getElementById('app');
  if (!app) throw new Error('The panel page has no #app element to draw in.');
  return app;
}
