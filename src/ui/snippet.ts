/**
 * The one place a server snippet becomes DOM. The endpoint escapes everything except `<mark>` and `</mark>`, but the
 * element does not rely on that: it builds text nodes and `<mark>` elements itself, so even a snippet from a broken or
 * hostile server can only ever produce text and highlights.
 */

/** A run of snippet text, highlighted or not, with the server's entities already decoded. */
export interface SnippetPart {
  text: string;
  mark: boolean;
}

/** Exactly the five entities the endpoint's escaping produces. Anything else (`&nbsp;`, `&#60;`) stays literal text. */
const ENTITIES: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&amp;': '&', '&quot;': '"', '&#39;': "'" };

/** Decodes in one pass, so `&amp;lt;` becomes the text `&lt;` and not `<`. */
const decode = (text: string): string => text.replace(/&(?:lt|gt|amp|quot|#39);/g, (entity) => ENTITIES[entity]!);

/**
 * Splits a snippet into plain and highlighted runs. Only the exact tags `<mark>` and `</mark>` count; they do not nest,
 * and an unmatched one is dropped. Every other character, tags included, is text.
 */
export function parseSnippet(snippet: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let mark = false;
  for (const piece of snippet.split(/(<\/?mark>)/)) {
    if (piece === '<mark>' || piece === '</mark>') {
      mark = piece === '<mark>';
    } else if (piece) {
      parts.push({ text: decode(piece), mark });
    }
  }
  return parts;
}

/** Appends the snippet to `parent` as text nodes and `<mark>` elements. */
export function renderSnippet(parent: HTMLElement, snippet: string): void {
  for (const { text, mark } of parseSnippet(snippet)) {
    if (mark) {
      const el = document.createElement('mark');
      el.textContent = text;
      parent.append(el);
    } else {
      parent.append(text);
    }
  }
}
