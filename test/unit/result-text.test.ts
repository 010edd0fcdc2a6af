/**
 * The per-result text work of a search, which runs ten times per request: escaping snippets and resolving URLs. Both
 * have fast paths; these tests hold them to the plain definitions they replace.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeSnippet } from '../../src/search/snippet.js';
import { urlResolver } from '../../src/search/urls.js';

const OPEN = '\uE000';
const CLOSE = '\uE001';

/** The definition: escape everything, then pair sentinels strictly (what escapeSnippet did in two passes). */
function reference(raw: string): string {
  const escaped = raw
    .replaceAll(CLOSE + OPEN, '')
    .replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
  let open = false;
  const marked = escaped.replace(/[\uE000\uE001]/g, (c) => {
    if (c === OPEN && !open) return (open = true), '<mark>';
    if (c === CLOSE && open) return (open = false), '</mark>';
    return '';
  });
  return open ? `${marked}</mark>` : marked;
}

describe('escapeSnippet', () => {
  it('escapes markup and turns sentinel pairs into <mark>', () => {
    expect(escapeSnippet(`a <script>x</script> & "q" 'p' ${OPEN}hit${CLOSE}`)).toBe(
      'a &lt;script&gt;x&lt;/script&gt; &amp; &quot;q&quot; &#39;p&#39; <mark>hit</mark>',
    );
  });

  it('drops stray sentinels, closes an open one and joins touching highlights', () => {
    expect(escapeSnippet(`${CLOSE}a ${OPEN}b${OPEN}c${CLOSE}${OPEN}d${CLOSE} e ${OPEN}f`)).toBe('a <mark>bcd</mark> e <mark>f</mark>');
  });

  it('gives what escaping and then pairing gives, for any text', () => {
    const piece = fc.oneof(fc.constantFrom(OPEN, CLOSE, '<', '>', '&', '"', "'", '<img onerror=x>', ' '), fc.string({ maxLength: 6 }));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 20 }), (pieces) => {
        const raw = pieces.join('');
        const out = escapeSnippet(raw);
        expect(out).toBe(reference(raw));
        expect(out.replace(/<\/?mark>/g, '')).not.toMatch(/[<>\uE000\uE001]/);
      }),
    );
  });
});

/**
 * The definition: the URL parser, on the path as stored; when that would leave the site (another host, a scheme, or
 * "//" with no host at all), on the same path under the site's root, so a result never points off the site.
 */
function viaUrl(path: string, origin: string): string {
  const underRoot = () => new URL(`/${path.replace(/[\u0000-\u001f\u007f-\u009f]/g, '').replace(/^[\s\\/]+/, '')}`, origin).href;
  try {
    const url = new URL(path, origin);
    return url.origin === new URL(origin).origin ? url.href : underRoot();
  } catch {
    return underRoot();
  }
}

describe('urlResolver', () => {
  const origins = ['https://docs.example.com', 'http://localhost:4321', 'https://Example.COM:443/any/path?x#y', 'https://example.com/docs/'];
  const paths = ['/guides/start/', '/a.b/c', '/zh-cn/指南/', '/a b', '//evil.example/x', '/\\evil', '/a/../b', '/./x', '/x/.', 'relative/x', '/%2e%2e/x', '/q?x=1', '/h#t', '', '/', '//'];

  it('resolves every path exactly as the URL parser does', () => {
    for (const origin of origins) {
      const resolve = urlResolver(origin);
      for (const path of paths) expect(resolve(path), `${path} on ${origin}`).toBe(viaUrl(path, origin));
    }
  });

  it('agrees with new URL for any path', () => {
    const chars = fc.constantFrom('/', '.', 'a', 'Z', '0', '-', '_', '~', '%', '?', '#', '\\', ' ', 'é', ':');
    const resolve = urlResolver('https://docs.example.com');
    fc.assert(
      fc.property(fc.array(chars, { maxLength: 12 }), (cs) => {
        const path = cs.join('');
        expect(resolve(path)).toBe(viaUrl(path, 'https://docs.example.com'));
      }),
    );
  });

  it('leaves paths alone without an origin, or with one that does not parse', () => {
    expect(urlResolver(undefined)('/x/')).toBe('/x/');
    expect(urlResolver('not a url')('/x/')).toBe('/x/');
  });

  it('never points a result off the site, with or without an origin', () => {
    const hostile = ['//evil.example/x', '/\\evil.example/', '\\\\evil.example', 'https://evil.example/', 'javascript:alert(1)', '/\t/evil.example', ' //evil.example', '\u001b//evil.example'];
    for (const path of hostile) {
      expect(new URL(urlResolver('https://docs.example.com')(path)).origin, path).toBe('https://docs.example.com');
      const relative = urlResolver(undefined)(path);
      expect(relative, path).toMatch(/^\/(?![/\\])/);
      expect(new URL(relative, 'https://docs.example.com').origin, path).toBe('https://docs.example.com');
    }
  });
});
