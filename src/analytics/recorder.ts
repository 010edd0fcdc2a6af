import type { SearchDatabase } from '../db/types.js';
import type { AnalyticsOptions } from '../options/options.js';
import { Aggregator } from './aggregate.js';
import { clickPoint, searchPoint, type AnalyticsEngineDataset } from './engine-store.js';
import { utcDay, type ClickEvent, type SearchEvent } from './events.js';
import { flushOnExit } from './flush-on-exit.js';
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
  /** The database the pending counts go to, for a write when the process stops. */
  #lastDb: SearchDatabase | undefined;
  #hasWritten = false;
  /**
   * The write in flight. One at a time: a burst of searches never queues more writes than the database takes (D1
   * refuses a batch when its queue is too deep, and the counts it held were lost), and a flush waits for it, so "flush
   * and then read" sees every count.
   */
  #writing: Promise<void> | undefined;

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

  /**
   * Writes what is pending now, after the write in flight (if any), then whatever came in meanwhile and is due.
   * Never rejects.
   */
  async flush(db: SearchDatabase): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    while (this.#writing) await this.#writing;
    if (!this.#pending.size) return;
    this.#hasWritten = true;
    do await this.#write(db);
    while (this.#due());
  }

  #write(db: SearchDatabase): Promise<void> {
    const batch = this.#pending.take();
    let store = this.#stores.get(db);
    if (!store) this.#stores.set(db, (store = new SqlAnalyticsStore(db, { cap: this.options.dailyQueryCap, retentionDays: this.options.retentionDays })));
    const written = store
      .write(batch, this.today())
      .catch((e: unknown) => this.failed(e))
      .then(() => {
        this.#writing = undefined;
      });
    this.#writing = written;
    return written;
  }

  /** Whether what waits should be written now: enough rows, or the oldest is `flushSeconds` old. */
  #due(): boolean {
    return this.#pending.size > 0 && (this.#pending.size >= FLUSH_ROWS || this.now() - this.#firstPendingAt >= this.options.flushSeconds * 1000);
  }

  /** The age of a batch is that of its oldest event. */
  #startClock(): void {
    if (!this.#pending.size) this.#firstPendingAt = this.now();
  }

  /** Writes what is pending to the database it was recorded for (when the process stops). */
  flushPending(): Promise<void> {
    return this.#lastDb ? this.flush(this.#lastDb) : Promise.resolve();
  }

  #schedule(db: SearchDatabase, ctx?: WaitUntil | null): void {
    const waitMs = this.options.flushSeconds * 1000;
    const background = ctx && typeof ctx.waitUntil === 'function';
    // The first count of a process (Node) or isolate (Workers, in waitUntil) is written at once: a new setup shows in
    // `stats`, and a store that cannot be written is reported, at the first search, not `flushSeconds` later. On D1
    // that is one batch more per isolate (issue 55, item 6: a Worker's report stayed empty for five minutes).
    const first = !this.#hasWritten;
    if (!background) {
      if (!this.#lastDb) flushOnExit(this);
      this.#lastDb = db;
    }
    if (first || this.#due()) {
      // A write in flight takes what is due when it ends, inside the same promise (so within its request's waitUntil).
      if (this.#writing) return;
      const flushed = this.flush(db);
      if (background) ctx.waitUntil(flushed);
      return;
    }
    // Without a background hook (Node), a timer flushes the rest; on Workers the next request past the deadline does.
    if (!background && !this.#timer) {
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
    if (this.failures++ !== 0) return;
    // The usual cause on Node: no analytics database given, so the index is written to, and it is opened read-only.
    if (/readonly|read-only/i.test(String((e as Error)?.message))) {
      console.warn(
        '[site-search] analytics: true records nothing here: the index is opened read-only. Pass { analytics: () => openAnalytics(options) } ' +
          'from site-search/node to the handler (docs/analytics.md).',
      );
    } else console.error('[site-search] analytics write failed; the events it held are not counted (further failures are counted, not logged).', e);
  }
}
