/**
 * Benchmark corpora: the 1,831 real astro-docs pages, and larger corpora generated from them (deterministic seed):
 * copies with varied titles, dates and paths, so term statistics stay those of real documentation.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { resolveConfig, type ResolvedConfig } from '../src/index.js';
import { buildIndex, type IndexDocument } from '../src/indexer/index.js';
import { collectDocuments } from '../src/indexer/collect.js';
import { removeWordBreaks } from '../src/text/segment.js';
import { corpusOptions } from './labeled-queries.js';

function unquote(value: string): string {
  const v = value.trim();
  if (v.startsWith('"') && v.endsWith('"')) return JSON.parse(v) as string;
  if (v.startsWith("'") && v.endsWith("'")) return v.slice(1, -1).replace(/''/g, "'");
  return v;
}

/** A document as peers get it: without site-search's invisible word breaks (our indexing technique, not content). */
export function withoutWordBreaks(d: IndexDocument): IndexDocument {
  const clear = removeWordBreaks;
  return { ...d, title: clear(d.title), description: clear(d.description), tags: clear(d.tags), content: clear(d.content) };
}

/** A small deterministic PRNG (mulberry32), so every run generates the same corpus. */
export function random(seed: number): () => number {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VARIANTS = ['Guide', 'Reference', 'Recipe', 'Tutorial', 'Overview', 'Notes', 'FAQ', 'Changelog', 'Deep dive', 'Cookbook'];

export const baseConfig: ResolvedConfig = resolveConfig(corpusOptions());

let base: IndexDocument[] | undefined;
/** The real pages, as the indexer builds them. */
export async function baseDocuments(): Promise<IndexDocument[]> {
  base ??= (await buildIndex(baseConfig)).documents;
  return base;
}

/** `n` documents: the real pages, then generated copies with varied titles, dates and paths. */
export async function documents(n: number, seed = 42): Promise<IndexDocument[]> {
  const real = await baseDocuments();
  const rand = random(seed);
  const out: IndexDocument[] = [];
  for (let i = 0; i < n; i++) {
    const d = real[i % real.length]!;
    if (i < real.length) {
      out.push(d);
      continue;
    }
    const variant = VARIANTS[Math.floor(rand() * VARIANTS.length)]!;
    const day = new Date(Date.UTC(2019, 0, 1) + Math.floor(rand() * 2900) * 86_400_000).toISOString().slice(0, 10);
    out.push({ ...d, title: `${d.title} — ${variant} ${i}`, url: `${d.url}-${i}`, date: rand() < 0.3 ? '' : day });
  }
  return out;
}

/**
 * Writes `n` Markdown files under `dir` (the real pages' sources, copied with new titles, dates and paths) for the
 * files → index benchmark. Returns the total bytes written.
 */
export async function writeCorpusFiles(dir: string, n: number, seed = 7): Promise<number> {
  const files = await collectDocuments(baseConfig);
  const sources = files.map((f) => ({ rel: join(f.source.type, f.relativePath), text: readFileSync(f.path, 'utf8') }));
  const rand = random(seed);
  let bytes = 0;
  for (let i = 0; i < n; i++) {
    const src = sources[i % sources.length]!;
    const copy = Math.floor(i / sources.length);
    const path = join(dir, copy === 0 ? src.rel : src.rel.replace(/(\.mdx?)$/, `-${copy}$1`));
    const day = new Date(Date.UTC(2019, 0, 1) + Math.floor(rand() * 2900) * 86_400_000).toISOString().slice(0, 10);
    // Titles are rewritten as JSON strings (valid YAML whatever they contain: colons, quotes).
    const text =
      copy === 0
        ? src.text
        : src.text
            .replace(/^---\n/, `---\ndate: ${day}\n`)
            .replace(/^title: (.*)$/m, (_, title: string) => `title: ${JSON.stringify(`${unquote(title)} (${copy})`)}`);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    bytes += Buffer.byteLength(text);
  }
  return bytes;
}
