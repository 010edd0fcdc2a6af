/**
 * llms.txt and llms-full.txt as served: written once from the index without the site's origin, as UTF-8 with a slot
 * wherever the origin (or its host) goes, and filled in as each answer is streamed. A file written for one origin
 * serves every origin a request names (a `Host` an outsider varies cannot make the server read the index again), and
 * a download holds no copy of it: the stream hands out views of the one buffer, at the pace the client reads.
 */

/** Where the origin goes (`https://docs.example.com`). NUL: the indexer removes it from every text it stores. */
export const ORIGIN_SLOT = '\u0000';
/** Where the origin's host goes (`docs.example.com`, the file's name when the options give none). */
export const HOST_SLOT = '\u0001';
const SLOTS = /[\u0000\u0001]/;

type Slot = typeof ORIGIN_SLOT | typeof HOST_SLOT;

/** A file: its text as UTF-8, in order, with the slots where they stand. */
export interface Template {
  items: (Uint8Array | Slot)[];
  /** Bytes without the slots filled. */
  size: number;
}

/** Gathers a template's text under a bound in bytes (the caller ends the file with a note when the next part does not fit). */
export class TemplateWriter {
  readonly #encoder = new TextEncoder();
  readonly #template: Template = { items: [], size: 0 };
  #open = '';

  constructor(readonly maxBytes: number) {}

  /** Whether `text` fits under the bound after what is written. */
  fits(text: string): boolean {
    const written = this.#template.size + this.#open.length * 3;
    return written + text.length * 3 <= this.maxBytes || this.#flush() + this.#encoder.encode(text).byteLength <= this.maxBytes;
  }

  /** Adds text (with slots in it). */
  write(text: string): void {
    this.#open += text;
    if (this.#open.length >= 65_536) this.#flush();
  }

  /** The template, once everything is written. */
  finish(): Template {
    this.#flush();
    return this.#template;
  }

  /** Encodes the text gathered so far; returns the bytes written. */
  #flush(): number {
    const t = this.#template;
    const pieces = this.#open.split(SLOTS);
    let at = 0;
    pieces.forEach((piece, i) => {
      if (piece) {
        const bytes = this.#encoder.encode(piece);
        t.items.push(bytes);
        t.size += bytes.byteLength;
      }
      at += piece.length;
      if (i < pieces.length - 1) t.items.push(this.#open[at++] as Slot);
    });
    this.#open = '';
    return t.size;
  }
}

/** The largest piece a stream hands out at once: the client's reading paces the rest. */
const CHUNK = 64 * 1024;

/** The file for `origin`, as a stream of views of the template's buffers with the slots filled in. */
export function templateStream(template: Template, origin: string): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const fill: Record<Slot, Uint8Array> = { [ORIGIN_SLOT]: encoder.encode(origin), [HOST_SLOT]: encoder.encode(origin ? new URL(origin).host : '') };
  let item = 0;
  let offset = 0;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        for (;;) {
          const next = template.items[item];
          if (next === undefined) return controller.close();
          if (typeof next === 'string') {
            item++;
            if (fill[next].byteLength) return controller.enqueue(fill[next]);
            continue;
          }
          if (offset >= next.byteLength) {
            item++;
            offset = 0;
            continue;
          }
          const end = Math.min(next.byteLength, offset + CHUNK);
          controller.enqueue(next.subarray(offset, end));
          offset = end;
          return;
        }
      },
    },
    // One chunk waits at most: the stream is read as fast as the client takes it, no faster.
    { highWaterMark: 1 },
  );
}

/** The file for `origin` as text (what the CLI writes and the tests read). */
export function templateText(template: Template, origin: string): string {
  const decoder = new TextDecoder();
  const host = origin ? new URL(origin).host : '';
  return template.items.map((item) => (item === ORIGIN_SLOT ? origin : item === HOST_SLOT ? host : decoder.decode(item))).join('');
}
