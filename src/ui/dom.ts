/** A tiny element builder. Children are appended as nodes, and strings as text nodes, never parsed as markup. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const name in attributes) el.setAttribute(name, attributes[name]!);
  el.append(...children);
  return el;
}
