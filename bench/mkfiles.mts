import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { corpusOptions } from './labeled-queries.js';
import { writeCorpusFiles } from './corpus.js';
const [n, dir] = [Number(process.argv[2]), process.argv[3]!];
rmSync(dir, { recursive: true, force: true });
console.log(await writeCorpusFiles(dir, n));
const langs = [...new Set(corpusOptions().sources.map((s) => s.type))];
writeFileSync(join(dir, 'search.config.json'), JSON.stringify({ database: 'bench', sources: langs.map((l) => ({ dir: l, type: l, url: `/${l}/:slug` })) }));
