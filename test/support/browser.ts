import { type Browser, chromium } from 'playwright-core';

/** Flags for a quiet headless Chromium in a container. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Launches headless Chromium at `executablePath` with {@link CHROMIUM_FLAGS} and `extra` flags. */
export function launchChromium(executablePath: string, extra: readonly string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath, args: [...CHROMIUM_FLAGS, ...extra] });
}
