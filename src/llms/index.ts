/**
 * `site-search/llms`: llms.txt and llms-full.txt (llmstxt.org) written from the index, for assistants that read a
 * site's summary instead of calling its MCP server. The CLI (`site-search llms`), the Astro and Starlight integrations
 * (`llms: true`) and a Worker (`createWorker(options, { llms: createLlmsHandler })`) all write them here.
 */
import type { SearchDatabase } from '../db/types.js';
import type { ResolvedConfig } from '../options/options.js';
import { urlResolver } from '../search/urls.js';
import { allPages } from '../db/pages.js';
import { filledAddressing, fullEntry, fullHeader, writeIndexFile, type LlmsSite } from './files.js';
import { TemplateWriter, templateText } from './template.js';

export { createLlmsHandler } from './handler.js';
export type { LlmsSite } from './files.js';

/** llms.txt: `# name`, `> summary`, then per group `## group` and `- [title](url): description` per page, whole. */
export async function llmsTxt(config: ResolvedConfig, db: SearchDatabase, site: LlmsSite = {}): Promise<string> {
  const out = new TemplateWriter(Infinity);
  await writeIndexFile(config, db, out, site, filledAddressing(site.origin, urlResolver(site.origin)));
  return templateText(out.finish(), site.origin ?? '');
}

/** llms-full.txt: the H1 and summary, then every page as `get_page` gives it, in URL order, whole, a page at a time. */
export async function* llmsFullTxt(config: ResolvedConfig, db: SearchDatabase, site: LlmsSite = {}): AsyncGenerator<string> {
  const address = filledAddressing(site.origin, urlResolver(site.origin));
  yield fullHeader(config, site, address);
  // Read as the caller takes the pages: the CLI writes a site of any size without holding it.
  for await (const page of allPages(db, config.site)) yield fullEntry(page, address);
}
