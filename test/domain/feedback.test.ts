import fc from 'fast-check';
import {
  FEEDBACK_ACTIONS,
  judgmentEnabled,
  missingGates,
  nextFeedbackStatus,
  regenerationDraft,
  REGENERATION_REASONS,
  STATUS_OF_ACTION,
  type FeedbackStatus,
} from '#core/domain/feedback';
import { GENERATION_STATUSES } from '#core/domain/generation-status';

describe('feedback status', () => {
  test("each action stores the spec's status (agree → accepted, disagree → rejected, unsure → needs_revision)", () => {
    expect(STATUS_OF_ACTION).toEqual({
      agree: 'accepted',
      disagree: 'rejected',
      unsure: 'needs_revision',
      regenerate: 'regenerated',
      edit: 'edited',
      view: 'viewed',
    });
  });

  test('the latest action wins, except that a view only fills an empty status', () => {
    const statuses = fc.constantFrom<FeedbackStatus | null>(null, ...Object.values(STATUS_OF_ACTION));
    fc.assert(
      fc.property(statuses, fc.constantFrom(...FEEDBACK_ACTIONS), (current, action) => {
        const next = nextFeedbackStatus(current, action);
        if (action === 'view') expect(next).toBe(current ?? 'viewed');
        else expect(next).toBe(STATUS_OF_ACTION[action]);
      }),
    );
    expect(nextFeedbackStatus('accepted', 'view')).toBe('accepted');
    expect(nextFeedbackStatus('accepted', 'disagree')).toBe('rejected');
  });
});

describe('gates', () => {
  const at = '2026-11-01T10:00:00.000Z';
  test('missing gates are named in order; judgment opens with both and output to judge', () => {
    expect(missingGates({ detail_reviewed_at: null, citation_checked_at: null })).toEqual(['detail_reviewed', 'citation_checked']);
    expect(missingGates({ detail_reviewed_at: at, citation_checked_at: null })).toEqual(['citation_checked']);
    expect(missingGates({ detail_reviewed_at: at, citation_checked_at: at })).toEqual([]);
    for (const status of GENERATION_STATUSES) {
      const open = ['complete', 'checking', 'verified', 'quality_unavailable'].includes(status);
      expect(judgmentEnabled(status, { detail_reviewed_at: at, citation_checked_at: at })).toBe(open);
      expect(judgmentEnabled(status, { detail_reviewed_at: at, citation_checked_at: null })).toBe(false);
    }
  });
});

describe('regeneration draft (what Unsure pre-populates)', () => {
  const clean = { validation_status: 'valid', faithfulness_score: 0.9, coverage_score: 0.9 };

  test('the reason follows the weakest signal; the direction is the note, else a suggestion', () => {
    expect(regenerationDraft({ ...clean, validation_status: 'citations_removed' }).reason).toBe('inaccurate_conclusions');
    expect(regenerationDraft({ ...clean, faithfulness_score: 0.5 }).reason).toBe('inaccurate_conclusions');
    expect(regenerationDraft({ ...clean, coverage_score: 0.4 }).reason).toBe('missing_evidence');
    expect(regenerationDraft({ ...clean, faithfulness_score: 0.6, coverage_score: 0.4 }).reason).toBe('missing_evidence');
    expect(regenerationDraft({ ...clean, faithfulness_score: 0.4, coverage_score: 0.6 }).reason).toBe('inaccurate_conclusions');
    expect(regenerationDraft(clean).reason).toBe('other');
    expect(regenerationDraft({ validation_status: null, faithfulness_score: null, coverage_score: null }).reason).toBe('other');
    expect(regenerationDraft(clean, '  Compare with the bank statements.  ').direction).toBe('Compare with the bank statements.');
    expect(regenerationDraft(clean, '   ').direction.length).toBeGreaterThan(10);
  });

  test('always a reason from the dropdown and a non-empty direction', () => {
    const score = fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null });
    fc.assert(
      fc.property(
        fc.constantFrom(null, 'valid', 'citations_removed', 'uncited_findings'),
        score,
        score,
        fc.option(fc.string(), { nil: undefined }),
        (validation_status, faithfulness_score, coverage_score, note) => {
          const draft = regenerationDraft({ validation_status, faithfulness_score, coverage_score }, note);
          expect(Object.keys(REGENERATION_REASONS)).toContain(draft.reason);
          expect(draft.direction.trim()).not.toBe('');
        },
      ),
    );
  });
});
