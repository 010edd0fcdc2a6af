/**
 * The docs' links hold (issue 55, item 4: decisions.md and benchmarks.md were rewritten as references): every relative
 * link in the README and docs/ names a file of the repository, and its `#anchor`, if any, a heading of that file as
 * GitHub (and every docs generator using github-slugger) makes its id; and every place in the code, tests, benchmarks
 * and docs that cites a section by name (`docs/decisions.md, "Statements off the event loop"`) names a heading that
 * page has.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import GithubSlugger from 'github-slugger';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const read = (file: string) => readFileSync(join(root, file), 'utf8');
/** Markdown without its code (fenced blocks and inline spans), where link-like text is code, not a link. */
const prose = (text: string) => text.replace(/^ *```[\s\S]*?^ *```$/gm, '').replace(/`[^`\n]*`/g, '');
/** The headings of a page, from its text without fenced blocks (a heading's inline code is kept, as its text). */
const headingLines = (text: string) => [...text.replace(/^ *```[\s\S]*?^ *```$/gm, '').matchAll(/^#{1,6} +(.+?) *#*$/gm)].map((m) => m[1]!.replace(/`/g, ''));

/** The pages users read: the README and docs/, frameworks included. */
const PAGES = ['README.md', ...readdirSync(join(root, 'docs'), { recursive: true }).map((f) => `docs/${f}`).filter((f) => f.endsWith('.md'))];

/** Each heading's id on a page, as github-slugger makes them (repeats get -1, -2…). */
function anchors(file: string): Set<string> {
  const slugger = new GithubSlugger();
  return new Set(headingLines(read(file)).map((heading) => slugger.slug(heading)));
}

/** Each heading's text on a page, code marks removed. */
const headings = (file: string) => headingLines(read(file));

/** Files of the repository a citation can be in: source, tests, benchmarks, scripts, docs (not fixtures, not apps). */
function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return ['node_modules', 'fixtures', 'apps', 'results', 'artifacts', 'dist'].includes(entry.name) || entry.name.startsWith('.') ? [] : sources(path);
    return /\.(ts|mjs|md|sh)$/.test(entry.name) ? [path] : [];
  });
}

describe('links in the README and docs/', () => {
  it.each(PAGES)('%s: every relative link names a file, and every #anchor a heading of it', (page) => {
    const broken: string[] = [];
    for (const [, target] of prose(read(page)).matchAll(/\]\((?!https?:|mailto:)([^)\s]+)\)/g)) {
      const [path, anchor] = target!.split('#') as [string, string | undefined];
      const file = path ? relative(root, join(dirname(join(root, page)), decodeURIComponent(path))) : page;
      if (!existsSync(join(root, file))) broken.push(`${target}: no file ${file}`);
      else if (anchor && file.endsWith('.md') && !anchors(file).has(anchor)) broken.push(`${target}: no heading #${anchor} in ${file}`);
      else if (anchor && !file.endsWith('.md') && statSync(join(root, file)).isDirectory()) broken.push(`${target}: a folder has no anchors`);
    }
    expect(broken).toEqual([]);
  });
});

describe('sections cited by name', () => {
  it('every `decisions.md, "…"` and `benchmarks.md, "…"` in the code, tests, benchmarks and docs names a heading of that page', () => {
    const cited: string[] = [];
    const missing: string[] = [];
    const self = relative(root, fileURLToPath(import.meta.url));
    for (const file of [...sources('src'), ...sources('adapters'), ...sources('test'), ...sources('bench'), ...sources('scripts'), ...PAGES].filter((f) => f !== self)) {
      const text = read(file).replace(/\s*\n\s*(?:\*|\/\/|#)?\s*/g, ' ');
      for (const [, page, name] of text.matchAll(/\b(decisions|benchmarks)\.md,? ["“]([^"”]+)["”]/g)) {
        // An ellipsis is a placeholder for any name (a description of this test), not a citation.
        if (name === '…') continue;
        cited.push(`${file}: ${page}.md, "${name}"`);
        if (!headings(`docs/${page}.md`).some((heading) => heading.startsWith(name!))) missing.push(`${file}: ${page}.md has no section "${name}"`);
      }
    }
    expect(cited.length).toBeGreaterThan(5);
    expect(missing).toEqual([]);
  });
});

describe('docs/decisions.md is a reference', () => {
  it('every decision says what, why, its price and the test that holds it, and every test file it names exists', () => {
    const decisions = read('docs/decisions.md').split(/^### /m).slice(1);
    expect(decisions.length).toBeGreaterThan(50);
    const problems: string[] = [];
    for (const decision of decisions) {
      const title = decision.slice(0, decision.indexOf('\n'));
      const parts = [...decision.matchAll(/^- \*\*(What|Why|Price|Test):\*\*/gm)].map((m) => m[1]);
      if (parts.join() !== 'What,Why,Price,Test') problems.push(`${title}: ${parts.join(', ') || 'no parts'}`);
      const test = decision.slice(decision.indexOf('- **Test:**')).split(/\n\s*\n/)[0]!;
      for (const [, file] of test.matchAll(/`([a-z0-9-]+\/[a-z0-9./-]+\.(?:test\.)?ts)\b/g)) {
        if (!existsSync(join(root, 'test', file!))) problems.push(`${title}: no test/${file}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
