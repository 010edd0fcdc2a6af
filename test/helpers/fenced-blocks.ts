/**
 * The fenced code blocks of a Markdown or MDX page as a reference parser finds them (mdast-util-from-markdown, with the
 * MDX extensions for .mdx, as Astro reads them): what "byte for byte" is checked against in the tests of the pages as
 * written (issue 53).
 */
import { fromMarkdown } from 'mdast-util-from-markdown';
import { mdxFromMarkdown } from 'mdast-util-mdx';
import { mdxjs } from 'micromark-extension-mdxjs';

interface Node {
  type: string;
  position?: { start: { offset?: number }; end: { offset?: number } };
  children?: Node[];
}

/**
 * Each fenced code block of `source` (a whole file, frontmatter included), as written: from its opening fence's first
 * character to its closing fence's last.
 */
export function fencedBlocks(source: string, mdx: boolean): string[] {
  // The frontmatter is not the page's: a reference parser would read its `---` as a thematic break and what follows
  // as a setext heading.
  const body = source.replace(/\r\n?/g, '\n').replace(/^---\n[\s\S]*?\n---\n/, '');
  const blocks: string[] = [];
  const visit = (node: Node) => {
    if (node.type === 'code' && node.position) {
      const text = body.slice(node.position.start.offset, node.position.end.offset);
      // A block left open runs to the end of the page (a few corpus pages end so): the page's last blank lines are not
      // kept, so it is compared without them.
      const closed = /\n[ \t>]*(?:`{3,}|~{3,})[ \t]*$/.test(text);
      if (/^(?:```|~~~)/.test(text)) blocks.push(closed ? text : text.trimEnd());
    }
    for (const child of node.children ?? []) visit(child);
  };
  visit((mdx ? fromMarkdown(body, { extensions: [mdxjs()], mdastExtensions: [mdxFromMarkdown()] }) : fromMarkdown(body)) as Node);
  return blocks;
}
