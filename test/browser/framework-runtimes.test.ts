/**
 * `<site-search facets highlight recent inline query-param>` rendered by the real framework runtimes (issue 45, item 2),
 * in Debian's Chromium against `site-search dev` (dist/cli.js):
 * - Svelte 5: docs/ui.md's SvelteKit component, taken from the page, compiled by `svelte/compiler` and mounted;
 * - React 19: docs/ui.md's Next.js client component, taken from the page, rendered by `react-dom/client`'s createRoot;
 * - Vue 3: a `<script setup>` single-file component compiled by `vue/compiler-sfc` with `isCustomElement` as docs/ui.md
 *   says, with the attributes bare and bound (`:facets="true"`);
 * - Solid: a component written with `solid-js/html` tagged templates, rendered by `solid-js/web`, with the attributes
 *   bare and as expressions (`facets=${true}`, which Solid sets as properties).
 * Each page is bundled by esbuild with the package's `dist/ui.js` as `site-search/ui` and served at the dev server's
 * origin (Playwright answers the page's own two requests), so the box calls the real endpoint at `/api/search`. Only
 * the routers the snippets import (`next/navigation`, `$app/navigation`) are stand-ins: they are not the code under test.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ChildProcess } from 'node:child_process';
import { build, type Plugin } from 'esbuild';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { compile } from 'svelte/compiler';
import { compileScript, parse } from 'vue/compiler-sfc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/chromium.js';
import { startDevServer } from '../helpers/dev-server.js';
import { makeProject } from '../helpers/project.js';
import { FIXTURE_FILES } from './fixture.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const UI_DOC = readFileSync(new URL('../../docs/ui.md', import.meta.url), 'utf8');
/** The opt-in attributes as a user writes them in a template: bare, no value. */
const OPT_INS = 'facets highlight recent inline query-param';

/** The fenced block of docs/ui.md whose first line names `file` in a comment (`// file` or `<!-- file -->`). */
function docBlock(file: string): string {
  for (const [, body] of UI_DOC.matchAll(/^```\w*\n([\s\S]*?)^```$/gm)) {
    if (body!.split('\n', 1)[0]!.includes(file)) return body!;
  }
  throw new Error(`docs/ui.md has no code block starting with a comment naming ${file}`);
}

/** The snippet with the opt-in attributes written into its `<site-search` tag, as a user adds them. */
function withOptIns(snippet: string): string {
  expect(snippet).toContain('<site-search ');
  return snippet.replace('<site-search ', `<site-search ${OPT_INS} `);
}

const SVELTE_COMPONENT = withOptIns(docBlock('src/lib/SearchBox.svelte'));
const REACT_COMPONENT = withOptIns(docBlock('app/search-box.tsx'));
const VUE_COMPONENT = `<script setup lang="ts">
import { onMounted } from 'vue';
import { defineSiteSearch } from 'site-search/ui';
onMounted(() => defineSiteSearch());
</script>

<template>
  <site-search ${OPT_INS} endpoint="/api/search" placeholder="Search the docs…"></site-search>
</template>
`;

const VUE_MAIN = `import { createApp } from 'vue';\nimport SearchBox from './SearchBox.vue';\ncreateApp(SearchBox).mount('#app');\n`;

/** A Solid component rendering `tag` (a `solid-js/html` template) once the element is defined on mount. */
const solidMain = (tag: string) => `import { onMount } from 'solid-js';
import html from 'solid-js/html';
import { render } from 'solid-js/web';
import { defineSiteSearch } from 'site-search/ui';

function SearchBox() {
  onMount(() => defineSiteSearch());
  return html\`${tag}\`;
}
render(SearchBox, document.getElementById('app'));
`;

/**
 * Each framework's page (its entry module and the component files beside it), and how that framework hands the box
 * `facets`: as the attribute text `""` or `"true"`, or as a property. The test checks this too, so a framework release
 * that changes it shows here rather than leaving a way untested.
 */
const APPS: Record<string, { files: Record<string, string>; writes: '' | 'true' | 'property' }> = {
  'Svelte 5 (docs/ui.md\'s SvelteKit component)': {
    files: {
      'main.js': `import { mount } from 'svelte';\nimport SearchBox from './SearchBox.svelte';\nmount(SearchBox, { target: document.getElementById('app') });\n`,
      'SearchBox.svelte': SVELTE_COMPONENT,
    },
    writes: 'true',
  },
  'React 19 (docs/ui.md\'s Next.js client component)': {
    files: {
      'main.tsx': `import { createRoot } from 'react-dom/client';\nimport { SearchBox } from './search-box';\ncreateRoot(document.getElementById('app')!).render(<SearchBox />);\n`,
      'search-box.tsx': REACT_COMPONENT,
    },
    writes: '',
  },
  'Vue 3, bare attributes': { files: { 'main.js': VUE_MAIN, 'SearchBox.vue': VUE_COMPONENT }, writes: '' },
  'Vue 3, bound (:facets="true")': {
    files: { 'main.js': VUE_MAIN, 'SearchBox.vue': VUE_COMPONENT.replace(OPT_INS, ':facets="true" :highlight="true" :recent="true" :inline="true" :query-param="true"') },
    writes: 'true',
  },
  'Solid, bare attributes': {
    files: { 'main.js': solidMain(`<site-search ${OPT_INS} endpoint="/api/search" placeholder="Search the docs…"></site-search>`) },
    writes: '',
  },
  'Solid, expressions (facets=${true})': {
    files: {
      'main.js': solidMain(
        '<site-search facets=${true} highlight=${true} recent=${true} inline=${true} query-param=${true} endpoint="/api/search" placeholder="Search the docs…"></site-search>',
      ),
    },
    writes: 'property',
  },
};

/** A client-side navigation, as the snippets' routers make one. */
const NAVIGATE = `(url) => history.pushState(null, '', url)`;
const STAND_INS: Record<string, string> = {
  'next/navigation': `export const useRouter = () => ({ push: ${NAVIGATE} });`,
  '$app/navigation': `export const goto = ${NAVIGATE};`,
};

/** Resolves `site-search/ui` to this checkout's build, the routers to their stand-ins, and compiles .svelte and .vue. */
const frameworkPlugin: Plugin = {
  name: 'frameworks',
  setup(b) {
    b.onResolve({ filter: /^site-search\/ui$/ }, () => ({ path: `${ROOT}dist/ui.js` }));
    b.onResolve({ filter: /^(next\/navigation|\$app\/navigation)$/ }, (args) => ({ path: args.path, namespace: 'stand-in' }));
    b.onLoad({ filter: /.*/, namespace: 'stand-in' }, (args) => ({ contents: STAND_INS[args.path]!, loader: 'js' }));
    b.onLoad({ filter: /\.svelte$/ }, (args) => ({
      contents: compile(readFileSync(args.path, 'utf8'), { filename: args.path, generate: 'client' }).js.code,
      loader: 'js',
      resolveDir: ROOT,
    }));
    b.onLoad({ filter: /\.vue$/ }, (args) => {
      const { descriptor } = parse(readFileSync(args.path, 'utf8'), { filename: args.path });
      const script = compileScript(descriptor, {
        id: 'search-box',
        inlineTemplate: true,
        templateOptions: { compilerOptions: { isCustomElement: (tag: string) => tag === 'site-search' } },
      });
      return { contents: script.content, loader: 'ts', resolveDir: ROOT };
    });
  },
};

/** The framework's page bundled for the browser, as its build tool would (production mode). */
async function bundle(files: Record<string, string>): Promise<string> {
  const project = makeProject(files);
  try {
    const entry = Object.keys(files).find((f) => f.startsWith('main.'))!;
    const result = await build({
      entryPoints: [`${project.dir}/${entry}`],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'browser',
      jsx: 'automatic',
      nodePaths: [`${ROOT}node_modules`],
      logLevel: 'silent',
      define: {
        'process.env.NODE_ENV': '"production"',
        __VUE_OPTIONS_API__: 'true',
        __VUE_PROD_DEVTOOLS__: 'false',
        __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false',
      },
      plugins: [frameworkPlugin],
    });
    return result.outputFiles[0]!.text;
  } finally {
    project.cleanup();
  }
}

const site = makeProject(FIXTURE_FILES);
let server: ChildProcess;
let origin: string;
let browser: Browser;
let context: BrowserContext;
const bundles = new Map<string, string>();

beforeAll(async () => {
  let started;
  [started, browser] = await Promise.all([startDevServer(['--config', 'search.config.json', '--port', '0'], site.dir), launchChromium()]);
  ({ child: server, url: origin } = started);
  context = await browser.newContext({ viewport: { width: 900, height: 900 } });
  for (const [name, { files }] of Object.entries(APPS)) bundles.set(slug(name), await bundle(files));
  // The framework pages at the dev server's origin: the endpoint stays `/api/search`, as in the snippets.
  await context.route(`${origin}/frameworks/**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    const [, name, ext] = /^\/frameworks\/([\w-]+)\.(html|js)$/.exec(path) ?? [];
    if (!name || !bundles.has(name)) return route.fulfill({ status: 404, body: 'not found' });
    return ext === 'js'
      ? route.fulfill({ contentType: 'text/javascript', body: bundles.get(name)! })
      : route.fulfill({ contentType: 'text/html', body: `<!doctype html><html lang="en"><body><div id="app"></div><script type="module" src="/frameworks/${name}.js"></script></body></html>` });
  });
});

afterAll(async () => {
  await browser?.close();
  server?.kill('SIGTERM');
  site.cleanup();
});

function slug(name: string): string {
  return name.toLowerCase().replace(/\W+/g, '-').replace(/^-|-$/g, '');
}

describe('the opt-in attributes as each framework renders them (bare: facets highlight recent inline query-param)', () => {
  for (const [name, { writes }] of Object.entries(APPS)) {
    it(`${name}: facets=type,tags is sent and answered 200, links carry ?highlight=, the query is in the address`, async () => {
      const page: Page = await context.newPage();
      const pageErrors: string[] = [];
      const requests: { url: URL; status: number }[] = [];
      page.on('pageerror', (e) => pageErrors.push(e.message));
      page.on('response', (r) => {
        const url = new URL(r.url());
        if (url.pathname === '/api/search' && r.request().method() === 'GET') requests.push({ url, status: r.status() });
      });
      try {
        await page.goto(`${origin}/frameworks/${slug(name)}.html`);
        await page.waitForFunction(() => customElements.get('site-search') && document.querySelector('#app site-search'));
        const facets = await page.evaluate(() => {
          const box = document.querySelector('site-search')!;
          return { attribute: box.getAttribute('facets'), property: Object.getOwnPropertyDescriptor(box, 'facets')?.value as unknown };
        });
        expect(facets).toEqual(writes === 'property' ? { attribute: null, property: true } : { attribute: writes, property: undefined });
        const input = page.locator('site-search [part=input]');
        await input.pressSequentially('otter', { delay: 20 });
        // The requests first: a value the endpoint refuses shows as a 400 here, before any result is missing.
        await expect.poll(() => requests.some((r) => r.url.searchParams.get('q') === 'otter')).toBe(true);
        expect(requests.map((r) => [r.status, r.url.searchParams.get('facets')])).toEqual(requests.map(() => [200, 'type,tags']));
        await expect.poll(() => page.locator('site-search [part=title]').count()).toBeGreaterThan(2);
        const links = await page.locator('site-search [role=option]').evaluateAll((els) => els.map((a) => (a as HTMLAnchorElement).href));
        expect(links.length).toBeGreaterThan(2);
        for (const link of links.map((href) => new URL(href))) {
          expect([...link.searchParams.keys()]).toEqual(['highlight']);
          expect(link.searchParams.get('highlight')).toBe('otter');
        }
        expect(await page.locator('site-search [part=status]').textContent()).not.toMatch(/unavailable/i);
        // query-param: the query is in the page's address; facets: the counted chips are shown.
        expect(new URL(page.url()).searchParams.get('q')).toBe('otter');
        expect(await page.locator('site-search [part=chip]').count()).toBeGreaterThan(0);
        // inline: the list is part of the page and stays open when focus leaves.
        expect(await page.locator('site-search [part=panel]').evaluate((panel) => getComputedStyle(panel).position)).toBe('static');
        await page.evaluate(() => (document.activeElement as HTMLElement).blur());
        await expect.poll(() => page.locator('site-search [part=panel]').isVisible()).toBe(true);
        expect(pageErrors).toEqual([]);
      } finally {
        await page.close();
      }
    });
  }
});
