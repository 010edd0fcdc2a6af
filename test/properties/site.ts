/**
 * The corpus of ./corpus.ts indexed on one driver and searched through the endpoint, with the typo vocabulary in one of
 * the two states a process can be in: not in memory (a new process, or a Worker isolate's first request: the search
 * reads the packed vocabulary in its first statement) or in memory (kept from an earlier search: the search judges by
 * it and reads none). Every request checks the state it was asked in, by the statements it sent.
 */
import { afterAll, beforeAll, expect, vi } from 'vitest';
import { createSearchHandler, type SearchDatabase, type SearchOptions } from '../../src/index.js';
import { writeIndex } from '../../src/indexer/index.js';
import { PACKED_VOCAB_TABLE, VOCAB_GENERATION_QUERY } from '../../src/db/schema.js';
import { forgetKnownIndexes, knownIndex } from '../../src/search/known-index.js';
import { observe } from '../helpers/observe.js';
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
    /** The database as the handlers search it, noting each statement (`sent`). */
    readonly db: SearchDatabase,
    private readonly sent: string[],
    private readonly handlers: Record<Variant, (request: Request) => Promise<Response>>,
    private memory: Memory = 'not in memory',
  ) {}

  static async open(open: () => Promise<TestDatabase>): Promise<IndexedSite> {
    const handle = await open();
    await writeIndex(handle.db, CONFIG, await corpusPages());
    const generation = (await handle.db.prepare(VOCAB_GENERATION_QUERY).all<{ value: string }>()).results[0]?.value;
    if (!generation) throw new Error('the index has no vocabulary generation: the typo vocabulary cannot be kept in memory');
    const sent: string[] = [];
    const db = observe(handle.db, (sql) => sent.push(sql));
    const handlers = Object.fromEntries(
      Object.entries(VARIANTS).map(([name, over]) => [name, createSearchHandler({ ...OPTIONS, ...over }, { db, cache: false })]),
    ) as Record<Variant, (request: Request) => Promise<Response>>;
    return new IndexedSite(handle, generation, db, sent, handlers);
  }

  /** Puts the process in the state named: nothing in memory, or this index's vocabulary kept (read by a first search). */
  async enter(memory: Memory): Promise<void> {
    this.memory = memory;
    forgetKnownIndexes();
    if (memory === 'not in memory') return;
    await this.handlers.fields(new Request('https://example.com/api/search?q=componnet'));
    expect(knownIndex(this.db)?.generation, 'the first search kept the vocabulary it read').toBe(this.generation);
  }

  /** How many of the statements sent so far read the packed vocabulary. */
  get vocabularyReads(): number {
    return this.sent.filter((sql) => sql.includes(PACKED_VOCAB_TABLE)).length;
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
    if (this.memory === 'not in memory') forgetKnownIndexes();
    expect(knownIndex(this.db)?.generation).toBe(this.memory === 'in memory' ? this.generation : undefined);
    const before = this.vocabularyReads;
    const logged: string[] = [];
    const log = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' ')));
    let res: Response;
    try {
      res = await this.handlers[asked.variant](new Request(url));
    } finally {
      log.mockRestore();
    }
    const body = (await res.json()) as Answer & { error?: string };
    // A search that reads the database at all reads the vocabulary first when none is in memory, and never when it is.
    const reads = this.vocabularyReads - before;
    if (this.memory === 'in memory') expect(reads, 'a search read the vocabulary it had in memory').toBe(0);
    else if (res.status === 200 && body.results.length > 0) expect(reads, 'a search without the vocabulary in memory did not read it').toBe(1);
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
    forgetKnownIndexes();
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
