// Completes package-lock.json with the entries of optional platform packages (rollup's and others' native builds for
// other systems) that npm leaves out when its registry does not serve them, as this workspace's mirror does not:
// without them `npm ci` refuses the lockfile as out of sync. Run it after `npm install` changes the lockfile:
//   node scripts/complete-lockfile.mjs
// Each added entry carries its os/cpu/libc (read from the package name), so npm skips it on other systems.
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const packages = lock.packages;
const PLATFORM = /-(android|darwin|freebsd|linux|openbsd|openharmony|win32)-(arm64|arm|x64|ia32|loong64|ppc64|riscv64|s390x)(?:-(gnueabihf|musleabihf|eabi|gnu|musl|msvc))?$/;

/** Where node would find `name` from the package at `path`: its own node_modules, each ancestor's, then the root's. */
function resolvable(path, name) {
  for (let at = path; ; ) {
    if (packages[`${at ? `${at}/` : ''}node_modules/${name}`]) return true;
    if (!at) return false;
    const i = at.lastIndexOf('/node_modules/');
    at = i === -1 ? '' : at.slice(0, i);
  }
}

const added = [];
for (const [path, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    if (resolvable(path, name)) continue;
    const platform = PLATFORM.exec(name);
    const abi = platform?.[3] ?? '';
    packages[`node_modules/${name}`] = {
      version,
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      ...(platform ? { os: [platform[1]], cpu: [platform[2]] } : {}),
      ...(platform?.[1] === 'linux' && abi ? { libc: [abi.startsWith('musl') ? 'musl' : 'glibc'] } : {}),
    };
    added.push(`${name}@${version}`);
  }
}
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(added.length ? `[site-search] added ${added.length} lock entries: ${added.join(', ')}` : '[site-search] package-lock.json is complete');
