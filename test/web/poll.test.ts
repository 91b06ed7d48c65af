/** The web app's polling rule (SPEC: every 3 seconds, for up to 5 minutes), as a pure function of status and elapsed time. */
import { inProgress, POLLING, pollStep } from '../../web/src/poll';

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
