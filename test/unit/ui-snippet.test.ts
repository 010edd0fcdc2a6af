/** The two pure guards of `<site-search>` (src/ui): the snippet sanitiser and the link filter. The browser suite covers them in the DOM. */
import { describe, expect, it } from 'vitest';
import { safeHref } from '../../src/ui/safe-url.js';
import { parseSnippet } from '../../src/ui/snippet.js';

describe('parseSnippet', () => {
  it('turns exactly <mark>…</mark> into highlighted runs and decodes the five entities the server escapes', () => {
    expect(parseSnippet('a <mark>b</mark> &lt;i&gt; &amp; &quot;q&quot; &#39;s&#39;')).toEqual([
      { text: 'a ', mark: false },
      { text: 'b', mark: true },
      { text: ' <i> & "q" \'s\'', mark: false },
    ]);
  });

  it('decodes once: &amp;lt; is the text &lt;; other entities stay literal', () => {
    expect(parseSnippet('&amp;lt; &nbsp; &#60; &LT;')).toEqual([{ text: '&lt; &nbsp; &#60; &LT;', mark: false }]);
  });

  it('keeps every other tag as text, even raw ones a broken server let through', () => {
    expect(parseSnippet('<img src=x onerror=alert(1)><MARK>x</MARK><mark class=a>y</mark>')).toEqual([
      { text: '<img src=x onerror=alert(1)><MARK>x</MARK><mark class=a>y', mark: false },
    ]);
  });

  it('does not nest marks and drops unmatched tags', () => {
    expect(parseSnippet('</mark>a<mark><mark>b</mark></mark>c<mark>d')).toEqual([
      { text: 'a', mark: false },
      { text: 'b', mark: true },
      { text: 'c', mark: false },
      { text: 'd', mark: true },
    ]);
    expect(parseSnippet('')).toEqual([]);
  });
});

describe('safeHref', () => {
  it.each(['https://example.com/docs/a', 'http://127.0.0.1:4545/a#b', '/docs/a', 'docs/a', '#top', '?q=1', '//cdn.example.com/a'])(
    'keeps the web or relative URL %s',
    (url) => expect(safeHref(url)).toBe(url),
  );

  it.each(['javascript:alert(1)', 'JavaScript:alert(1)', ' javascript:alert(1)', 'java\tscript:alert(1)', 'java\nscript:x', 'data:text/html,<b>', 'vbscript:x', 'mailto:a@b.c', 'http://[bad'])(
    'refuses %j',
    (url) => expect(safeHref(url)).toBe(''),
  );

  it('refuses a missing URL', () => {
    expect(safeHref(undefined)).toBe('');
    expect(safeHref('')).toBe('');
  });
});
