// The attackers of `bench/starvation/assistants.ts`, autocannon, run until killed:
// The attacker's address is the one it connects to (a loopback connection to 127.0.0.3 comes from 127.0.0.3).
//   node assistants-attack.cjs <base url> mcp: 2 connections, each POSTing to /mcp a JSON-RPC batch of 10
//     costly searches (common words, a new offset and limit each, never the same batch twice in a run), back to back;
//   node assistants-attack.cjs <base url> endpoint: 10 connections, each GETting /api/search with common
//     words, a new offset and limit each time.
const autocannon = require('autocannon');
const [base, kind] = [process.argv[2], process.argv[3]];
const WORDS = ['the', 'astro', 'component', 'config', 'page', 'content', 'build', 'data'];
const requests = [];
let n = 0;
for (let round = 0; round < 400; round++) {
  if (kind === 'mcp') {
    const batch = [];
    for (let i = 0; i < 10; i++, n++) {
      const args = { query: `${WORDS[n % WORDS.length]} ${WORDS[(n * 7 + 3) % WORDS.length]}`, offset: n % 201, limit: 25 - (n % 5) };
      batch.push({ jsonrpc: '2.0', id: n, method: 'tools/call', params: { name: 'search', arguments: args } });
    }
    requests.push({ method: 'POST', path: '/mcp', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-03-26' }, body: JSON.stringify(batch) });
  } else {
    for (let i = 0; i < 10; i++, n++) requests.push({ method: 'GET', path: `/api/search?q=${WORDS[n % WORDS.length]}&offset=${n % 201}&limit=${25 - (n % 5)}` });
  }
}
autocannon({ url: base, connections: kind === 'mcp' ? 2 : 10, pipelining: 1, duration: 3600, requests }, () => {});
console.log('ready');
