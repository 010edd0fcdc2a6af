import { chromium, type Browser } from 'playwright-core';

/** How this machine must start Chromium (/work/.library/env/machines/node.md); Playwright adds a fresh profile dir. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Debian's Chromium (/usr/bin/chromium), headless, driven by playwright-core. `args` adds switches, such as
 * `--host-resolver-rules=MAP docs.example.test 127.0.0.1` to reach a local server under a name that is not localhost.
 */
export function launchChromium(args: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: [...CHROMIUM_ARGS, ...args] });
}
