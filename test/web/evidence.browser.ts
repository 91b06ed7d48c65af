/**
 * Evidence coming in, in Chromium against the twin (npm run test:web; issue 26): a new investigation from the list,
 * a question and a topic (a duplicate topic refused), an evidence item with its text and three files dropped at once
 * (a progress bar each while they upload, then each file's state, then the item ready), the readiness summary beside
 * the evidence check, an upload that fails and is retried, a background document given to the AI and then not, a
 * small NDJSON import with an error by line, a .png refused with why, an analysis that completes, an item and a
 * document deleted after an inline confirmation; 375 px wide;
 * axe-core on every screen. Screenshots: reports/web/13-… to 17-….
 */
import type { Browser, Locator, Page, Route } from 'playwright-core';
import { DEMO_ORGANIZATION_IDS, demoUser } from '#core/seed/demo';
import { pdfFile, pngFile } from '../files/fixtures';
import { useTwin } from '../support/twin';
import { expectAccessible, holdRequests, launchChromium, screenshot, signIn, unfold } from './browser';

jest.setTimeout(120_000);

const t = useTwin();
const investigator = demoUser('investigator', DEMO_ORGANIZATION_IDS.northwind);
const TITLE = 'Browser test: the March purchase orders';
const QUESTION = 'Were the March purchase orders split to stay under the approval threshold?';
const ITEM = 'Receiving notes for order 1041';
/** evidence may take a while to be read and embedded on a busy two-core machine */
const READY_MS = 90_000;
let browser: Browser;
let page: Page;
/** the new investigation's page */
let investigationUrl: string;

beforeAll(async () => {
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
});
afterAll(async () => {
  await browser?.close();
});

interface DroppedFile {
  name: string;
  type: string;
  body: Buffer;
}

const FILES: DroppedFile[] = [
  {
    name: 'receiving-notes.txt',
    type: 'text/plain',
    body: Buffer.from('Dock 3 received the pallets of order 1041 on 14 March; the clerk counted 40 cartons against 38 invoiced.\n'),
  },
  {
    name: 'invoice-1041.pdf',
    type: 'application/pdf',
    body: pdfFile([
      ['Invoice 1041: USD 24,900 for office chairs, approved by R. Diaz on 12 March 2024.'],
      ['The March purchase orders were split to stay under the approval threshold of USD 25,000.'],
    ]),
  },
  { name: 'orders.csv', type: 'text/csv', body: Buffer.from('order,amount,approver\n1041,24900,R. Diaz\n1042,24800,R. Diaz\n') },
];

/** Drops `files` on `zone` as a user dragging them from the desktop would: dragenter, dragover, then drop, with one DataTransfer. */
const dropFiles = async (on: Page, zone: Locator, files: DroppedFile[]) => {
  const dataTransfer = await on.evaluateHandle(
    (list) => {
      // runs in the page (the test's own types have no DOM)
      const { DataTransfer } = globalThis as unknown as { DataTransfer: new () => { items: { add: (file: File) => void } } };
      const transfer = new DataTransfer();
      for (const f of list)
        transfer.items.add(new File([Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0))], f.name, { type: f.type }));
      return transfer;
    },
    files.map((f) => ({ name: f.name, type: f.type, base64: f.body.toString('base64') })),
  );
  for (const type of ['dragenter', 'dragover', 'drop']) await zone.dispatchEvent(type, { dataTransfer });
};

const evidenceZone = () => page.locator('.drop', { has: page.locator('#evidence-files') });
const added = (title: string) => page.locator('.added > li', { hasText: title });

test('a new investigation from the list lands on it', async () => {
  await page.goto(t.twin.url);
  await signIn(page, investigator.email);
  await page.getByRole('heading', { name: 'New investigation' }).waitFor();
  await page.getByLabel('Title').fill(TITLE);
  await page.getByLabel('Description (optional)').fill('Purchase orders of March 2024 that may have been split.');
  await page.getByRole('button', { name: 'Create investigation' }).click();
  await page.waitForURL(/\/investigations\/[0-9a-f-]{36}$/);
  investigationUrl = page.url();
  await page.getByRole('heading', { name: TITLE, level: 1 }).waitFor();
  await page.getByText('No evidence yet: add an item').waitFor();
  await expectAccessible(page);
});

test('a question and a topic added inline; the same topic again is refused with the reason', async () => {
  await page.getByLabel('New question').fill(QUESTION);
  await page.getByRole('button', { name: 'Add question' }).click();
  await page.locator('#questions-heading ~ .rows li', { hasText: QUESTION }).waitFor();
  await expect(page.getByLabel('New question').inputValue()).resolves.toBe('');
  for (const attempt of [1, 2]) {
    await page.getByLabel('New topic').fill('Approval thresholds');
    await page.getByRole('button', { name: 'Add topic' }).click();
    if (attempt === 1) await page.locator('#topics-heading ~ .rows li', { hasText: 'Approval thresholds' }).waitFor();
  }
  await page.getByRole('alert').filter({ hasText: 'already has a topic titled "Approval thresholds"' }).waitFor();
  await expect(page.locator('#topics-heading ~ .rows li').count()).resolves.toBe(1);
  // the new question is offered to the evidence form and to the analysis
  await page.getByRole('checkbox', { name: QUESTION }).waitFor();
});

test('an item with its text and three files dropped at once: a progress bar each, then each file’s state, then ready', async () => {
  await page.getByLabel('Title', { exact: true }).fill(ITEM);
  await page
    .getByLabel('Text', { exact: true })
    .fill('The clerk’s notes: order 1041 arrived short by two cartons; order 1042 followed a day later.');
  await page.getByLabel('Collected on').fill('2024-03-15');
  await page.getByRole('checkbox', { name: QUESTION }).check();
  await dropFiles(page, evidenceZone(), FILES);
  const chosen = page.getByRole('list', { name: 'Files to add' }).locator('li');
  await expect(chosen.allTextContents()).resolves.toEqual(FILES.map((f) => expect.stringContaining(f.name)));

  // the uploads (the browser's PUTs to storage) held, so their progress can be seen
  const held = await holdRequests(page, (request) => request.method() === 'PUT');
  try {
    await page.getByRole('button', { name: 'Add evidence' }).click();
    for (const f of FILES) await page.getByRole('progressbar', { name: `Uploading ${f.name}` }).waitFor();
    await expectAccessible(page);
    await screenshot(page, '13-add-evidence');
  } finally {
    await held.release();
  }
  const files = added(ITEM).locator('.file');
  // each file's state as the service reads it, in words (Uploaded → Reading → Read → Ready), never an upload problem
  for (const f of FILES)
    await files
      .filter({ hasText: f.name })
      .locator('.badge', { hasText: /Uploaded|Reading|Read|Ready/ })
      .waitFor();
  await expect(files.filter({ hasText: 'Upload failed' }).count()).resolves.toBe(0);
  await added(ITEM).locator('.row-head .badge', { hasText: 'Ready' }).waitFor({ timeout: READY_MS });
  for (const f of FILES) await files.filter({ hasText: f.name }).locator('.badge', { hasText: 'Ready' }).waitFor();
});

test('the evidence list shows the item ready, its detail its files; the summary beside the evidence check says all are ready', async () => {
  const row = page.locator('.rows.evidence > li', { hasText: ITEM });
  await row.locator('.badge', { hasText: 'Ready' }).waitFor();
  await row.getByRole('button', { name: `Details of ${ITEM}` }).click();
  const badges = row.locator('.detail .file .badge');
  await badges.nth(FILES.length - 1).waitFor();
  await expect(badges.allTextContents()).resolves.toEqual(FILES.map(() => 'Ready'));
  await expect(row.locator('.detail').textContent()).resolves.toMatch(/1 linked question/);
  await page.locator('#questions-heading ~ .rows li', { hasText: QUESTION }).getByText('1 linked evidence item').waitFor();
  const summary = page.locator('#check-heading ~ .ingestion');
  await summary.getByText(/^1 of 1 item ready\.$/).waitFor();
  await expectAccessible(page);
  await screenshot(page, '14-evidence-ready');
});

test('an upload that fails says so, and Retry sends it again by a new upload URL', async () => {
  const abort = (route: Route) => (route.request().method() === 'PUT' ? route.abort('connectionrefused') : route.fallback());
  await page.route('**/*', abort);
  try {
    await page.getByLabel('Title', { exact: true }).fill('Delivery note 1042');
    await dropFiles(page, evidenceZone(), [
      { name: 'delivery-1042.md', type: '', body: Buffer.from('# Delivery 1042\n\nReceived 15 March, 20 cartons.\n') },
    ]);
    await page.getByRole('button', { name: 'Add evidence' }).click();
    await added('Delivery note 1042').locator('.badge', { hasText: 'Upload failed' }).waitFor();
    await expect(added('Delivery note 1042').textContent()).resolves.toContain('Check your connection and retry');
  } finally {
    await page.unroute('**/*', abort);
  }
  await added('Delivery note 1042').getByRole('button', { name: 'Retry the upload of delivery-1042.md' }).click();
  await added('Delivery note 1042').locator('.row-head .badge', { hasText: 'Ready' }).waitFor({ timeout: READY_MS });
});

test('a background document given to the AI, chosen with the file picker; then kept from the AI', async () => {
  await page.getByLabel('Title (the file’s name if left empty)').fill('Purchasing policy');
  await page.getByLabel('Choose a file', { exact: true }).setInputFiles({
    name: 'purchasing-policy.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('Orders above USD 25,000 need the CFO.\n'),
  });
  await expect(page.getByLabel('Give this document to the AI').isChecked()).resolves.toBe(true);
  await page.getByRole('button', { name: 'Upload the document' }).click();
  await page.getByText('Uploaded: the evidence list shows it as it is read.').waitFor();
  const row = page.locator('.rows.evidence > li', { hasText: 'Purchasing policy' });
  const forAi = row.getByRole('checkbox', { name: 'Given to the AI (Purchasing policy)' });
  await expect(forAi.isChecked()).resolves.toBe(true);
  const saved = page.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().includes('/background-documents/'));
  await forAi.uncheck();
  expect((await saved).status()).toBe(200);
  await page.reload();
  await page.getByRole('heading', { name: TITLE, level: 1 }).waitFor();
  await expect(row.getByRole('checkbox', { name: 'Given to the AI (Purchasing policy)' }).isChecked()).resolves.toBe(false);
  await row.locator('.badge', { hasText: 'Ready' }).waitFor({ timeout: READY_MS });
});

test('a small NDJSON import: its lines read, then complete, with the line that has a problem listed', async () => {
  const lines = [
    { title: 'Email from R. Diaz', content: 'Please split the order in two so each stays under 25k.', collected_at: '2024-03-10' },
    {
      title: 'Approval log',
      attachments: [{ file_name: 'approvals.csv', content_type: 'text/csv', text: 'order,approver\n1041,R. Diaz\n' }],
    },
    { content: 'A line without its title.' },
  ];
  // the page was read again with evidence in it: the forms that add evidence are folded away until asked for
  await unfold(page, 'Import evidence from a file');
  await page.getByLabel('Choose a file to import').setInputFiles({
    name: 'march.ndjson',
    mimeType: 'application/octet-stream',
    buffer: Buffer.from(`${lines.map((l) => JSON.stringify(l)).join('\n')}\n`),
  });
  await expect(page.getByLabel('Format').inputValue()).resolves.toBe('ndjson');
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  const progress = page.locator('.import');
  await progress.locator('.badge', { hasText: 'Complete' }).waitFor({ timeout: READY_MS });
  await expect(progress.textContent()).resolves.toMatch(/3 (of 3 )?lines read, 1 line with errors/);
  const errors = page.getByRole('region', { name: 'Lines with errors' }).locator('tbody tr');
  await expect(errors.count()).resolves.toBe(1);
  await expect(errors.first().textContent()).resolves.toMatch(/^3title/);
  await page.locator('.rows.evidence > li', { hasText: 'Email from R. Diaz' }).waitFor();
  await page.locator('.rows.evidence > li', { hasText: 'Approval log' }).waitFor();
  await expectAccessible(page);
  await screenshot(page, '15-import');
});

test('a .png is refused with why, marked among the files; removed, the item goes in', async () => {
  await unfold(page, 'Add evidence');
  await page.getByLabel('Title', { exact: true }).fill('Photo of the dock');
  await dropFiles(page, evidenceZone(), [
    { name: 'dock.png', type: 'image/png', body: pngFile() },
    { name: 'dock-notes.txt', type: 'text/plain', body: Buffer.from('Photo taken at dock 3 on 14 March.\n') },
  ]);
  await page.getByRole('button', { name: 'Add evidence' }).click();
  const refusal = page.getByRole('alert').filter({ hasText: 'Only PDF, Word (.docx), e-mail (.eml) and plain text' });
  await refusal.waitFor();
  await expect(refusal.textContent()).resolves.toContain('Remove the files marked below');
  const png = page.getByRole('list', { name: 'Files to add' }).locator('li', { hasText: 'dock.png' });
  await png.getByText('Cannot be read').waitFor();
  await expect(png.textContent()).resolves.toContain('Text cannot be extracted from a file named "dock.png"');
  await expectAccessible(page);
  await screenshot(page, '16-refused-file');
  await png.getByRole('button', { name: 'Remove dock.png' }).click();
  await page.getByRole('button', { name: 'Add evidence' }).click();
  await added('Photo of the dock').locator('.row-head .badge').waitFor();
  await expect(page.locator('#add-evidence-heading ~ [role="alert"]').count()).resolves.toBe(0);
});

test('an analysis of the new evidence completes', async () => {
  await page.getByLabel('Analysis', { exact: true }).selectOption('question');
  await page.getByRole('button', { name: 'Check the evidence' }).click();
  await page.getByRole('heading', { name: 'Evidence check' }).waitFor();
  await expect(page.locator('.assessment').textContent()).resolves.toMatch(/Linked to the question1/);
  await page.getByRole('button', { name: 'Generate analysis' }).click();
  await page.waitForURL(/\/analyses\//);
  await page.getByRole('heading', { name: 'Answer', exact: true }).waitFor({ timeout: READY_MS });
});

test('a citation of the PDF names its page, opens the passage marked in its document, and the file at that page', async () => {
  await page.locator('details summary').click();
  const cited = page.getByRole('button', { name: /\(.*invoice-1041\.pdf, page 1\)$/ }).first();
  await cited.waitFor();
  await expect(cited.textContent()).resolves.toMatch(/^\[\d+, p\. 1\] open cited passage \d+ of finding \d+/);
  await cited.click();
  const panel = page.locator('.side-panel');
  await panel.getByText(/^Page 1 · Passage 1 · /).waitFor();
  await expect(panel.locator('.document mark').textContent()).resolves.toContain('Invoice 1041: USD 24,900');
  await expectAccessible(page);
  await screenshot(page, '15b-citation-in-document');
  const [file] = await Promise.all([
    page.waitForEvent('popup'),
    panel.getByRole('button', { name: 'Open the original invoice-1041.pdf at page 1' }).click(),
  ]);
  const url = new URL(file.url());
  expect(url.hash).toBe('#page=1');
  url.hash = '';
  const served = await fetch(url);
  expect([served.status, served.headers.get('content-type')]).toEqual([200, 'application/pdf']);
  await file.close();
  await page.getByRole('link', { name: 'Back to the investigation' }).click();
  await page.locator('#analyses-heading ~ .rows li').first().waitFor();
});

test('an item and a background document deleted, each after an inline confirmation', async () => {
  await page.goto(investigationUrl);
  await page.getByRole('heading', { name: TITLE, level: 1 }).waitFor();
  for (const [title, button] of [
    ['Photo of the dock', 'Delete this item'],
    ['Purchasing policy', 'Delete this document'],
  ] as const) {
    const row = page.locator('.rows.evidence > li', { hasText: title });
    await row.getByRole('button', { name: `Details of ${title}` }).click();
    await row.getByRole('button', { name: button }).click();
    await row.getByRole('group', { name: button }).getByText('This cannot be undone.').waitFor();
    await row.getByRole('button', { name: 'Yes, delete it' }).click();
    await row.waitFor({ state: 'detached' });
  }
  await expectAccessible(page);
});

test('375 px wide: the investigation with its evidence forms, no sideways scrolling, still accessible', async () => {
  const narrow = await browser.newContext({ viewport: { width: 375, height: 812 }, isMobile: true });
  const small = await narrow.newPage();
  try {
    await small.goto(investigationUrl);
    await signIn(small, investigator.email);
    await small.getByRole('heading', { name: 'Add evidence' }).waitFor();
    await small.locator('.rows.evidence > li').first().waitFor();
    for (const form of ['Add evidence', 'Add a background document', 'Import evidence from a file']) await unfold(small, form);
    await expect(small.evaluate<number>('document.documentElement.scrollWidth')).resolves.toBeLessThanOrEqual(375);
    await expectAccessible(small);
    await screenshot(small, '17-evidence-375px');
  } finally {
    await narrow.close();
  }
});
