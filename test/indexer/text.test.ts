import { describe, expect, it } from 'vitest';
import { firstHeading, markdownSections, markdownToText, type TextWarning } from '../../src/indexer/text.js';

/** Runs the extractor and returns its text together with every warning it reported. */
function extract(source: string): { text: string; warnings: TextWarning[] } {
  const warnings: TextWarning[] = [];
  const text = markdownToText(source, { onWarning: (w) => warnings.push(w) });
  return { text, warnings };
}

const md = (lines: string[]): string => lines.join('\n');

describe('markdownToText: frontmatter', () => {
  it('drops a leading YAML block', () => {
    expect(markdownToText(md(['---', 'title: Install', 'i18nReady: true', '---', 'Body text']))).toBe('Body text');
  });

  it('drops a leading TOML block', () => {
    expect(markdownToText(md(['+++', 'title = "Install"', '+++', 'Body text']))).toBe('Body text');
  });

  it('drops a multi-line YAML value containing HTML and # comments', () => {
    const source = md(['---', '# NOTE: generated', 'banner:', '  content: |', '    <a href="/x">New</a>', '---', 'B']);
    expect(markdownToText(source)).toBe('B');
  });

  it('treats --- later in the document as a thematic break, not frontmatter', () => {
    expect(markdownToText(md(['Intro', '', '---', '', 'title: kept'])))
      .toBe('Intro title: kept');
  });

  it('keeps --- inside a code fence as code text', () => {
    const source = md(['```astro title="src/pages/index.astro"', '---', 'const a = 1;', '---', '<h1>{a}</h1>', '```']);
    expect(markdownToText(source)).toBe('--- const a = 1; --- <h1>{a}</h1>');
  });

  it('warns about an unclosed frontmatter block and keeps the text', () => {
    const { text, warnings } = extract(md(['---', 'title: x', '', 'Body']));
    expect(text).toBe('title: x Body');
    expect(warnings).toEqual([{ line: 1, message: 'unclosed frontmatter' }]);
  });
});

describe('markdownToText: ESM', () => {
  it('drops import and export lines', () => {
    const source = md([
      "import { Tabs, TabItem } from '@astrojs/starlight/components';",
      "import ReadMore from '~/components/ReadMore.astro';",
      "export const meta = { a: 1 };",
      '',
      'Prose.',
    ]);
    expect(markdownToText(source)).toBe('Prose.');
  });

  it('drops a multi-line import', () => {
    expect(markdownToText(md(['import {', '  a,', '  b', "} from 'x';", '', 'Prose.']))).toBe('Prose.');
  });

  it('drops a multi-line export, even across a blank line inside its braces', () => {
    const source = md(['export const x = {', '  a: 1,', '', '  b: "two",', '};', '', 'Prose.']);
    expect(markdownToText(source)).toBe('Prose.');
  });

  it('keeps import/export lines inside code fences', () => {
    const source = md(['```js', "import { defineConfig } from 'astro/config';", 'export default defineConfig({});', '```']);
    expect(markdownToText(source)).toBe("import { defineConfig } from 'astro/config'; export default defineConfig({});");
  });

  it('keeps a prose line that merely starts with the word import', () => {
    expect(markdownToText(md(['You can also', 'import a file.']))).toBe('You can also import a file.');
  });
});

describe('markdownToText: JSX and HTML', () => {
  it('drops component tags and keeps their text children', () => {
    expect(markdownToText('<Tabs><TabItem label="npm">npm install</TabItem></Tabs>')).toBe('npm install');
  });

  it('drops self-closing tags without gluing the words around them', () => {
    expect(markdownToText('See <ReadMore /> more.<br/>Next line')).toBe('See more. Next line');
  });

  it('does not split a word around inline HTML elements', () => {
    expect(markdownToText('un<em>like</em>ly and <kbd>Ctrl</kbd>')).toBe('unlikely and Ctrl');
  });

  it('does not leak attributes of a tag spanning lines', () => {
    const source = md(['<Foo bar={{ a: 1 }}', '  baz="secret value"', '  qux={`tpl`}>', 'child text', '</Foo>']);
    expect(markdownToText(source)).toBe('child text');
  });

  it('skips > and quotes inside expression attributes', () => {
    expect(markdownToText(`<Foo cb={() => a > "b"} t='x>y'>ok</Foo>`)).toBe('ok');
  });

  it('drops a multi-line self-closing card whose closing > sits on its own line', () => {
    const source = md(['<LinkCard', '  title="Editor Setup"', '  href="/en/editor-setup/"', '>', 'After']);
    expect(markdownToText(source)).toBe('After');
  });

  it('drops fragments and HTML comments, including multi-line ones', () => {
    expect(markdownToText(md(['<>a</> b <!-- gone -->', '<!--', 'also gone', '-->', 'c']))).toBe('a b c');
  });

  it('keeps a less-than sign that does not start a tag', () => {
    expect(markdownToText('if a < b then')).toBe('if a < b then');
  });

  it('keeps the text of an MDX expression', () => {
    expect(markdownToText('**Default:** {Infinity}')).toBe('Default: Infinity');
  });
});

describe('markdownToText: MDX comments', () => {
  it('drops a single-line comment', () => {
    expect(markdownToText('Before {/* TODO: fix */} after')).toBe('Before after');
  });

  it('drops a multi-line comment, even one hiding headings and code fences', () => {
    const source = md(['Keep', '{/*', '## Hidden heading', '```js', 'hidden()', '```', '*/}', 'Also kept']);
    expect(markdownToText(source)).toBe('Keep Also kept');
  });

  it('ignores comment syntax inside inline code', () => {
    expect(markdownToText(md(['Write `{/*` to open one.', '', '## Next', 'Close with `*/}`.']))).toBe(
      'Write {/* to open one. Next. Close with */}.',
    );
  });

  it('keeps the text on the lines of a multi-line comment outside it', () => {
    expect(markdownToText(md(['one {/* a', 'b */} two']))).toBe('one two');
  });
});

describe('markdownToText: links and images', () => {
  it('keeps inline link text and drops the destination and title', () => {
    expect(markdownToText('See [the guide](https://example.com/a_(b) "Title") now')).toBe('See the guide now');
  });

  it('resolves reference links and drops the definitions', () => {
    const source = md([
      'A [full][ref], a [Collapsed][] and a [shortcut].',
      '',
      '[ref]: https://x.dev',
      '[collapsed]: /c',
      '[shortcut]: /s "t"',
    ]);
    expect(markdownToText(source)).toBe('A full, a Collapsed and a shortcut.');
  });

  it('treats [text][ref] as a link even when ref is undefined', () => {
    expect(markdownToText('See [the adapter][deno-adapter] docs')).toBe('See the adapter docs');
  });

  it('keeps brackets that are not links', () => {
    const prose = 'Type: [string, string][] and [fruit]/about';
    expect(markdownToText(prose)).toBe(prose);
  });

  it('keeps image alt text', () => {
    expect(markdownToText('![A cat on a bed](../cat.jpg) and [![badge alt](b.svg)](https://ci)')).toBe(
      'A cat on a bed and badge alt',
    );
  });

  it('drops autolinks', () => {
    expect(markdownToText('Visit <https://astro.build> or <mail@example.com> today')).toBe('Visit or today');
  });

  it('drops the destination of a link whose [ is missing', () => {
    expect(markdownToText('written by `Astro.cookie.set()`](/fr/reference/#cookiesset) to headers')).toBe(
      'written by Astro.cookie.set() to headers',
    );
  });

  it('keeps link text containing code and emphasis', () => {
    expect(markdownToText('[the `create astro` **CLI**](#install)')).toBe('the create astro CLI');
  });
});

describe('markdownToText: admonitions', () => {
  it('drops the fences and keeps the body', () => {
    expect(markdownToText(md([':::note', 'Body text.', ':::']))).toBe('Body text.');
  });

  it('keeps the bracketed title', () => {
    expect(markdownToText(md([':::caution[Deprecated API]', 'Do not use.', ':::']))).toBe('Deprecated API Do not use.');
  });

  it('handles an admonition indented inside a list item', () => {
    const source = md(['1. Step', '', '   :::tip[Hint]', '   Body', '   :::', '2. Next']);
    expect(markdownToText(source)).toBe('Step Hint Body Next');
  });
});

describe('markdownToText: Markdown punctuation', () => {
  it('drops heading marks, including closing ones', () => {
    expect(markdownToText(md(['# Title', '## Sub ##', '###### Deep']))).toBe('Title. Sub. Deep.');
  });

  it('ends a heading as a sentence, so a snippet never runs it into the text after it', () => {
    expect(markdownToText(md(['## Install', 'Run `npm create astro`.']))).toBe('Install. Run npm create astro.');
    // One that already ends a sentence or a label keeps its own stop; code in it ends as a sentence too.
    expect(markdownToText(md(['## Why?', 'Speed.', '## Note:', 'Read.', '## `getEntry()`', 'Call it.']))).toBe('Why? Speed. Note: Read. getEntry(). Call it.');
    // Scripts without spaces take their own full stop; an empty heading adds none.
    expect(markdownToText(md(['## 安装', '运行命令。', '## <Icon />', 'Text']))).toBe('安装。 运行命令。 Text');
  });

  it('drops emphasis and strikethrough marks', () => {
    expect(markdownToText('**bold** *it* _u_ __b__ ~~s~~ ***both***')).toBe('bold it u b s both');
  });

  it('drops emphasis spanning code and lines', () => {
    expect(markdownToText(md(['**the `x` option', 'is here**']))).toBe('the x option is here');
  });

  it('keeps underscores inside words and lone asterisks between spaces', () => {
    expect(markdownToText('use my_var_name and import.meta.env.PUBLIC_X, 2 * 3 = 6')).toBe(
      'use my_var_name and import.meta.env.PUBLIC_X, 2 * 3 = 6',
    );
  });

  it('drops a stray ** left by a broken emphasis', () => {
    expect(markdownToText('**Type : ** boolean')).toBe('Type : boolean');
  });

  it('drops list markers, task boxes and nesting', () => {
    expect(markdownToText(md(['- a', '  - b', '    1. c', '* d', '+ e', '2) f', '- [x] done', '- [ ] todo']))).toBe(
      'a b c d e f done todo',
    );
  });

  it('drops blockquote markers', () => {
    expect(markdownToText(md(['> quoted', '> > nested **bold**']))).toBe('quoted nested bold');
  });

  it('drops table pipes and the separator row, keeping cell text', () => {
    const source = md(['| Name | Value |', '|:-----|-----:|', '| `a\\|b` | **1** |', 'c | d', '', 'After | table']);
    expect(markdownToText(source)).toBe('Name Value a|b 1 c d After | table');
  });

  it('drops thematic breaks and setext underlines', () => {
    expect(markdownToText(md(['a', '', '***', '', '- - -', 'Title', '=====', 'b']))).toBe('a Title b');
  });

  it('unescapes backslash escapes', () => {
    expect(markdownToText('\\*not emphasis\\* and Promise\\<Response\\> \\{x\\}')).toBe(
      '*not emphasis* and Promise<Response> {x}',
    );
  });
});

describe('markdownToText: code', () => {
  it('keeps backtick and tilde fence content, not fences or info strings', () => {
    const source = md(['```sh title="install"', '# a comment', 'npm create astro', '```', '~~~', 'tilde code', '~~~']);
    expect(markdownToText(source)).toBe('# a comment npm create astro tilde code');
  });

  it('lets a longer fence contain a shorter one', () => {
    const source = md(['``````markdown', '```js', 'var a;', '```', '``````', 'after']);
    expect(markdownToText(source)).toBe('```js var a; ``` after');
  });

  it('keeps a fence opened on a list item line', () => {
    const source = md(['1.  ```markdown title="post.md"', '    ---', '    layout: x', '    ---', '    ```', '2. Next']);
    expect(markdownToText(source)).toBe('--- layout: x --- Next');
  });

  it('keeps tags and comments inside code verbatim', () => {
    const source = md(['```astro', '<Foo bar="x" />', '{/* comment */}', '<!-- html -->', '```']);
    expect(markdownToText(source)).toBe('<Foo bar="x" /> {/* comment */} <!-- html -->');
  });

  it('keeps inline code text without backticks, literally', () => {
    expect(markdownToText('Use `<div>`, `&amp;`, `*a*` and `` a`b ``.')).toBe('Use <div>, &amp;, *a* and a`b.');
  });

  it('treats unmatched backticks as text', () => {
    expect(markdownToText('a ` b')).toBe('a ` b');
  });
});

describe('markdownToText: text normalisation', () => {
  it('decodes HTML entities', () => {
    expect(markdownToText('&amp; &lt; &gt; &quot; &#39; a&nbsp;b &#x27; &#8212; &colon;')).toBe(`& < > " ' a b ' — :`);
  });

  it('removes soft hyphens so the word stays whole', () => {
    expect(markdownToText('Kommandozeilen&shy;schnittstelle')).toBe('Kommandozeilenschnittstelle');
  });

  it('leaves unknown entities and bare ampersands alone', () => {
    expect(markdownToText('R&D &bogus; &#0;')).toBe('R&D &bogus; &#0;');
  });

  it('removes the snippet sentinel characters everywhere', () => {
    expect(markdownToText(md(['a\ue000b\ue001c', '```', 'co\ue000de', '```', '&#xE000;x']))).toBe('abc code x');
  });

  it('collapses whitespace and separates lines and blocks', () => {
    expect(markdownToText(md(['  first   line', 'second\tline', '', '# Head', 'text', '- a', '- b  ']))).toBe(
      'first line second line Head. text a b',
    );
  });

  it('returns an empty string for empty input', () => {
    expect(markdownToText('')).toBe('');
    expect(markdownToText('---\ntitle: x\n---\n')).toBe('');
  });
});

describe('markdownToText: malformed input', () => {
  it('treats the rest of the page as code after an unclosed fence', () => {
    const { text, warnings } = extract(md(['Intro', '', '```js', 'const a = 1;', '', '## not a heading']));
    expect(text).toBe('Intro const a = 1; ## not a heading');
    expect(warnings).toEqual([{ line: 3, message: 'unclosed code fence' }]);
  });

  it('drops the first line of an unclosed JSX tag and keeps what follows', () => {
    const { text, warnings } = extract(md(['Intro', '', 'Text <Foo bar="x"', '', 'Next paragraph.']));
    expect(text).toBe('Intro Text Next paragraph.');
    expect(warnings).toEqual([{ line: 3, message: 'unclosed JSX tag <Foo>' }]);
  });

  it('does not let an unclosed tag borrow the > of a later tag', () => {
    const { text, warnings } = extract(md(['<Foo a="1"', 'words <b>bold</b>']));
    expect(text).toBe('words bold');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.line).toBe(1);
  });

  it('warns about an unclosed MDX comment and keeps later lines', () => {
    const { text, warnings } = extract(md(['Line one', 'two {/* never closed', 'three']));
    expect(text).toBe('Line one two three');
    expect(warnings).toEqual([{ line: 2, message: 'unclosed MDX comment' }]);
  });

  it('warns about an unclosed HTML comment', () => {
    const { text, warnings } = extract(md(['a', '', 'b <!-- open', 'c']));
    expect(text).toBe('a b c');
    expect(warnings).toEqual([{ line: 3, message: 'unclosed HTML comment' }]);
  });

  it('works without an onWarning callback', () => {
    expect(markdownToText('```\nunclosed')).toBe('unclosed');
  });

  it('never throws on random markup soup', () => {
    const alphabet = [
      ...['<', '>', '{', '}', '/*', '*/', '[', ']', '(', ')', '`', '```', '\n', ':::', '*', '_', '\\', '&', '#', '-'],
      ...['|', 'a', ' ', '!', '"', "'", '<!--', '-->', 'import ', '---', '\ue000'],
    ];
    let seed = 42;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let i = 0; i < 2000; i++) {
      const length = Math.floor(random() * 60);
      const source = Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
      expect(() => markdownToText(source, { onWarning: () => {} }), JSON.stringify(source)).not.toThrow();
      expect(() => firstHeading(source), JSON.stringify(source)).not.toThrow();
    }
  });
});

describe('firstHeading', () => {
  it('returns the first level-1 heading as plain text', () => {
    const source = md(['---', 'title: Front', '---', '## Not this', '# The `astro` **CLI** [docs](/x) ##', '# Second']);
    expect(firstHeading(source)).toBe('The astro CLI docs');
  });

  it('ignores # lines in code fences and frontmatter', () => {
    expect(firstHeading(md(['---', '# NOTE: generated', '---', '```sh', '# a comment', '```', '# Real']))).toBe('Real');
  });

  it('returns undefined without a level-1 heading', () => {
    expect(firstHeading(md(['## Two', '#hashtag', '    # indented code-ish', '> # quoted']))).toBeUndefined();
    expect(firstHeading('')).toBeUndefined();
  });

  it('skips an empty heading', () => {
    expect(firstHeading(md(['#', '# Found']))).toBe('Found');
  });
});

describe('markdownSections: enough', () => {
  const page = 'Intro [link][ref].\n\n## A\n\nFirst.\n\n## B\n\nSecond.\n\n## C\n\n<Broken\n\n[ref]: https://example.com\n';

  it('ends the extraction at the section the callback says is enough, with references defined later still resolved', () => {
    const seen: string[] = [];
    const warnings: TextWarning[] = [];
    const sections = markdownSections(page, { onWarning: (w) => warnings.push(w), enough: (s) => (seen.push(s.heading), s.heading === 'A') });
    expect(sections).toEqual([
      { heading: '', text: 'Intro link.' },
      { heading: 'A', text: 'First.' },
    ]);
    expect(seen).toEqual(['', 'A']);
    expect(warnings).toEqual([]);
  });

  it('renders every section without it', () => {
    const warnings: TextWarning[] = [];
    expect(markdownSections(page, { onWarning: (w) => warnings.push(w) }).map((s) => s.heading)).toEqual(['', 'A', 'B', 'C']);
    expect(warnings).toHaveLength(1);
  });
});

describe('line endings', () => {
  it('reads a page written with CRLF or CR line endings as the same page with LF', () => {
    const page = '---\ntitle: T\n---\nimport X from "./x";\n\nIntro **bold**\nline two.\n\n## Setup\n\n```sh\nnpm i\n```\n\n- item\n\n<Aside>\nnote\n</Aside>\n\n## Use\n\nText.\n';
    const sections = markdownSections(page);
    expect(sections.map((s) => s.heading)).toEqual(['', 'Setup', 'Use']);
    for (const eol of ['\r\n', '\r']) {
      const other = page.replaceAll('\n', eol);
      expect(markdownSections(other)).toEqual(sections);
      expect(markdownToText(other)).toBe(markdownToText(page));
    }
  });
});
