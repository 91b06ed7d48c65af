/**
 * The administrator's path in Chromium against the twin (npm run test:web): sign-in with the authenticator
 * code, the prompt types as the admin's home, a new version of a type, the side-by-side diff of the previous
 * current version with its change marked in text, a rollback, deactivating and re-activating the type; then
 * the queue stats with the shedder, audit health, users with their AI usage and the jobs. axe-core on every
 * screen. Screenshots: reports/web/admin-*.png.
 */
import type { Browser, Page } from 'playwright-core';
import { demoUser } from '#core/seed/demo';
import { TWIN_PASSWORD, TWIN_TOTP_SECRET } from '../../lib/twin/identity/provider';
import { totpCode } from '../../lib/twin/identity/totp';
import { useTwin } from '../support/twin';
import { launchChromium, screenshot, seriousViolations } from './browser';

jest.setTimeout(90_000);

const t = useTwin();
const admin = demoUser('admin', '');
const TYPE = 'analysis_summary';
const ADDED = 'Browser test: keep each finding to two sentences.';
let browser: Browser;
let page: Page;
/** the type's current version before the test created one */
let previous: number;

beforeAll(async () => {
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
});
afterAll(async () => {
  await browser?.close();
});

const expectAccessible = async () => expect(await seriousViolations(page)).toEqual([]);
const status = () => page.locator('p.note[role="status"]');
const figure = (name: string) => page.locator('.figures div', { hasText: name }).locator('dd');
/** waits for the type's state figure to read `state` (the list reloads after the change is confirmed) */
const stateIs = (state: 'Active' | 'Deactivated') =>
  figure('State')
    .filter({ hasText: new RegExp(`^${state}$`) })
    .waitFor();

const signIn = async (on: Page) => {
  await on.goto(t.twin.url);
  await on.getByLabel('Email').fill(admin.email);
  await on.getByLabel('Password').fill(TWIN_PASSWORD);
  await on.getByRole('button', { name: 'Sign in', exact: true }).click();
  await on.getByLabel('The code from your authenticator app').fill(totpCode(TWIN_TOTP_SECRET));
  await on.getByRole('button', { name: 'Continue' }).click();
  await on.getByRole('heading', { name: 'Prompt types' }).waitFor();
};

test('a wrong authenticator code is refused, and the right one then signs in without starting again', async () => {
  expect(admin.email).toBe('admin@operators.example');
  await page.goto(t.twin.url);
  await page.getByLabel('Email').fill(admin.email);
  await page.getByLabel('Password').fill(TWIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  const right = totpCode(TWIN_TOTP_SECRET);
  await page.getByLabel('The code from your authenticator app').fill(right === '000000' ? '111111' : '000000');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('alert').waitFor();
  await expect(page.getByLabel('The code from your authenticator app').inputValue()).resolves.toBe('');
  await page.getByLabel('The code from your authenticator app').fill(totpCode(TWIN_TOTP_SECRET));
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'Prompt types' }).waitFor();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByLabel('Email').waitFor();
});

test('the admin signs in with the authenticator code and lands on the prompt types', async () => {
  await signIn(page);
  await expect(page.getByRole('link', { name: 'Administration' }).isVisible()).resolves.toBe(true);
  const rows = page.locator('tbody tr');
  await rows.first().waitFor();
  await expect(rows.count()).resolves.toBe(7);
  await expect(page.locator('tbody').textContent()).resolves.toContain('Active');
  await expectAccessible();
  await screenshot(page, 'admin-01-prompt-types');
});

test('a prompt type shows its state, current version and versions', async () => {
  await page.getByRole('link', { name: 'Analysis: summary' }).click();
  await page.locator('ol.cards li').first().waitFor();
  previous = Number(await figure('Current version').textContent());
  expect(previous).toBeGreaterThanOrEqual(1);
  await expect(figure('State').textContent()).resolves.toBe('Active');
  await expect(page.locator('ol.cards li', { hasText: `Version ${previous}` }).textContent()).resolves.toContain('Current');
  await expectAccessible();
  await screenshot(page, 'admin-02-prompt-type');
});

test('a new version, started from the current content, becomes the current one in the list', async () => {
  await page.getByRole('button', { name: 'Create a new version' }).click();
  const system = page.getByLabel('System prompt');
  await system.waitFor();
  const text = await system.inputValue();
  expect(text).toMatch(/\S/);
  // the first line changed: the diff pairs it with the old first line as a changed row
  await system.fill(text.replace(/^[^\n]*/, (line) => `${line} ${ADDED}`));
  await page.getByLabel('What this version changes (optional, shown on its card)').fill('Shorter findings for the summary.');
  await expectAccessible();
  await page.getByRole('button', { name: 'Save the new version' }).click();
  await status()
    .filter({ hasText: `Version ${previous + 1} was created and is the current version` })
    .waitFor();
  const created = page.locator('ol.cards li').first();
  await expect(created.textContent()).resolves.toMatch(new RegExp(`^Version ${previous + 1} Current`));
  // each card says what its version changed, not the same start of the template on every card: the note, and the lines
  await expect(created.locator('.change-note').textContent()).resolves.toBe('“Shorter findings for the summary.”');
  await expect(created.locator('.preview').textContent()).resolves.toMatch(
    new RegExp(`^1 line changed from version ${previous}, first: “.*${ADDED}`),
  );
  await expect(figure('Current version').textContent()).resolves.toBe(String(previous + 1));
  await screenshot(page, 'admin-03-new-version');
});

test('the previous current version in full, and its diff against the new one with the changed line marked', async () => {
  await page.getByRole('link', { name: `Version ${previous}`, exact: true }).click();
  await page.getByRole('heading', { name: `Compared with the current version (${previous + 1})` }).waitFor();
  await expect(page.locator('pre.prompt').first().textContent()).resolves.toMatch(/\S/);
  const changed = page.locator('table.diff tr.diff-changed', { hasText: ADDED });
  await expect(changed.count()).resolves.toBe(1);
  await expect(changed.locator('.mark').textContent()).resolves.toBe('~changed');
  await expect(changed.locator('.mark [aria-hidden="true"]').textContent()).resolves.toBe('~');
  await expect(changed.locator('.mark .visually-hidden').textContent()).resolves.toBe('changed');
  const [left, right] = await changed.locator('td.text').allTextContents();
  expect(left).not.toContain(ADDED);
  expect(right).toContain(ADDED);
  await expectAccessible();
  await screenshot(page, 'admin-04-version-diff');
});

test('rolling back asks first, then restores the version as a new current one', async () => {
  await page.getByRole('button', { name: `Roll back to version ${previous}` }).click();
  await page.getByText(`Restore version ${previous}'s content as a new version`).waitFor();
  await expectAccessible();
  await page.getByRole('button', { name: 'Yes, roll back' }).click();
  await status()
    .filter({ hasText: `Version ${previous + 2} restores the content of version ${previous}` })
    .waitFor();
  await page.getByText(`Version ${previous} has the same content as the current version.`).waitFor();
  await screenshot(page, 'admin-05-rolled-back');
  await page.getByRole('link', { name: 'See the versions' }).click();
  const restored = page.locator('ol.cards li').first();
  await expect(restored.textContent()).resolves.toContain(`Version ${previous + 2} Current Restored from version ${previous}`);
});

test('deactivating asks first and marks the type Deactivated in text; activating restores it', async () => {
  await page.getByRole('button', { name: 'Deactivate' }).click();
  await page.getByRole('button', { name: 'Yes, deactivate' }).click();
  await status()
    .filter({ hasText: `${TYPE} is deactivated` })
    .waitFor();
  await stateIs('Deactivated');
  await expectAccessible();
  await screenshot(page, 'admin-06-deactivated');
  await page.getByRole('button', { name: 'Activate' }).click();
  await status()
    .filter({ hasText: `${TYPE} is active` })
    .waitFor();
  await stateIs('Active');
  await page.getByRole('link', { name: 'Prompt types' }).first().click();
  await expect(page.locator('tbody tr', { hasText: 'Analysis: summary' }).textContent()).resolves.toContain('Active');
});

test('versions past the newest 20: Show more reaches the first one', async () => {
  const token = await t.token('admin', '');
  const type = 'analysis_gap';
  const current = await t.call('GET', `/api/admin/prompts/history?prompt_type=${type}&limit=1`, token);
  const latest = Number(current.body.latest_version);
  const detail = await t.call('GET', `/api/admin/prompts/history?prompt_type=${type}&version=${latest}`, token);
  for (let n = 1; n <= 21; n++) {
    const made = await t.call('POST', '/api/admin/prompts', token, {
      prompt_type: type,
      system_prompt: `${detail.body.system_prompt}\nBrowser test revision ${n}.`,
      user_prompt_template: detail.body.user_prompt_template,
    });
    expect([made.status, made.status === 201 ? 'created' : made.body]).toEqual([201, 'created']);
  }
  await page.goto(`${t.twin.url}/admin/prompts/${type}`);
  const cards = page.locator('ol.cards > li');
  await cards.first().waitFor();
  await expect(cards.count()).resolves.toBe(20);
  await page.getByRole('button', { name: 'Show more' }).click();
  await page.locator('ol.cards > li', { hasText: /^Version 1\b/ }).waitFor();
  await expect(cards.count()).resolves.toBe(latest + 21);
  await expect(page.getByRole('button', { name: 'Show more' }).count()).resolves.toBe(0);
  await expect(
    page
      .locator('ol.cards > li', { hasText: /^Version 1\b/ })
      .locator('.preview')
      .textContent(),
  ).resolves.toMatch(/^First version: /);
  await expectAccessible();
  await screenshot(page, 'admin-06b-older-versions');
});

const open = async (link: string, ready: string) => {
  await page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: link }).click();
  await page.getByRole('heading', { name: link, level: 1 }).waitFor();
  await page.locator(ready).first().waitFor();
};

test('queue stats with the shedder state', async () => {
  await open('Queue stats', '#shedder-heading');
  await expect(page.locator('table').textContent()).resolves.toMatch(/Generation.*Quality checks/);
  await expect(page.locator('.badge').first().textContent()).resolves.toMatch(/Not shedding|Shedding quality checks|Disabled/);
  await expectAccessible();
  await screenshot(page, 'admin-07-queue-stats');
});

test('audit health', async () => {
  await open('Audit health', '.badge');
  await expect(page.locator('main .badge').first().textContent()).resolves.toMatch(/Healthy|Degraded/);
  await expectAccessible();
  await screenshot(page, 'admin-08-audit-health');
});

test('users by organization with their AI usage', async () => {
  await open('Users', 'table');
  await expect(page.locator('main').textContent()).resolves.toContain(admin.email);
  await page.getByRole('columnheader', { name: 'AI calls' }).first().waitFor();
  await expectAccessible();
  await screenshot(page, 'admin-09-users');
});

test('jobs with their newest run and the analyses in progress', async () => {
  await open('Jobs', 'table');
  await page.getByRole('heading', { name: 'Analyses in progress' }).waitFor();
  await expect(page.locator('tbody tr').count()).resolves.toBeGreaterThan(0);
  await expectAccessible();
  await screenshot(page, 'admin-10-jobs');
});

test('375 px wide: the prompt types and a diff scroll only inside their tables, and stay accessible', async () => {
  const narrow = await browser.newContext({ viewport: { width: 375, height: 812 }, isMobile: true });
  const small = await narrow.newPage();
  try {
    await signIn(small);
    await expect(small.evaluate<number>('document.documentElement.scrollWidth')).resolves.toBeLessThanOrEqual(375);
    await small.goto(`${t.twin.url}/admin/prompts/${TYPE}/versions/${previous + 1}`);
    // the version the test created differs from the current one (the rollback restored the content before it)
    await small.locator('table.diff').first().waitFor();
    await expect(small.evaluate<number>('document.documentElement.scrollWidth')).resolves.toBeLessThanOrEqual(375);
    expect(await seriousViolations(small)).toEqual([]);
    await screenshot(small, 'admin-11-diff-375px');
  } finally {
    await narrow.close();
  }
});
