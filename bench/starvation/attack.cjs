// The attackers of `bench/starvation`: autocannon with 2 connections, each sending its next request as soon as the
// last is answered, every request a new cache key (common words, a new offset and limit). Runs until killed.
// node bench/starvation/attack.cjs <base url> <facets: 0|1>
const autocannon = require('autocannon');
const [base, facets] = [process.argv[2], process.argv[3] === '1'];
const WORDS = ['the', 'astro', 'component', 'config', 'page', 'content', 'build', 'data'];
const requests = [];
for (const q of WORDS) {
  for (let limit = 25; limit > 20; limit--) {
    for (let offset = 0; offset <= 200; offset++) {
      requests.push({ method: 'GET', path: `/api/search?q=${q}&offset=${offset}&limit=${limit}${facets ? '&facets=type,tags' : ''}` });
    }
  }
}
// Deterministically shuffled, so both connections ask for every word and every depth from the start.
let seed = 7;
for (let i = requests.length - 1; i > 0; i--) {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  const j = seed % (i + 1);
  [requests[i], requests[j]] = [requests[j], requests[i]];
}
autocannon({ url: base, connections: 2, pipelining: 1, duration: 3600, requests }, () => {});
console.log('ready');
