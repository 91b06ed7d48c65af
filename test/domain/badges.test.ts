import { feedbackBadge, type FeedbackStatus } from '#core/domain/badges';

describe('feedbackBadge', () => {
  test.each([
    ['accepted', 'agreed', 'Agreed', 'green'],
    ['rejected', 'disagreed', 'Disagreed', 'red'],
    ['regenerated', 'regenerated', 'Regenerated', 'blue'],
    ['edited', 'edited', 'Edited', 'amber'],
    ['needs_revision', 'needs_revision', 'Needs Revision', 'purple'],
    ['viewed', 'viewed', 'Viewed', 'gray'],
  ] as const)('%s → %s (%s, %s)', (status, key, label, color) => {
    expect(feedbackBadge(status)).toEqual({ key, label, color });
  });

  test('no feedback, no badge; an unknown status is a RangeError', () => {
    expect(feedbackBadge(null)).toBeNull();
    expect(() => feedbackBadge('liked' as FeedbackStatus)).toThrow(RangeError);
    expect(() => feedbackBadge('toString' as FeedbackStatus)).toThrow(RangeError);
  });

  test('callers get a copy, the table stays intact', () => {
    feedbackBadge('accepted')!.label = 'changed';
    expect(feedbackBadge('accepted')!.label).toBe('Agreed');
  });
});
