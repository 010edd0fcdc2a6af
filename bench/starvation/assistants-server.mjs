// The server of `bench/starvation/assistants.ts`: node:http through site-search/node (the built package, dist/), the
// endpoint at /api/search and the MCP server at /mcp over one index, as a user serves both. `/__cpu` answers the
// process's CPU time (workers included) and the requests answered on each route, so a phase can say what it cost.
// node bench/starvation/assistants-server.mjs <index file> <options JSON>: prints its port, serves until killed.
import { createServer } from 'node:http';
import { createSearchHandler } from '../../dist/index.js';
import { createMcpHandler } from '../../dist/mcp.js';
import { openSqlite, toNodeListener } from '../../dist/node.js';

const [path, config] = [process.argv[2], JSON.parse(process.argv[3])];
const db = openSqlite(path);
const search = createSearchHandler(config, { db });
const mcp = createMcpHandler(config, { db });
const answered = { search: 0, mcp: 0 };
const listener = toNodeListener((request, env, ctx) => (new URL(request.url).pathname === '/mcp' ? mcp(request, env, ctx) : search(request, env, ctx)));
const server = createServer((req, res) => {
  if (req.url === '/__cpu') {
    const { user, system } = process.cpuUsage();
    return res.end(JSON.stringify({ cpuMs: (user + system) / 1000, ...answered }));
  }
  res.on('finish', () => (req.url.startsWith('/mcp') ? answered.mcp++ : answered.search++));
  return listener(req, res);
});
server.listen(0, '0.0.0.0', () => console.log(JSON.stringify({ port: server.address().port })));
