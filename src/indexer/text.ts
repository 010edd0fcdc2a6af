/**
 * Markdown/MDX → plain searchable text.
 *
 * This is deliberately not an MDX parser: a real one throws on the malformed JSX that turns up in any large corpus and
 * is about a hundred times slower. Instead a line-based block pass separates code, frontmatter, ESM and prose, and an
 * inline scanner strips markup from each prose run. Both passes degrade gracefully: anything they cannot make sense of
 * is kept (or dropped to the end of its line) and reported through `onWarning`, never thrown.
 */
import { stripSentinels } from '../text/marks.js';

/** A problem found in the source; extraction carries on regardless. */
export interface TextWarning {
  /** 1-based line of the source where the offending construct starts. */
  line: number;
  message: string;
}

/** Options for {@link markdownToText}. */
export interface TextOptions {
  /** Called for each malformed construct (unclosed code fence, JSX tag, comment…). */
  onWarning?: (warning: TextWarning) => void;
}

import { scanBlocks, renderBlocks, type Block } from './markdown-blocks.js';
import { renderInline, type Warn } from './markdown-inline.js';

/**
 * Converts a Markdown/MDX document to plain text for the search index.
 *
 * Frontmatter, ESM `import`/`export` blocks, JSX/HTML tags and their attributes, comments, link destinations and
 * Markdown punctuation are removed; prose, link text, image alt text, table cells and code (fenced and inline) are
 * kept. Entities are decoded, the snippet sentinels U+E000/U+E001 are removed and whitespace is collapsed to single
 * spaces.
 *
 * Never throws on any input: malformed constructs are handled on a best-effort basis and reported via
 * `options.onWarning`.
 *
 * @param source - The document, with or without its leading `---`/`+++` frontmatter block.
 * @returns Plain text, trimmed, with single spaces between words.
 */
export function markdownToText(source: string, options: TextOptions = {}): string {
  // Warnings are delivered after extraction so an exception thrown by the caller's callback reaches the caller instead
  // of being mistaken for an extraction failure below.
  const warnings: TextWarning[] = [];
  const warn: Warn = (line, message) => warnings.push({ line, message });
  let text: string;
  try {
    text = finish(renderBlocks(scanBlocks(source, warn), warn));
  } catch (error) {
    // Safety net only: no input is known to get here, but one odd page must not abort a 100k-document build.
    warn(1, `text extraction failed, indexing crude text instead: ${String(error)}`);
    text = finish(source.replace(/<[^>]*>/g, ' '));
  }
  if (options.onWarning) {
    // The block and inline passes find problems in different orders; report them in source order.
    for (const w of warnings.sort((a, b) => a.line - b.line)) options.onWarning(w);
  }
  return text;
}

/**
 * The text of the first level-1 ATX heading (`# Title`) outside code fences, frontmatter and ESM, with inline markup
 * removed.
 *
 * @returns The heading text, or `undefined` when the document has no non-empty level-1 heading.
 */
export function firstHeading(source: string): string | undefined {
  try {
    const doc = scanBlocks(source, () => {});
    for (const block of doc.blocks) {
      if (block.kind !== 'heading' || block.level !== 1 || block.nested) continue;
      const text = finish(renderInline(block.text, [block.line], doc.refs, () => {}));
      if (text !== '') return text;
    }
  } catch {
    // Same safety net as markdownToText: a heading is optional metadata.
  }
  return undefined;
}

/** A heading's text as the page shows it (inline markup removed), as {@link markdownSections} gives it. */
export function headingText(markdown: string): string {
  return finish(renderInline(markdown, [1], new Set(), () => {}));
}

/** A part of a page under one heading: what a search result can point into. */
export interface TextSection {
  /** Heading text, inline markup removed; `''` for the part before the first heading. */
  heading: string;
  /** Plain text of the section's body (the heading not included). */
  text: string;
}

/** Options of {@link markdownSections}. */
export interface SectionOptions extends TextOptions {
  /**
   * Called with each section as it is extracted; returning `true` ends the extraction there. The rest of the page is
   * then not rendered (nor checked for inline problems): the indexer stops once it has `maxContentLength` of text.
   */
  enough?: (section: TextSection) => boolean;
}

/**
 * Splits a document at its level 2–4 headings (outside code, lists and quotes) into plain-text sections, with the
 * same extraction as {@link markdownToText}. Never throws; an unreadable document is one section with no heading.
 */
export function markdownSections(source: string, options: SectionOptions = {}): TextSection[] {
  const warnings: TextWarning[] = [];
  const warn: Warn = (line, message) => warnings.push({ line, message });
  const sections = splitSections(source, warn, options.enough ?? (() => false));
  if (options.onWarning) for (const w of warnings.sort((a, b) => a.line - b.line)) options.onWarning(w);
  return sections;
}

function splitSections(source: string, warn: Warn, enough: (section: TextSection) => boolean): TextSection[] {
  try {
    // The whole page is scanned (a link reference may be defined at its end); only the sections wanted are rendered.
    const doc = scanBlocks(source, warn);
    const sections: TextSection[] = [];
    let heading = '';
    let blocks: Block[] = [];
    /** Renders the section so far; true when it was the last one wanted. */
    const close = (): boolean => {
      const text = finish(renderBlocks({ blocks, refs: doc.refs }, warn));
      if (!heading && !text) return false;
      const section = { heading, text };
      sections.push(section);
      return enough(section);
    };
    for (const block of doc.blocks) {
      if (block.kind === 'heading' && block.level >= 2 && block.level <= 4 && !block.nested) {
        if (close()) return sections;
        heading = finish(renderInline(block.text, [block.line], doc.refs, () => {}));
        blocks = [];
      } else {
        blocks.push(block);
      }
    }
    close();
    return sections;
  } catch (error) {
    // Same safety net as markdownToText.
    warn(1, `text extraction failed, indexing crude text instead: ${String(error)}`);
    return [{ heading: '', text: finish(source.replace(/<[^>]*>/g, ' ')) }];
  }
}

/** Final normalisation shared by both exports: sentinel characters and soft hyphens removed, whitespace collapsed. */
function finish(text: string): string {
  // U+00AD (soft hyphen, mostly from `&shy;`) is invisible but would split a word in two for the tokenizer.
  return stripSentinels(text).replace(/\u00ad/g, '').replace(/\s+/g, ' ').trim();
}
