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

/** Debian's Chromium (/usr/bin/chromium), headless, driven by playwright-core. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
}
