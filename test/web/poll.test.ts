/**
 * The web app's polling rules as pure functions of status and elapsed time: a generation's (SPEC: every 3 seconds, for
 * up to 5 minutes), and evidence coming in (every 3 seconds, then every 15 after 2 minutes, up to 30 minutes).
 */
import { importInProgress, INGESTION_POLLING, ingestionBusy, ingestionStep, inProgress, POLLING, pollStep } from '../../web/src/poll';

test('the spec’s figures', () => {
  expect(POLLING).toEqual({ intervalMs: 3_000, maxMs: 300_000 });
});

test.each(['queued', 'generating', 'checking'])('%s is waited on, 3 s at a time', (status) => {
  expect(inProgress(status)).toBe(true);
  expect(pollStep(status, 0)).toEqual({ next: 'wait', inMs: 3_000 });
  expect(pollStep(status, 296_999)).toEqual({ next: 'wait', inMs: 3_000 });
});

test.each(['complete', 'failed', 'verified', 'quality_unavailable'])('%s stops the polling', (status) => {
  expect(inProgress(status)).toBe(false);
  expect(pollStep(status, 0)).toEqual({ next: 'stop' });
  expect(pollStep(status, 10 * 60_000)).toEqual({ next: 'stop' });
});

test('no check is scheduled past 5 minutes: the last one is at most 300 s after the start, then the timeout', () => {
  expect(pollStep('generating', 297_000)).toEqual({ next: 'wait', inMs: 3_000 });
  expect(pollStep('generating', 297_001)).toEqual({ next: 'timeout' });
  let elapsed = 0;
  let checks = 1;
  for (let step = pollStep('generating', elapsed); step.next === 'wait'; step = pollStep('generating', elapsed)) {
    elapsed += step.inMs;
    checks++;
  }
  expect(elapsed).toBe(300_000);
  expect(checks).toBe(101);
});

describe('evidence coming in', () => {
  const summary = (items_processing: number, imports_in_progress: number) => ({ items_processing, imports_in_progress });

  test('the evidence is waited on while an item is processing or an import is under way, and only then', () => {
    expect(ingestionBusy(summary(0, 0))).toBe(false);
    expect(ingestionBusy(summary(3, 0))).toBe(true);
    expect(ingestionBusy(summary(0, 1))).toBe(true);
  });

  test.each(['awaiting_upload', 'queued', 'processing'])('an import %s is waited on', (status) =>
    expect(importInProgress(status)).toBe(true),
  );

  test.each(['complete', 'failed'])('an import %s is not', (status) => expect(importInProgress(status)).toBe(false));

  test('nothing in progress stops the watching at once, however long it has run', () => {
    expect(ingestionStep(false, 0)).toEqual({ next: 'stop' });
    expect(ingestionStep(false, 60 * 60_000)).toEqual({ next: 'stop' });
  });

  test('every 3 s for the first 2 minutes, then every 15 s', () => {
    expect(ingestionStep(true, 0)).toEqual({ next: 'wait', inMs: 3_000 });
    expect(ingestionStep(true, 119_999)).toEqual({ next: 'wait', inMs: 3_000 });
    expect(ingestionStep(true, 120_000)).toEqual({ next: 'wait', inMs: 15_000 });
  });

  test('no check is scheduled past 30 minutes: the last at most 30 minutes after the start, then the timeout', () => {
    expect(INGESTION_POLLING.maxMs).toBe(30 * 60_000);
    expect(ingestionStep(true, 30 * 60_000 - 15_000)).toEqual({ next: 'wait', inMs: 15_000 });
    expect(ingestionStep(true, 30 * 60_000 - 14_999)).toEqual({ next: 'timeout' });
    let elapsed = 0;
    let checks = 1;
    for (let step = ingestionStep(true, elapsed); step.next === 'wait'; step = ingestionStep(true, elapsed)) {
      elapsed += step.inMs;
      checks++;
    }
    expect(elapsed).toBe(30 * 60_000);
    expect(checks).toBe(1 + 40 + 112);
  });
});
