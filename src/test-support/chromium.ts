import { existsSync } from 'node:fs';

/** Debian's chromium package; `.ci/run` installs it when missing (as root). */
export const CHROMIUM = process.env.GROUNDCHECK_CHROMIUM ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

/** Flags that keep chromium off the network (no Google services, no updates) and able to run as root in a container. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  // Belt and braces: every host name other than 127.0.0.1 fails to resolve.
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
];

/** Says, once per test file, why its browser tests are skipped. */
export function warnWithoutChromium(what: string): void {
  if (!hasChromium) console.warn(`[${what}] SKIPPED: no browser at ${CHROMIUM}. Install Debian's chromium (apt-get install -y chromium) to run it.`);
}
