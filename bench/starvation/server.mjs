// The server of `bench/starvation`: node:http through site-search/node, as users run it, from the built package
// (dist/). node bench/starvation/server.mjs <index file> <threads> prints its port, then serves until killed.
import { createServer } from 'node:http';
import { createSearchHandler } from '../../dist/index.js';
import { openSqlite, toNodeListener } from '../../dist/node.js';

const [path, threads, config] = [process.argv[2], Number(process.argv[3]), JSON.parse(process.argv[4])];
const db = openSqlite(path, { threads });
const server = createServer(toNodeListener(createSearchHandler(config, { db })));
// Every address of the loopback network, so the reader can come from 127.0.0.2 and the attackers from 127.0.0.1.
server.listen(0, '0.0.0.0', () => console.log(JSON.stringify({ port: server.address().port })));
