/**
 * The corpus of ./corpus.ts indexed on one driver and searched through the endpoint, with the typo vocabulary in one of
 * the two states a process can be in: not in memory (a new process, or a Worker isolate's first request: corrections
 * are looked up in SQL) or in memory (loaded in the background after a first search: corrections are chosen before the
 * statement). Every request checks the state it was asked in.
 */
import { afterAll, beforeAll, expect, vi, type MockInstance } from 'vitest';
import { createSearchHandler, type SearchDatabase, type SearchOptions } from '../../src/index.js';
import { writeIndex } from '../../src/indexer/index.js';
import { forgetTypoIndexes, latestTypoIndex, vocabularyGeneration } from '../../src/search/packed-vocabulary.js';
import { TypoIndex } from '../../src/search/typo-index.js';
import type { TestDatabase } from '../helpers/databases.js';
import { CONFIG, OPTIONS, corpusPages } from './corpus.js';

/** The configurations searched: the default ranking, the literal formula, and no widening. */
export const VARIANTS = {
  fields: {},
  fts5: { ranking: 'fts5' },
  'fields, widen: false': { widen: false },
} satisfies Record<string, Partial<SearchOptions>>;
export type Variant = keyof typeof VARIANTS;

/** What is searched: the configuration, the query and its filters. */
export interface Asked {
  variant: Variant;
  q: string;
  type?: string | undefined;
  tags: string[];
}

export interface Result {
  url: string;
  type: string;
  score: number;
  match: string;
}

export interface Answer {
  suggestion?: string;
  results: Result[];
  facets?: { type: { value: string; count: number }[]; tags: { value: string; count: number }[] };
}

/** An answer of the endpoint, whatever its status, and what the server logged while answering. */
export interface Reply {
  status: number;
  body: Answer & { error?: string };
  /** The request's query string. */
  query: string;
  logged: string;
}

/** Where the typo vocabulary is: both states a process can be in. */
export const MEMORIES = ['not in memory', 'in memory'] as const;
export type Memory = (typeof MEMORIES)[number];

/** A result's page, by its path (the endpoint answers absolute URLs). */
export const pathOf = (result: Result): string => new URL(result.url).pathname;

/** The corpus indexed on a driver, with an endpoint per configuration. */
export class IndexedSite {
  private constructor(
    private readonly handle: TestDatabase,
    /** The vocabulary generation of this index: what the vocabulary in memory must be. */
    readonly generation: string,
    private readonly handlers: Record<Variant, (request: Request) => Promise<Response>>,
    private memory: Memory = 'not in memory',
    /** The lookups the typo index in memory answers: none while it is not in memory. */
    private readonly lookups: MockInstance<TypoIndex['lookup']> = vi.spyOn(TypoIndex.prototype, 'lookup'),
  ) {}

  static async open(open: () => Promise<TestDatabase>): Promise<IndexedSite> {
    const handle = await open();
    await writeIndex(handle.db, CONFIG, await corpusPages());
    const generation = await vocabularyGeneration(handle.db);
    if (!generation) throw new Error('the index has no vocabulary generation: the typo vocabulary cannot be loaded into memory');
    const handlers = Object.fromEntries(
      Object.entries(VARIANTS).map(([name, over]) => [name, createSearchHandler({ ...OPTIONS, ...over }, { db: handle.db, cache: false })]),
    ) as Record<Variant, (request: Request) => Promise<Response>>;
    return new IndexedSite(handle, generation, handlers);
  }

  get db(): SearchDatabase {
    return this.handle.db;
  }

  /**
   * Puts the process in the state named: nothing in memory, or this index's vocabulary loaded (a first search reads its
   * generation; the process then loads it in the background, waited for here).
   */
  async enter(memory: Memory): Promise<void> {
    this.memory = memory;
    forgetTypoIndexes();
    if (memory === 'not in memory') return;
    await this.handlers.fields(new Request('https://example.com/api/search?q=componnet'));
    for (let i = 0; i < 400 && latestTypoIndex(this.db)?.generation !== this.generation; i++) await new Promise((r) => setTimeout(r, 25));
    expect(latestTypoIndex(this.db)?.generation, 'the vocabulary was not loaded into memory within 10 s').toBe(this.generation);
  }

  /** How many words the vocabulary in memory has been asked about so far. */
  get lookupsInMemory(): number {
    return this.lookups.mock.calls.length;
  }

  /** One request to the endpoint, in the state entered (checked before it is sent, and by what it consulted). */
  async request(asked: Asked, page: { limit: number; offset: number }, facets?: string): Promise<Reply> {
    const url = new URL('https://example.com/api/search');
    url.searchParams.set('q', asked.q);
    url.searchParams.set('limit', String(page.limit));
    url.searchParams.set('offset', String(page.offset));
    if (asked.type) url.searchParams.set('type', asked.type);
    for (const tag of asked.tags) url.searchParams.append('tags', tag);
    if (facets) url.searchParams.set('facets', facets);
    // A new process for every request, or this index's vocabulary in memory.
    if (this.memory === 'not in memory') forgetTypoIndexes();
    expect(latestTypoIndex(this.db)?.generation).toBe(this.memory === 'in memory' ? this.generation : undefined);
    const before = this.lookupsInMemory;
    const logged: string[] = [];
    const log = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' ')));
    let res: Response;
    try {
      res = await this.handlers[asked.variant](new Request(url));
    } finally {
      log.mockRestore();
    }
    const body = (await res.json()) as Answer & { error?: string };
    if (this.memory === 'not in memory') expect(this.lookupsInMemory, 'a search consulted a vocabulary in memory').toBe(before);
    return { status: res.status, body, query: url.search, logged: logged.join('\n') };
  }

  /** One search, answered (200). */
  async search(asked: Asked, page: { limit: number; offset: number }, facets?: string): Promise<Answer> {
    const { status, body, query, logged } = await this.request(asked, page, facets);
    expect(status, `${query}: ${body.error} ${logged}`).toBe(200);
    return body;
  }

  /** Every result of a search, in one page (the corpus fits in one). */
  async whole(asked: Asked): Promise<Answer> {
    const answer = await this.search(asked, { limit: CONFIG.maxLimit, offset: 0 });
    expect(answer.results.length).toBeLessThan(CONFIG.maxLimit);
    return answer;
  }

  /** The pages of a search at `limit`, from offset 0 to the first that is not full (that one included). */
  async pagedThrough(asked: Asked, limit: number): Promise<Answer[]> {
    const pages: Answer[] = [];
    for (let offset = 0; ; offset += limit) {
      expect(offset).toBeLessThanOrEqual(CONFIG.maxOffset);
      const page = await this.search(asked, { limit, offset });
      expect(page.results.length).toBeLessThanOrEqual(limit);
      pages.push(page);
      if (page.results.length < limit) return pages;
    }
  }

  async close(): Promise<void> {
    this.lookups.mockRestore();
    forgetTypoIndexes();
    await this.handle.close();
  }
}

/** The corpus indexed on a driver for the tests of the describe block it is called in: opened before them, closed after. */
export function useIndexedSite(open: () => Promise<TestDatabase>): () => IndexedSite {
  let site: IndexedSite | undefined;
  beforeAll(async () => {
    site = await IndexedSite.open(open);
  }, 120_000);
  afterAll(() => site?.close());
  return () => site!;
}
