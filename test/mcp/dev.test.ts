/**
 * `site-search dev` serves the MCP server at /mcp over the local index (the built CLI, as a user starts it), so an
 * author can point an assistant at it: the official client searches and reads a page.
 */
import { describe, expect, it } from 'vitest';
import { startDevServer } from '../helpers/dev-server.js';
import { makeProject } from '../helpers/project.js';
import { connect, textOf } from './helpers.js';

describe('site-search dev', () => {
  it('serves the MCP server at /mcp: search finds the page and get_page reads it', async () => {
    const site = makeProject({
      'content/deploy.md': '---\ntitle: Deploy\ndescription: Ship the site.\n---\n\nHow to deploy the site.\n\n## To Netlify\n\nPush the branch; Netlify builds it.',
      'content/install.md': '# Install\n\nRun npm install.',
    });
    const { child, url } = await startDevServer(['./content', '--port', '0'], site.dir);
    try {
      const client = await connect(`${url}/mcp`);
      const found = await client.callTool({ name: 'search', arguments: { query: 'netlify' } });
      expect((found.structuredContent as { results: { url: string }[] }).results[0]!.url).toBe(`${url}/deploy#to-netlify`);
      const page = textOf(await client.callTool({ name: 'get_page', arguments: { url: `${url}/deploy` } }));
      expect(page).toBe(`# Deploy\n\nURL: ${url}/deploy\ntype: page\n\n> Ship the site.\n\nHow to deploy the site.\n\n## To Netlify\n\nPush the branch; Netlify builds it.\n`);
      await client.close();
    } finally {
      child.kill('SIGTERM');
      site.cleanup();
    }
  }, 150_000);

  it('with analytics on, counts the MCP search tool\'s searches apart from the endpoint\'s, in the report it serves', async () => {
    const site = makeProject({
      'search.config.json': JSON.stringify({ database: 'dev-mcp', sources: [{ dir: 'content', type: 'page', url: '/:slug' }], analytics: true }),
      'content/deploy.md': '# Deploy\n\nPush the branch; Netlify builds it.',
    });
    const { child, url } = await startDevServer(['--port', '0'], site.dir);
    try {
      const client = await connect(`${url}/mcp`);
      for (const query of ['netlify <b>', 'netlify <b>']) await client.callTool({ name: 'search', arguments: { query } });
      await client.close();
      expect((await fetch(`${url}/api/search?q=branch`)).status).toBe(200);
      // Written after each search (the dev server flushes at once), after the answer: read the report until it shows all.
      let html = '';
      for (let i = 0; i < 100 && !(html.includes('<caption>Asked by AI assistants (MCP)</caption>') && html.includes('<td>netlify &lt;b&gt;</td><td>2</td>') && html.includes('<td>branch</td>')); i++) {
        html = await (await fetch(`${url}/_site-search/analytics`)).text();
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(html).toContain('<dt>Searches</dt><dd>1</dd>');
      expect(html).toMatch(/<caption>Asked by AI assistants \(MCP\)<\/caption>.*<td>netlify &lt;b&gt;<\/td><td>2<\/td><td>0<\/td>/s);
    } finally {
      child.kill('SIGTERM');
      site.cleanup();
    }
  }, 150_000);
});
