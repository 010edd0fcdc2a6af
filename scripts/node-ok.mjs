// Exits 0 when the Node version given (default: this one) satisfies package.json `engines.node`, 1 otherwise, so
// env.sh and the README say the one minimum package.json declares. Plain JavaScript for any Node the machine has: the
// range's forms are those package.json uses (`^X.Y.Z`, `>=X.Y.Z`, joined by `||`).
import { readFileSync } from 'node:fs';

const range = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).engines.node;
const [major, minor, patch] = (process.argv[2] ?? process.versions.node).split('.').map(Number);
const atLeast = (min) => major !== min[0] ? major > min[0] : minor !== min[1] ? minor > min[1] : patch >= min[2];
const ok = range.split('||').some((part) => {
  const [, op, version] = /^\s*(\^|>=)(\d+\.\d+\.\d+)\s*$/.exec(part) ?? [];
  if (!op) throw new Error(`[site-search] scripts/node-ok.mjs cannot read engines.node "${range}"`);
  const min = version.split('.').map(Number);
  return atLeast(min) && (op === '>=' || major === min[0]);
});
process.exit(ok ? 0 : 1);
