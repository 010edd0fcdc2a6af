/**
 * Markdown as a renderer reads it: the reference CommonMark parser (micromark, through mdast-util-from-markdown), and
 * with GitHub's extensions (tables, autolinks, strikethrough), so a test asks what structure a text makes, not what it
 * looks like.
 */
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';

/** A node of the tree (mdast): its type, and its children, URL, depth or text where it has them. */
export interface MarkdownNode {
  type: string;
  children?: MarkdownNode[];
  url?: string;
  depth?: number;
  value?: string;
}

/**
 * The tree of `text`: CommonMark, or with `gfm` GitHub's dialect too, where any address written out in text
 * (`https://…`, `www.…`, `name@host`) becomes a link whatever escapes surround it.
 */
export function parseMarkdown(text: string, { gfm: withGfm = false }: { gfm?: boolean } = {}): MarkdownNode {
  return (withGfm ? fromMarkdown(text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] }) : fromMarkdown(text)) as MarkdownNode;
}

/** Every node of `type` in `tree`, in document order. */
export function nodesOf(tree: MarkdownNode, type: string): MarkdownNode[] {
  const found: MarkdownNode[] = [];
  const walk = (node: MarkdownNode) => {
    if (node.type === type) found.push(node);
    node.children?.forEach(walk);
  };
  walk(tree);
  return found;
}

/** The text a node shows (its own and its descendants'). */
export function textOf(node: MarkdownNode): string {
  return node.value ?? (node.children ?? []).map(textOf).join('');
}
