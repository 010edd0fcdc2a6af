import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The code blocks of `page` (a path from the repository's root) whose first line is the comment naming `file`
 * (`// file`, `<!-- file -->`; in an Astro component, the line after `---`), in page order, each taken verbatim
 * (a block indented inside a list loses that indent). Throws when there is none: a test of a block the page lost fails.
 */
export function docBlocks(page: string, file: string): string[] {
  const text = readFileSync(join(root, page), 'utf8');
  const blocks: string[] = [];
  for (const [, indent, body] of text.matchAll(/^( *)```\w*\n([\s\S]*?)^ *```$/gm)) {
    const lines = body!.split('\n').map((l) => l.slice(indent!.length));
    // An Astro component names itself on the line after its opening `---`.
    const first = lines[0]!.trim() === '---' ? lines[1]! : lines[0]!;
    if ([`// ${file}`, `<!-- ${file} -->`].includes(first.trim())) blocks.push(lines.join('\n'));
  }
  if (blocks.length === 0) throw new Error(`${page} has no code block starting with // ${file}`);
  return blocks;
}

/** The `i`-th block of `page` for `file`. */
export const docBlock = (page: string, file: string, i = 0): string => docBlocks(page, file)[i]!;
