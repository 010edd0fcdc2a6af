import { describe, expect, it } from 'vitest';
import { resolveConfig, type SearchOptions } from '../../src/index.js';
import { parseDocument, type ParsedFile } from '../../src/indexer/document.js';
import { pathToSlug } from '../../src/indexer/slug.js';
import { cutOnWord } from '../../src/indexer/document.js';

const options: SearchOptions = {
  database: 'd',
  site: 'blog',
  maxContentLength: 60,
  sources: [{ dir: 'content', type: 'post', url: '/blog/:slug/', emoji: '📝' }],
};
const config = resolveConfig(options);
const parse = (raw: string, relativePath = 'hello-world.md'): ParsedFile =>
  parseDocument({ path: `/site/content/${relativePath}`, relativePath, source: config.sources[0]! }, raw, config);
const doc = (raw: string, relativePath?: string) => {
  const parsed = parse(raw, relativePath);
  if (parsed.status !== 'indexed') throw new Error(`skipped: ${parsed.reason}`);
  return parsed.document;
};

describe('title', () => {
  it('comes from frontmatter, else the first # heading, else the file name', () => {
    expect(doc('---\ntitle: Front\n---\n# Heading').title).toBe('Front');
    expect(doc('Intro\n\n## Sub\n\n# Heading *one*\n').title).toBe('Heading one');
    expect(doc('no heading', 'getting-started.md').title).toBe('Getting started');
    expect(doc('no heading', 'guides/routing/index.md').title).toBe('Routing');
    expect(doc('no heading', 'index.md').title).toBe('Index');
  });
});

describe('description', () => {
  it('falls back to subtitle, summary, excerpt', () => {
    expect(doc('---\ndescription: D\nsummary: S\n---\n').description).toBe('D');
    expect(doc('---\nsubtitle: Sub\nsummary: S\n---\n').description).toBe('Sub');
    expect(doc('---\nsummary: S\nexcerpt: E\n---\n').description).toBe('S');
    expect(doc('---\nexcerpt: E\n---\n').description).toBe('E');
    expect(doc('body only').description).toBe('');
  });
});

describe('tags, dates and emoji', () => {
  it('stores tags space-separated from an array or a string', () => {
    expect(doc('---\ntags: [astro, search, d1]\n---\n').tags).toBe('astro search d1');
    expect(doc('---\ntags: astro, search\n---\n').tags).toBe('astro search');
  });

  // Issue 44, item 2: a tag is a value the `tags=` filter selects exactly as its chip shows it.
  it('leaves out a list item holding a comma or a space, with a warning naming the file; a string is split as a list', () => {
    const parsed = parse('---\ntags: ["tag,with,commas", "two words", kept]\n---\n', 'guides/tagged.md');
    expect(parsed.status).toBe('indexed');
    if (parsed.status !== 'indexed') return;
    expect(parsed.document.tags).toBe('kept');
    expect(parsed.warnings.map((w) => [w.file, w.message])).toEqual([
      ['/site/content/guides/tagged.md', 'frontmatter tags: "tag,with,commas" holds a comma or a space, which the tags filter splits at; left out (write it as one word, e.g. "tag-with-commas")'],
      ['/site/content/guides/tagged.md', 'frontmatter tags: "two words" holds a comma or a space, which the tags filter splits at; left out (write it as one word, e.g. "two-words")'],
    ]);
    // A string was always a list: split at commas and spaces, each word a tag, no warning.
    const listed = parse('---\ntags: "astro, two words"\n---\n');
    expect(listed.status === 'indexed' && [listed.document.tags, listed.warnings]).toEqual(['astro two words', []]);
  });

  it('stores every tag in NFC, without invisible or text-direction characters, with a warning', () => {
    const nfd = 'cafe\u0301';
    const parsed = parse(`---\ntags: ["${nfd}", "zero\\u200bwidth", "\\u202edesrever", "\\u2066iso\\u2069", "\\u200e\\u200f", "caf\u00e9"]\n---\n`);
    if (parsed.status !== 'indexed') throw new Error('skipped');
    // The two cafés are one tag; the marks-only tag is nothing and is dropped.
    expect(parsed.document.tags).toBe('caf\u00e9 zerowidth desrever iso');
    expect(parsed.warnings.map((w) => w.message)).toEqual([
      'frontmatter tags: "zero\\u{200b}width" holds invisible or text-direction characters; they are removed',
      'frontmatter tags: "\\u{202e}desrever" holds invisible or text-direction characters; they are removed',
      'frontmatter tags: "\\u{2066}iso\\u{2069}" holds invisible or text-direction characters; they are removed',
      'frontmatter tags: "\\u{200e}\\u{200f}" holds invisible or text-direction characters; they are removed',
    ]);
  });

  // Repeat attack (issue 44, rows 2 and 3): blanks that are not format characters, and a tag longer than the filter takes.
  it('removes the blanks and marks that show nothing (braille blank, variation selectors, Khmer inherent vowels) from tags', () => {
    const parsed = parse(`---\ntags: ["caf\u00e9\u2800", "\u2800", "caf\u00e9\ufe0f", "ca\u17b5f\u00e9", "caf\u00e9\udb40\udd00", "\u17b4"]\n---\n`);
    if (parsed.status !== 'indexed') throw new Error('skipped');
    // Five chips that looked like "café" or like nothing are one café.
    expect(parsed.document.tags).toBe('caf\u00e9');
    expect(parsed.warnings.map((w) => w.message)).toHaveLength(6);
    for (const w of parsed.warnings) expect(w.message).toMatch(/holds invisible or text-direction characters; they are removed$/);
  });

  it('leaves out a tag longer than the tags filter accepts (100 characters), with a warning naming it', () => {
    const long = 'l'.repeat(101);
    const parsed = parse(`---\ntags: ["${long}", "${'k'.repeat(100)}", "short"]\n---\n`);
    if (parsed.status !== 'indexed') throw new Error('skipped');
    expect(parsed.document.tags).toBe(`${'k'.repeat(100)} short`);
    expect(parsed.warnings.map((w) => w.message)).toEqual([`frontmatter tags: "${long}" is over 100 characters, more than the tags filter accepts; left out (shorten it)`]);
  });

  it('takes the date from date, pubDate, publishDate, published, updated or modified as YYYY-MM-DD', () => {
    expect(doc('---\ndate: 2024-03-05\n---\n').date).toBe('2024-03-05');
    expect(doc('---\npubDate: 2024-03-05T23:10:00Z\n---\n').date).toBe('2024-03-05');
    expect(doc("---\npublishDate: 'March 5, 2024 12:00 UTC'\n---\n").date).toBe('2024-03-05');
    expect(doc('---\npublished: 2023-01-02\n---\n').date).toBe('2023-01-02');
    expect(doc('---\nupdated: 2022-12-31\n---\n').date).toBe('2022-12-31');
    expect(doc('---\nmodified: 2021-06-01\n---\n').date).toBe('2021-06-01');
    expect(doc('no date').date).toBe('');
  });

  it('warns about an invalid date and indexes the document undated', () => {
    const parsed = parse('---\ndate: next tuesday\n---\nbody');
    expect(parsed.status).toBe('indexed');
    expect(parsed.status === 'indexed' && parsed.document.date).toBe('');
    expect(parsed.warnings[0]!.message).toMatch(/frontmatter date: "next tuesday" is not a date/);
  });

  it('rejects impossible days and bare numbers instead of rolling them over', () => {
    for (const value of ["'2024-02-30'", "'2024-13-45'", '2024', '1700000000']) {
      const parsed = parse(`---\ndate: ${value}\n---\n`);
      expect(parsed.status === 'indexed' && parsed.document.date, value).toBe('');
      expect(parsed.warnings).toHaveLength(1);
    }
  });

  it('falls back to the next date key when one is invalid', () => {
    const parsed = parse('---\ndate: soon\nupdated: 2024-06-01\n---\n');
    expect(parsed.status === 'indexed' && parsed.document.date).toBe('2024-06-01');
    expect(parsed.warnings.map((w) => w.message)).toEqual([expect.stringMatching(/^frontmatter date: "soon"/)]);
  });

  it('keeps the written day whatever the time zone of the indexing machine', () => {
    const zone = process.env.TZ;
    try {
      for (const tz of ['Asia/Tokyo', 'America/Los_Angeles', 'UTC']) {
        process.env.TZ = tz;
        expect(doc("---\ndate: 'January 5, 2024'\n---\n").date, tz).toBe('2024-01-05');
        expect(doc("---\ndate: '2024-01-05T23:30:00-08:00'\n---\n").date, tz).toBe('2024-01-05');
        expect(doc('---\ndate: 2024-01-05\n---\n').date, tz).toBe('2024-01-05');
      }
    } finally {
      process.env.TZ = zone;
    }
  });

  it('takes the emoji from frontmatter, else the source, else none', () => {
    expect(doc('---\nemoji: 🚀\n---\n').emoji).toBe('🚀');
    expect(doc('body').emoji).toBe('📝');
  });

  it('takes the page weight from search.boost (0.1 to 10), warning and ranking as 1 otherwise', () => {
    expect(doc('---\nsearch:\n  boost: 2.5\n---\n').boost).toBe('2.5');
    expect(doc('---\nsearch:\n  boost: 1\n---\n').boost).toBe('');
    expect(doc('body').boost).toBe('');
    for (const bad of ['0', '11', '"2"', '[1, 2]']) {
      const parsed = parse(`---\nsearch:\n  boost: ${bad}\n---\n`);
      expect(parsed.status === 'indexed' && parsed.document.boost).toBe('');
      expect(parsed.warnings.map((w) => w.message)).toEqual([expect.stringMatching(/^frontmatter search\.boost: .* is not a number from 0\.1 to 10/)]);
    }
  });
});

describe('skipping', () => {
  it('skips drafts and search: false', () => {
    expect(parse('---\ndraft: true\n---\n')).toMatchObject({ status: 'skipped', reason: 'draft' });
    expect(parse('---\nsearch: false\n---\n')).toMatchObject({ status: 'skipped', reason: 'search-false' });
    // Starlight's frontmatter for a page kept out of its search.
    expect(parse('---\npagefind: false\n---\n')).toMatchObject({ status: 'skipped', reason: 'search-false' });
    expect(parse('---\npagefind: true\n---\n').status).toBe('indexed');
    expect(parse('---\ndraft: false\n---\n').status).toBe('indexed');
  });

  // Repeat attack (issue 44, row 11): a careless author's frontmatter that is not valid YAML as a whole dropped every
  // field, `search: false` and `draft: true` with it, and the page the author meant to hide was indexed.
  it('reads draft, search and pagefind from their own lines when the rest of the frontmatter is not YAML', () => {
    for (const raw of [
      '---\ntitle: Secret: internal notes\nsearch: false\n---\nSecret plans.',
      '---\ntitle: "unclosed\ndraft: true\n---\nSecret plans.',
      '---\nsearch: false\nsearch: false\n---\nSecret plans.',
      '---\ntitle: Secret: internal notes\npagefind: "false"\n---\nSecret plans.',
    ]) {
      const parsed = parse(raw);
      expect(parsed.status, raw).toBe('skipped');
      expect(parsed.warnings[0]!.message).toMatch(/^invalid YAML frontmatter \(.*\); read entry by entry: (title, )?(draft|search|pagefind) \(fix the YAML: the site's build may refuse it\)$/);
    }
    const shown = parse('---\ntitle: Secret: internal notes\nsearch: true\n---\nPublic plans.');
    expect(shown.status).toBe('indexed');
    // Issue 54, item 8: the line YAML refuses is the author's title, as written.
    expect(shown.status === 'indexed' && shown.document.title).toBe('Secret: internal notes');
    expect(parse('---\n: nothing\n  - x\n---\nPublic.').warnings[0]!.message).toMatch(/; indexed without it$/);
  });

  // Issue 54, item 8 (round 4's row 10, still open then): `Draft: true`, `Search: false`, a `---yaml` fence and an
  // indented `draft:` in invalid YAML were all published.
  it('reads the keys it knows in any case, the spelling the frameworks read first, and names each in a warning', () => {
    const messages = (parsed: ParsedFile) => parsed.warnings.map((w) => w.message);
    const draft = parse('---\nDraft: true\n---\nUnfinished.');
    expect(draft).toMatchObject({ status: 'skipped', reason: 'draft' });
    expect(messages(draft)).toEqual(['frontmatter Draft: read as draft (write draft: Astro, Starlight and most frameworks read only that spelling, so the site may not)']);
    for (const raw of ['---\nSearch: false\n---\nx', '---\nPAGEFIND: false\n---\nx', '---\nSEARCH: "no"\n---\nx']) {
      expect(parse(raw), raw).toMatchObject({ status: 'skipped', reason: 'search-false' });
    }
    const titled = parse('---\nTitle: Capital title\nDescription: Capital words\nPubdate: 2024-05-06\nTags: [a, b]\n---\nx');
    expect(titled.status === 'indexed' && titled.document).toMatchObject({ title: 'Capital title', description: 'Capital words', date: '2024-05-06', tags: 'a b' });
    expect(messages(titled)).toEqual(['Title', 'Description', 'Tags', 'Pubdate'].map((k) => expect.stringMatching(new RegExp(`^frontmatter ${k}: read as ${k.toLowerCase() === 'pubdate' ? 'pubDate' : k.toLowerCase()} \\(write `))));
    // Both spellings: the frameworks' one is read, the other named.
    const both = parse('---\ntitle: Lower\nTitle: Upper\ndraft: false\nDraft: true\n---\nx');
    expect(both.status === 'indexed' && both.document.title).toBe('Lower');
    expect(messages(both)).toEqual(['frontmatter Title: ignored, title is read (keys are read as the frameworks spell them)', 'frontmatter Draft: ignored, draft is read (keys are read as the frameworks spell them)']);
  });

  it('reads a fence that names its language (---yaml, ---toml, ---json) as gray-matter does, with a warning; never runs ---js', () => {
    const yaml = parse('---yaml\ntitle: Named fence\ndraft: true\n---\nSecret.');
    expect(yaml).toMatchObject({ status: 'skipped', reason: 'draft' });
    expect(yaml.warnings.map((w) => w.message)).toEqual([
      'frontmatter opened with "---yaml": read as YAML, as gray-matter reads it; Astro, Starlight and Next.js read only a bare "---" (write "---"), so the site may show it as text',
    ]);
    expect(parse('--- yaml\nsearch: false\n---\nSecret.')).toMatchObject({ status: 'skipped', reason: 'search-false' });
    expect(doc('---toml\ntitle = "TOML fence"\n---\nx')).toMatchObject({ title: 'TOML fence', content: 'x' });
    expect(doc('---json\n{ "title": "JSON fence", "tags": ["j"] }\n---\nx')).toMatchObject({ title: 'JSON fence', tags: 'j', content: 'x' });
    const js = parse('---js\nmodule.exports = { title: globalThis.ran = "ran" };\ndraft: true\n---\nx');
    expect((globalThis as { ran?: string }).ran).toBeUndefined();
    expect(js).toMatchObject({ status: 'skipped', reason: 'draft' });
    expect(js.warnings[0]!.message).toBe('frontmatter opened with "---js" is not read (only YAML, TOML and JSON are, and code is never run); its own draft, search and pagefind lines are');
    const jsPublic = parse('---js\nmodule.exports = {};\n---\nPublic text.');
    expect(jsPublic.status === 'indexed' && jsPublic.document.content).toBe('Public text.');
  });

  it('in invalid YAML, a draft, search or pagefind line keeps the page out at any depth and in any case', () => {
    for (const raw of [
      '---\ntitle: Secret: notes\n  draft: true\n---\nSecret plans.',
      '---\ntitle: "unclosed\n    Search: false\n---\nSecret plans.',
      '---\nsidebar:\n  order: [1\n  pagefind: no\n---\nSecret plans.',
    ]) {
      const parsed = parse(raw);
      expect(parsed.status, raw).toBe('skipped');
      expect(parsed.warnings[0]!.message, raw).toMatch(/^invalid YAML frontmatter \(.*\); read entry by entry: .*(draft|Search|pagefind)/);
    }
    // A line that says the page stays in does not count against one that keeps it out.
    expect(parse('---\ntitle: a: b\ndraft: false\n  draft: true\n---\nx').status).toBe('skipped');
    expect(parse('---\ntitle: a: b\ndraft: false\n---\nx').status).toBe('indexed');
  });

  // Issue 44, item 6: YAML users write `search: "false"` or `search: no` (a string to the YAML 1.2 parser) and mean false.
  it('reads a string "false" (or no, off) in search: or pagefind: as false, with a warning naming the field', () => {
    const messages = (parsed: ParsedFile) => parsed.warnings.map((w) => w.message);
    for (const [field, value] of [['search', '"false"'], ['pagefind', '"false"'], ['search', 'no'], ['pagefind', "'Off'"], ['search', "' FALSE '"]]) {
      const parsed = parse(`---\n${field}: ${value}\n---\nSecret plans.`);
      expect(parsed, `${field}: ${value}`).toMatchObject({ status: 'skipped', reason: 'search-false' });
      expect(messages(parsed)).toEqual([expect.stringMatching(new RegExp(`^frontmatter ${field}: ".*" is a string, read as false: the page is not indexed \\(write ${field}: false, without quotes\\)$`))]);
      expect(parsed.warnings[0]!.file).toBe('/site/content/hello-world.md');
    }
    const yes = parse('---\npagefind: "true"\n---\nx');
    expect(yes.status).toBe('indexed');
    expect(messages(yes)).toEqual(['frontmatter pagefind: "true" is a string, read as true: the page is indexed (write pagefind: true, without quotes)']);
    for (const value of ['"hidden"', '0', '[false]']) {
      const parsed = parse(`---\nsearch: ${value}\n---\nx`);
      expect(parsed.status, value).toBe('indexed');
      expect(messages(parsed)).toEqual([expect.stringMatching(/^frontmatter search: .* is not false or \{ boost: 2 \}; ignored, the page is indexed \(write search: false to keep it out of search\)$/)]);
    }
    // Booleans, absence and an empty value stay silent.
    for (const quiet of ['search: true', 'pagefind: true', 'search:', 'search:\n  boost: 2']) expect(messages(parse(`---\n${quiet}\n---\nx`)), quiet).toEqual([]);
  });

  it('reads draft: "true" (or yes, on) as true, with a warning; another value warns and indexes', () => {
    const quoted = parse('---\ndraft: "true"\n---\nUnfinished.');
    expect(quoted).toMatchObject({ status: 'skipped', reason: 'draft' });
    expect(quoted.warnings.map((w) => w.message)).toEqual(['frontmatter draft: "true" is a string, read as true: the page is not indexed (write draft: true, without quotes)']);
    expect(parse('---\ndraft: yes\n---\nx')).toMatchObject({ status: 'skipped', reason: 'draft' });
    const no = parse('---\ndraft: "false"\n---\nx');
    expect(no.status).toBe('indexed');
    expect(no.warnings.map((w) => w.message)).toEqual(['frontmatter draft: "false" is a string, read as false: the page is indexed (write draft: false, without quotes)']);
    const odd = parse('---\ndraft: 1\n---\nx');
    expect(odd.status).toBe('indexed');
    expect(odd.warnings.map((w) => w.message)).toEqual(['frontmatter draft: 1 is not true or false; ignored, the page is indexed (write draft: true to keep it out of search)']);
  });

  it('warns about each unknown key under search:, naming it; boost still applies', () => {
    const parsed = parse('---\nsearch:\n  exclude: true\n  boost: 2\n  hidden: yes\n---\nx');
    expect(parsed.status === 'indexed' && parsed.document.boost).toBe('2');
    expect(parsed.warnings.map((w) => w.message)).toEqual([
      'frontmatter search.exclude: unknown key, ignored (search: takes boost; write search: false to keep the page out of search)',
      'frontmatter search.hidden: unknown key, ignored (search: takes boost; write search: false to keep the page out of search)',
    ]);
  });
});

describe('slug and URL', () => {
  it('slugifies the path under dir like Astro content collections, dropping /index', () => {
    expect(pathToSlug('Guides/Getting Started.mdx')).toBe('guides/getting-started');
    expect(pathToSlug('blog/index.md')).toBe('blog');
    expect(pathToSlug('index.mdx')).toBe('');
    expect(pathToSlug('fr/Café Crème.md')).toBe('fr/café-crème');
    expect(doc('x', 'Guides/Getting Started.mdx').url).toBe('/blog/guides/getting-started/');
    expect(doc('x', 'index.md').url).toBe('/blog/');
  });

  it('lets frontmatter slug override the derived one', () => {
    expect(doc('---\nslug: custom/path\n---\n', 'ignored.md').url).toBe('/blog/custom/path/');
  });

  it('stores site and type on every document', () => {
    expect(doc('x')).toMatchObject({ site: 'blog', type: 'post' });
  });
});

describe('content', () => {
  it('cuts the body at maxContentLength on a word boundary; title, description and tags are never cut', () => {
    const long = 'word '.repeat(40);
    const parsed = parse(`---\ntitle: ${'T'.repeat(100)}\ndescription: ${'D'.repeat(100)}\ntags: ${'x'.repeat(100)}\n---\n${long}`);
    expect(parsed.status === 'indexed' && parsed.truncated).toBe(true);
    const d = parsed.status === 'indexed' ? parsed.document : undefined;
    expect(d!.content.length).toBeLessThanOrEqual(60);
    expect(d!.content).toMatch(/^(word )*word$/);
    expect(d!.title).toHaveLength(100);
    expect(d!.description).toHaveLength(100);
    expect(d!.tags).toHaveLength(100);
  });

  it('keeps every word of a long page searchable: the text past the body as written, then each word not yet kept, once', () => {
    // Each part is ~35 characters. With a 20-character body, a page keeps 20 more characters as written, then up to
    // 20 characters of the words not yet kept; a word that does not fit is counted in a warning naming the cap.
    const page = '## One\n\nalpha beta gamma delta epsilon\n\n## Two\n\nzeta eta theta iota kappa lambda\n\n## Three\n\nmu nu xi omicron pi rho alpha\n';
    const short = { ...config, maxContentLength: 20 };
    const parsed = parseDocument({ path: '/site/content/p.md', relativePath: 'p.md', source: config.sources[0]! }, page, short);
    expect(parsed.status === 'indexed' && parsed.truncated).toBe(true);
    const d = parsed.status === 'indexed' ? parsed.document : undefined;
    // Its heading ends as a sentence ("One."): the snippet does not run it into the text.
    expect(d!.content).toBe('One. alpha beta');
    expect(d!.more).toBe('gamma delta epsilon Two zeta eta theta');
    expect(parsed.warnings.map((w) => w.message)).toEqual(['10 words past what the index keeps of a page are not searchable (raise maxContentLength to keep them)']);
    // Every section is kept, the last one too.
    expect(d!.sections.map((s) => s.heading)).toEqual(['One', 'Two', 'Three']);
    // With room for them, every word is there, each once ("alpha" again is not).
    const roomy = parseDocument({ path: '/site/content/p.md', relativePath: 'p.md', source: config.sources[0]! }, page, { ...config, maxContentLength: 40 });
    expect(roomy.warnings).toEqual([]);
    const all = roomy.status === 'indexed' ? `${roomy.document.content} ${roomy.document.more}` : '';
    // Words as the tokenizer reads them: a heading's full stop ("Three.") is not part of its word.
    const words = all.split(/[ .]+/);
    for (const word of ['lambda', 'Three', 'mu', 'omicron', 'rho']) expect(words).toContain(word);
    expect(words.filter((w) => w === 'alpha')).toHaveLength(1);
  });

  it('stops reading a page past 25 times maxContentLength, saying so: the rest is not rendered', () => {
    // A cap of 3 × 25 = 75 characters: the third part ends past it, so the fourth, with a broken tag, is never rendered
    // (its warning would come from rendering it).
    const page = '## One\n\nalpha beta gamma delta epsilon\n\n## Two\n\nzeta eta theta iota kappa lambda\n\n## Three\n\nmu nu xi omicron pi rho\n\n## Four\n\n<Broken\n';
    const parsed = parseDocument({ path: '/site/content/p.md', relativePath: 'p.md', source: config.sources[0]! }, page, { ...config, maxContentLength: 3 });
    const messages = parsed.warnings.map((w) => w.message);
    expect(messages).toContain('over 75 characters of text; what follows is not searchable');
    expect(messages.join('\n')).not.toContain('Broken');
    // The same page with a limit that takes it all reads the fourth part, and warns about it.
    const whole = parseDocument({ path: '/site/content/p.md', relativePath: 'p.md', source: config.sources[0]! }, page, { ...config, maxContentLength: 8000 });
    expect(whole.warnings.map((w) => w.message)).toEqual([expect.stringContaining('Broken')]);
    expect(whole.status === 'indexed' && whole.document.more).toBe('');
  });

  it('cuts at the last whitespace of any kind in the second half, as /\\s\\S*$/ finds it', () => {
    const cutByRegex = (text: string, max: number) => {
      const cut = text.slice(0, max + 1);
      const space = cut.search(/\s\S*$/);
      return (space > max / 2 ? cut.slice(0, space) : text.slice(0, max)).trimEnd();
    };
    const texts = ['alpha beta gamma delta', 'alpha\tbeta\u3000gamma\u00a0delta epsilon', 'one two  ', 'x'.repeat(30) + ' tail', 'a b' + 'c'.repeat(40)];
    for (const text of texts) for (let max = 1; max < text.length; max++) expect(cutOnWord(text, max).content, `${JSON.stringify(text)} at ${max}`).toBe(cutByRegex(text, max));
  });

  it('cuts text without spaces (CJK) at the limit without splitting a surrogate pair', () => {
    expect(cutOnWord('漢字'.repeat(50), 10)).toEqual({ content: '漢字'.repeat(5), truncated: true });
    expect(cutOnWord('😀'.repeat(10), 5).content).toBe('😀😀');
  });

  it('removes NUL, control characters, lone surrogates and snippet sentinels', () => {
    const d = doc('a\u0000b \uD800 c\uE000d\uE001 e\u0007f');
    expect(d.content).toBe('ab \uFFFD cd ef');
  });
});

describe('malformed input', () => {
  it('indexes a file with invalid YAML from the entries that parse alone, and warns with the line', () => {
    const parsed = parse('---\ntitle: ok\nbad: [unclosed\n---\n# Real title\nBody text');
    expect(parsed.status).toBe('indexed');
    if (parsed.status !== 'indexed') return;
    expect(parsed.document.title).toBe('ok');
    expect(parsed.warnings[0]!.message).toMatch(/; read entry by entry: title, bad \(fix the YAML/);
    expect(parsed.document.content).toContain('Body text');
    expect(parsed.document.content).not.toContain('unclosed');
    expect(parsed.warnings[0]).toMatchObject({ file: '/site/content/hello-world.md', message: expect.stringMatching(/invalid YAML frontmatter/) });
    expect(parsed.warnings[0]!.line).toBeGreaterThanOrEqual(2);
    const duplicate = parse('---\na: 1\na: 2\n---\nbody');
    expect(duplicate.warnings[0]).toMatchObject({ line: 3 });
  });

  it('reads TOML (+++) frontmatter', () => {
    const d = doc('+++\ntitle = "From TOML"\ntags = ["hugo", "toml"]\ndate = 2024-04-01\n+++\nBody');
    expect(d).toMatchObject({ title: 'From TOML', tags: 'hugo toml', date: '2024-04-01', content: 'Body' });
  });

  it('reports an unclosed code fence at its line in the file (frontmatter lines counted)', () => {
    const parsed = parse('---\ntitle: x\n---\n\nText\n\n```js\nconst a = 1;\n');
    expect(parsed.warnings).toEqual([expect.objectContaining({ line: 7, message: expect.stringMatching(/unclosed code fence/) })]);
    expect(parsed.status === 'indexed' && parsed.document.content).toContain('const a = 1;');
  });
});
