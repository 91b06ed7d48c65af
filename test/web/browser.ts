/**
 * Chromium for the browser suites (npm run test:web): the machine's own (Debian's `chromium`, CHROMIUM_PATH
 * to use another), driven by playwright-core; Playwright's browser download is not used. Screenshots go to
 * reports/web/ (CI keeps them as artifacts); axe-core checks each screen for serious or critical violations.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type Page, type Request, type Route } from 'playwright-core';
import { PROJECT_ROOT } from '../../lib/paths';
import { TWIN_PASSWORD } from '../../lib/twin/identity/provider';

export const SCREENSHOTS = join(PROJECT_ROOT, 'reports', 'web');

export const launchChromium = (): Promise<Browser> =>
  chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });

/** A full-page screenshot into reports/web/<name>.png; its path. */
export const screenshot = async (page: Page, name: string): Promise<string> => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
};

/** axe-core's serious and critical violations on the page as it is now (WCAG 2.1 A and AA rules), as readable lines. */
export const seriousViolations = async (page: Page): Promise<string[]> => {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
};

/** axe-core finds no serious or critical violation on the page as it is now. */
export const expectAccessible = async (page: Page): Promise<void> => expect(await seriousViolations(page)).toEqual([]);

/** Signs in on the sign-in screen the page shows, as a demo user without MFA (an investigator); resolves once signed in. */
export const signIn = async (page: Page, email: string): Promise<void> => {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(TWIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
};

/** Opens the folding panel under `heading` (the investigation's forms that add evidence) unless it is open already. */
export const unfold = async (page: Page, heading: string): Promise<void> => {
  const panel = page.locator('details.folding', { has: page.getByRole('heading', { name: heading, exact: true }) });
  if ((await panel.getAttribute('open')) === null) await panel.locator(':scope > summary').click();
};

/**
 * Holds the page's requests that `which` picks (the browser's uploads, an answer on its way as on a slow network)
 * until `release` is called: what the page shows meanwhile, and what a user does meanwhile, can be seen.
 */
export const holdRequests = async (page: Page, which: (request: Request) => boolean) => {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const held: Promise<void>[] = [];
  const handler = (route: Route) => {
    if (!which(route.request())) return route.fallback();
    const sent = released.then(() => route.continue());
    held.push(sent);
    return sent;
  };
  await page.route('**/*', handler);
  return {
    /** lets the held requests go on, and stops holding (once they have gone on) */
    release: async () => {
      release();
      await Promise.all(held);
      await page.unroute('**/*', handler);
    },
  };
};
