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
});
