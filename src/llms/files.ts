/**
 * What llms.txt and llms-full.txt say, read from the index in one pass each: llms.txt reads each page's URL, title,
 * description and type (`allListed`), llms-full.txt each page's text as well (`allPages`), both by keyset, so a site
 * of N pages is N rows of each table read once. A file stops before the part that would take it past `maxBytes`,
 * and says so in its last lines; the pages it did not read are never read.
 */
import { allListed, allPages, type ListedPage, type StoredPage } from '../db/pages.js';
import type { SearchDatabase } from '../db/types.js';
import { markdownLink, markdownText } from '../mcp/markdown-text.js';
import { pageMarkdown } from '../mcp/page-markdown.js';
import type { ResolvedConfig } from '../options/options.js';
import { HOST_SLOT, ORIGIN_SLOT, type TemplateWriter } from './template.js';

/** What the files say of the site beyond its pages. */
export interface LlmsSite {
  /** The H1: the site's name. Default: the `mcp` option's `name`, else the origin's host, else "Documentation". */
  name?: string;
  /** The `>` summary. Default: the `mcp` option's `description`, else a sentence naming the page count. */
  summary?: string;
  /** Absolute page URLs are built on it (`https://docs.example.com`); without it they stay paths. */
  origin?: string;
}

/** How the files write a page's address and the site's host: filled in (the CLI) or as slots (a served template). */
export interface Addressing {
  absolute(path: string): string;
  /** The host a nameless site is called by, if any. */
  host?: string;
  /** The origin, for the lines that name another file or route; `''` leaves them paths. */
  origin: string;
}

/** The sections of llms.txt: one H2 per type when the sources have several, else per top folder of the URLs. */
function groupOf(config: ResolvedConfig): (page: ListedPage) => string {
  if (config.types.length > 1) return (page) => page.type;
  return (page) => page.url.split('/').filter(Boolean)[0] ?? 'Pages';
}

/** llms.txt: `# name`, `> summary`, then per group `## group` and `- [title](url): description` per page. */
export async function writeIndexFile(config: ResolvedConfig, db: SearchDatabase, out: TemplateWriter, site: LlmsSite, address: Addressing): Promise<void> {
  const group = groupOf(config);
  const groups = new Map<string, string[]>();
  const encoder = new TextEncoder();
  let count = 0;
  let bytes = 0;
  let cut = false;
  for await (const page of allListed(db, config.site)) {
    const line = `- ${markdownLink(page.title, address.absolute(page.url))}${page.description ? `: ${markdownText(page.description)}` : ''}`;
    bytes += encoder.encode(line).byteLength + 1;
    // Leaving the loop stops the reading: the pages past the bound are never read.
    if (bytes > out.maxBytes) {
      cut = true;
      break;
    }
    count++;
    const key = group(page);
    groups.set(key, [...(groups.get(key) ?? []), line]);
  }
  const { name, summary } = described(config, site, address, cut ? undefined : count);
  out.write([`# ${name}`, '', `> ${summary}`].join('\n'));
  for (const [key, entries] of groups) out.write(`\n\n## ${markdownText(key)}\n\n${entries.join('\n')}`);
  if (cut) {
    const where = config.mcp ? `search them with the MCP server at ${address.origin}${config.mcp.route}` : 'search the site for them';
    out.write(`\n\n(This list stops at ${megabytes(out.maxBytes)}: the site has more pages than it holds; ${where}.)`);
  }
  out.write('\n');
}

/** llms-full.txt's first lines: the H1 and the summary. */
export function fullHeader(config: ResolvedConfig, site: LlmsSite, address: Addressing): string {
  const { name, summary } = described(config, site, address, 'full');
  return `# ${name}\n\n> ${summary}\n`;
}

/** A page of llms-full.txt: a separator, then the page as `get_page` gives it. */
export function fullEntry(page: StoredPage, address: Addressing): string {
  return `\n---\n\n${pageMarkdown(page, address.absolute(page.url))}`;
}

/** llms-full.txt: the H1 and summary, then every page as `get_page` gives it, in URL order, up to the bound. */
export async function writeFullFile(config: ResolvedConfig, db: SearchDatabase, out: TemplateWriter, site: LlmsSite, address: Addressing): Promise<void> {
  out.write(fullHeader(config, site, address));
  for await (const page of allPages(db, config.site)) {
    const text = fullEntry(page, address);
    if (!out.fits(text)) {
      const read = config.mcp ? `, and the MCP server at ${address.origin}${config.mcp.route} reads any page with get_page` : '';
      out.write(`\n---\n\n(This file stops at ${megabytes(out.maxBytes)}, before the index's later pages: ${address.origin}/llms.txt lists them${read}.)\n`);
      // Leaving the loop stops the reading: the pages past the bound are never read.
      return;
    }
    out.write(text);
  }
}

function megabytes(bytes: number): string {
  return `${Math.round((bytes / 2 ** 20) * 10) / 10} MB`;
}

/**
 * The H1 and the summary. The default summary of llms.txt counts the pages it lists (`count`, or none when it stops at
 * its bound); llms-full.txt's says what each page holds.
 */
function described(config: ResolvedConfig, site: LlmsSite, address: Addressing, count?: number | 'full'): { name: string; summary: string } {
  const mcp = config.mcp || undefined;
  const given = site.name ?? mcp?.name;
  // The host stands in for a name the options do not give (a slot in a served template, text the CLI fills in).
  const name = given !== undefined ? markdownText(given) : address.host ?? 'Documentation';
  const givenSummary = site.summary ?? mcp?.description;
  if (givenSummary !== undefined) return { name, summary: markdownText(givenSummary) };
  // "Every page … with its", "1 page … with its", "20 pages … each with its": one reading for each count.
  if (count === 'full') return { name, summary: `Every page of ${name} in full, with its title and address.` };
  if (count === undefined) return { name, summary: `Pages of ${name}, each with its title, address and description.` };
  return { name, summary: `${count} page${count === 1 ? '' : 's'} of ${name}, ${count === 1 ? '' : 'each '}with its title, address and description.` };
}

/** Addresses filled in with `origin` (or paths without one): what the CLI writes. */
export function filledAddressing(origin: string | undefined, resolve: (path: string) => string): Addressing {
  return { absolute: resolve, host: origin ? new URL(origin).host : undefined, origin: origin ?? '' };
}

/** Addresses as slots, filled in per answer: what a served template holds (see template.ts). */
export function slotAddressing(resolveOnPlaceholder: (path: string) => string, placeholder: string): Addressing {
  return { absolute: (path) => ORIGIN_SLOT + resolveOnPlaceholder(path).slice(placeholder.length), host: HOST_SLOT, origin: ORIGIN_SLOT };
}
