import type { SearchDatabase } from '../db/types.js';
import type { AnalyticsOptions } from '../options/options.js';
import { Aggregator } from './aggregate.js';
import { clickPoint, searchPoint, type AnalyticsEngineDataset } from './engine-store.js';
import { utcDay, type ClickEvent, type SearchEvent } from './events.js';
import { SqlAnalyticsStore } from './sql-store.js';

/** Where a request's events go: a Workers Analytics Engine dataset, else a database. */
export type AnalyticsTarget = { engine: AnalyticsEngineDataset } | { db: SearchDatabase };

interface WaitUntil {
  waitUntil(promise: Promise<unknown>): void;
}

/** A flush is due once this many rows wait, whatever their age. */
const FLUSH_ROWS = 500;

/**
 * Records searches and clicks without standing in the way of an answer: events are counted in memory, and written in
 * one batch once `flushSeconds` have passed (or enough rows wait), in `ctx.waitUntil` where the platform has it, else
 * off the request (a timer). A failing write never reaches the answer: it is counted in `failures` and logged once.
 */
export class AnalyticsRecorder {
  /** Writes that failed (their counts are lost). */
  failures = 0;
  readonly #pending: Aggregator;
  readonly #stores = new WeakMap<SearchDatabase, SqlAnalyticsStore>();
  #firstPendingAt = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly options: Readonly<AnalyticsOptions>,
    private readonly now: () => number = Date.now,
  ) {
    // Twice the flush threshold: a backstop, since a flush takes the rows as soon as that many wait.
    this.#pending = new Aggregator(FLUSH_ROWS * 2);
  }

  /** The UTC day an event of now is counted under. */
  today(): string {
    return utcDay(this.now());
  }

  search(event: SearchEvent, target: AnalyticsTarget, ctx?: WaitUntil | null): void {
    if ('engine' in target) return this.#toEngine(target.engine, searchPoint(event));
    this.#startClock();
    this.#pending.addSearch(event);
    this.#schedule(target.db, ctx);
  }

  click(event: ClickEvent, target: AnalyticsTarget, ctx?: WaitUntil | null): void {
    if ('engine' in target) return this.#toEngine(target.engine, clickPoint(event));
    this.#startClock();
    this.#pending.addClick(event);
    this.#schedule(target.db, ctx);
  }

  /** Writes what is pending now. Never rejects. */
  async flush(db: SearchDatabase): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (!this.#pending.size) return;
    const batch = this.#pending.take();
    let store = this.#stores.get(db);
    if (!store) this.#stores.set(db, (store = new SqlAnalyticsStore(db, { cap: this.options.dailyQueryCap, retentionDays: this.options.retentionDays })));
    try {
      await store.write(batch, this.today());
    } catch (e) {
      this.failed(e);
    }
  }

  /** The age of a batch is that of its oldest event. */
  #startClock(): void {
    if (!this.#pending.size) this.#firstPendingAt = this.now();
  }

  #schedule(db: SearchDatabase, ctx?: WaitUntil | null): void {
    const waitMs = this.options.flushSeconds * 1000;
    if (this.now() - this.#firstPendingAt >= waitMs || this.#pending.size >= FLUSH_ROWS) {
      const flushed = this.flush(db);
      if (ctx && typeof ctx.waitUntil === 'function') ctx.waitUntil(flushed);
      return;
    }
    // Without a background hook (Node), a timer flushes the rest; on Workers the next request past the deadline does.
    if (!ctx && !this.#timer) {
      this.#timer = setTimeout(() => void this.flush(db), waitMs);
      (this.#timer as { unref?: () => void }).unref?.();
    }
  }

  #toEngine(dataset: AnalyticsEngineDataset, point: ReturnType<typeof searchPoint>): void {
    try {
      dataset.writeDataPoint(point);
    } catch (e) {
      this.failed(e);
    }
  }

  /** Counts a failed write (its events are lost); only the first is logged, so a broken store cannot flood the log. */
  failed(e: unknown): void {
    if (this.failures++ === 0) {
      // The usual cause on Node: analytics pointed at the index, which is opened read-only.
      const hint = /readonly|read-only/i.test(String((e as Error)?.message)) ? ' Pass { analytics: () => openAnalytics(options) } from site-search/node to the handler (docs/analytics.md).' : '';
      console.error(`[site-search] analytics write failed; the events it held are not counted (further failures are counted, not logged).${hint}`, e);
    }
  }
}
