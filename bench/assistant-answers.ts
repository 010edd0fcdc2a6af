/**
 * `npm run bench:answers`: the tRPC set's 40 assistant questions (bench/labeled-queries.ts) asked through the MCP
 * `search` tool with the official client, as an assistant asks them (issue 53, item 6): MRR@10 of the pages the tool
 * returns (paging by `nextOffset` when the token budget left results for the next call), and the size of each answer
 * (its text, what a model reads) in characters, in tokens as the tool estimates them (src/mcp/sized-markdown.ts) and in
 * tokens of a real tokenizer (o200k_base, GPT-4o's, through gpt-tokenizer), at the default budget and at the most.
 */
import { countTokens } from 'gpt-tokenizer';
import { resolveConfig } from '../src/options/config.js';
import { createMcpHandler } from '../src/mcp/index.js';
import { estimateTokens } from '../src/mcp/sized-markdown.js';
import { connect, indexInMemory, serve, textOf } from '../test/mcp/helpers.js';
import { LABELED_SETS, score, setOptions, setQueries, summarize } from './labeled-queries.js';

const set = LABELED_SETS.find((s) => s.name === 'trpc')!;
const config = resolveConfig({ ...setOptions(set), mcp: { name: 'tRPC' } });
const questions = setQueries(set).filter((q) => q.kind === 'assistant');
const db = await indexInMemory(config);
const { server, url } = await serve(createMcpHandler(config, { db, cache: false }));
const client = await connect(url);

interface Answer {
  results: { page: string; markdown?: string; truncated?: true }[];
  nextOffset?: number;
  truncated?: true;
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

console.log(`${questions.length} assistant questions of the tRPC set, through the official MCP client (limit 10)\n`);
console.log('| maxTokens | MRR@10 | success@1 | answer chars p50 / p95 / max | estimated tokens p50 / p95 / max | o200k tokens p50 / p95 / max | estimate ÷ o200k (min–max) | results with a section | cut |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const maxTokens of [3_000, 6_000]) {
  const scores = [];
  const chars: number[] = [];
  const estimated: number[] = [];
  const real: number[] = [];
  const ratios: number[] = [];
  let sections = 0;
  let results = 0;
  let cut = 0;
  for (const q of questions) {
    const urls: string[] = [];
    for (let offset: number | undefined = 0, first = true; offset !== undefined && urls.length < 10; first = false) {
      const reply = await client.callTool({ name: 'search', arguments: { query: q.query, limit: 10 - urls.length, offset, maxTokens } });
      if (reply.isError) throw new Error(`${q.query}: ${textOf(reply)}`);
      const answer = reply.structuredContent as Answer;
      urls.push(...answer.results.map((r) => r.page));
      offset = answer.results.length > 0 ? answer.nextOffset : undefined;
      // The size of the first answer: what one call puts in the model's context.
      if (!first) continue;
      const text = textOf(reply);
      chars.push(text.length);
      estimated.push(estimateTokens(text));
      real.push(countTokens(text));
      ratios.push(estimateTokens(text) / countTokens(text));
      results += answer.results.length;
      sections += answer.results.filter((r) => r.markdown).length;
      if (answer.truncated) cut++;
    }
    scores.push(score(urls, q.targets));
  }
  const s = summarize(scores);
  const three = (xs: number[]) => `${pct(xs, 50)} / ${pct(xs, 95)} / ${Math.max(...xs)}`;
  console.log(
    `| ${maxTokens.toLocaleString('en-US')} | ${s.mrr10.toFixed(3)} | ${(s.success1 * 100).toFixed(1)}% | ${three(chars)} | ${three(estimated)} | ${three(real)} | ` +
      `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)} | ${sections} of ${results} | ${cut} of ${questions.length} |`,
  );
}
await client.close();
server.close();
db.close();
