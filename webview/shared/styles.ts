/** Adopts style sheets (bundled as text) without a <style> element, so the content security policy needs no inline styles. */
export function adoptStyles(...texts: string[]): void {
  const sheets = texts.map((text) => {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(text);
    return sheet;
  });
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, ...sheets];
}

/** Creates an element with text content only (never HTML) and optional attributes. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs?: Record<string, string>,
  text?: string,
): HTMLElementTagNameMap[K];
export function el(tag: string, attrs?: Record<string, string>, text?: string): HTMLElement;
export function el(tag: string, attrs: Record<string, string> = {}, text?: string): HTMLElement {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}
