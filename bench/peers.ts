/**
 * The peers site-search is compared with, each configured the way its documentation suggests for a docs site, on the
 * same records. Configurations are written out here so anyone can check they are fair.
 */
import { rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { create, insertMultiple, search as oramaSearch } from '@orama/orama';
import * as pagefind from 'pagefind';
import FlexSearch from 'flexsearch';
import MiniSearch from 'minisearch';
import type { IndexDocument } from '../src/indexer/index.js';

/** A search engine under benchmark. */
export interface Engine {
  name: string;
  index(documents: IndexDocument[]): Promise<void>;
  /** URLs of the top 10 results. `limits` raise what site-search accepts; the peers take any query and ignore them. */
  search(query: string, lang: string, limits?: QueryLimits): Promise<string[]>;
  close?(): void | Promise<void>;
}

/** The bounds site-search's config sets on a query, raised for questions a search box would not send. */
export interface QueryLimits {
  maxQueryLength: number;
}

/** MiniSearch: prefix + fuzzy (0.2), title boosted, as its README suggests for search-as-you-type. */
function minisearch(): Engine {
  const engine = new MiniSearch<IndexDocument & { id: number }>({
    fields: ['title', 'description', 'tags', 'content'],
    storeFields: ['url', 'type'],
    searchOptions: { boost: { title: 3, description: 2, tags: 2 }, prefix: true, fuzzy: 0.2 },
  });
  return {
    name: 'MiniSearch',
    async index(documents) {
      engine.addAll(documents.map((d, id) => ({ ...d, id })));
    },
    async search(query, lang) {
      return engine
        .search(query, { filter: (r) => r.type === lang })
        .slice(0, 10)
        .map((r) => r.url as string);
    },
  };
}

/** Orama: full-text search over the same fields, typo tolerance 1, title boosted. */
function orama(): Engine {
  const db = create({
    schema: { title: 'string', description: 'string', tags: 'string', content: 'string', url: 'string', type: 'enum' } as const,
  });
  return {
    name: 'Orama',
    async index(documents) {
      await insertMultiple(db, documents.map(({ title, description, tags, content, url, type }) => ({ title, description, tags, content, url, type })));
    },
    async search(query, lang) {
      const result = await oramaSearch(db, {
        term: query,
        where: { type: { eq: lang } },
        properties: ['title', 'description', 'tags', 'content'],
        boost: { title: 3, description: 2, tags: 2 },
        tolerance: 1,
        limit: 10,
      });
      return result.hits.map((h) => h.document.url as string);
    },
  };
}

/**
 * FlexSearch: a document index over the same fields with the "forward" tokenizer (prefix matching, as its README
 * suggests for search-as-you-type), filtered by a `type` tag. It answers per field; the fields are merged title first.
 */
function flexsearch(): Engine {
  const fields = ['title', 'description', 'tags', 'content'];
  const index = new FlexSearch.Document({ tokenize: 'forward', document: { id: 'id', index: fields, tag: ['type'], store: ['url'] } });
  return {
    name: 'FlexSearch',
    async index(documents) {
      documents.forEach(({ title, description, tags, content, url, type }, id) => index.add({ id, title, description, tags, content, url, type }));
    },
    async search(query, lang) {
      const byField = (await index.search(query, { limit: 10, tag: { type: lang }, enrich: true })) as unknown as {
        field: string;
        result: { doc: { url: string } }[];
      }[];
      const urls = new Set<string>();
      for (const field of fields) for (const hit of byField.find((f) => f.field === field)?.result ?? []) urls.add(hit.doc.url);
      return [...urls].slice(0, 10);
    },
  };
}

/**
 * Pagefind: its Node API builds the index from HTML pages (title as <h1>, so its heading weights apply as on a real
 * site), one bundle per language as a multilingual site serves them; its own generated `pagefind.js` searches, in Node,
 * with a `fetch` that reads the bundle's files.
 */
let pagefindRuns = 0;

function pagefindEngine(): Engine {
  // A folder per engine: Node caches a bundle's `pagefind.js` by its URL, so a second set written to the first one's
  // folder would be searched by the first set's module, whose fragment files are gone (a 404 on the Electron set).
  const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'pagefind', String(pagefindRuns++));
  const bundles = new Map<string, { search(q: string): Promise<{ results: { data(): Promise<{ url: string }> }[] }> }>();
  return {
    name: 'Pagefind',
    async index(documents) {
      rmSync(out, { recursive: true, force: true });
      const byLang = Map.groupBy(documents, (d) => d.type);
      for (const [lang, docs] of byLang) {
        const { index } = await pagefind.createIndex({});
        for (const d of docs) {
          const html = `<html lang="${lang}"><head><title>${escape(d.title)}</title></head><body><main><h1>${escape(d.title)}</h1><p>${escape(d.description)}</p><p>${escape(d.tags)}</p><p>${escape(d.content)}</p></main></body></html>`;
          await index!.addHTMLFile({ url: d.url, content: html });
        }
        await index!.writeFiles({ outputPath: join(out, lang) });
      }
      await pagefind.close();
      installFileFetch();
      for (const lang of byLang.keys()) {
        const bundle = await import(pathToFileURL(join(out, lang, 'pagefind.js')).href);
        await bundle.options({ basePath: pathToFileURL(join(out, lang)).href + '/', baseUrl: '/' });
        bundles.set(lang, bundle);
      }
    },
    async search(query, lang) {
      const { results } = await bundles.get(lang)!.search(query);
      return Promise.all(results.slice(0, 10).map(async (r) => (await r.data()).url));
    },
  };
}

function escape(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

/** Lets Pagefind's browser bundle load its files from disk in Node. */
function installFileFetch(): void {
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    if (!url.startsWith('file:')) return realFetch(input, init);
    try {
      return new Response(await readFile(fileURLToPath(url.split('?')[0]!)));
    } catch {
      return new Response('not found', { status: 404 });
    }
  };
}

/** The peers, each with an empty index of its own (one set each). */
export function peers(): Engine[] {
  return [minisearch(), orama(), flexsearch(), pagefindEngine()];
}
