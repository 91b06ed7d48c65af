import fc from 'fast-check';
import type { AnalysisType, FeedbackAction, GenerationStatus } from '#core/db/schema';
import { ANALYSIS_TYPES } from '#core/domain/analysis-types';
import { FEEDBACK_ACTIONS, REGENERATION_REASONS } from '#core/domain/feedback';
import { feedbackMetrics, rate, weekStart, type MetricsAnalysis, type MetricsFeedback } from '#core/domain/feedback-metrics';
import { GENERATION_STATUSES } from '#core/domain/generation-status';

const at = (iso: string) => new Date(iso);

describe('weekStart and rate', () => {
  test('weeks start on Monday 00:00 UTC', () => {
    expect(weekStart(at('2026-11-18T12:00:00Z')).toISOString()).toBe('2026-11-16T00:00:00.000Z');
    expect(weekStart(at('2026-11-16T00:00:00Z')).toISOString()).toBe('2026-11-16T00:00:00.000Z');
    expect(weekStart(at('2026-11-15T23:59:59Z')).toISOString()).toBe('2026-11-09T00:00:00.000Z');
  });
  test('a rate is rounded to 4 decimals, null without a denominator', () => {
    expect(rate(2, 3)).toBe(0.6667);
    expect(rate(0, 0)).toBeNull();
    expect(rate(0, 5)).toBe(0);
  });
});

test('a hand-computed example: every figure', () => {
  const analyses: MetricsAnalysis[] = [
    { analysis_id: 'A1', analysis_type: 'question', generation_status: 'verified' },
    { analysis_id: 'A2', analysis_type: 'question', generation_status: 'complete' },
    { analysis_id: 'A3', analysis_type: 'summary', generation_status: 'quality_unavailable' },
    { analysis_id: 'A4', analysis_type: 'topic', generation_status: 'failed' },
    { analysis_id: 'A5', analysis_type: 'gap', generation_status: 'checking' },
  ];
  const f = (analysis_id: string, user_id: string, action: FeedbackAction, iso: string, reason: string | null = null): MetricsFeedback => ({
    analysis_id,
    user_id,
    action,
    reason,
    created_at: at(iso),
  });
  const feedback = [
    f('A1', 'u1', 'agree', '2026-11-17T09:00:00Z'),
    f('A1', 'u2', 'disagree', '2026-11-10T09:00:00Z', 'too thin'),
    f('A1', 'u2', 'agree', '2026-11-11T09:00:00Z'),
    f('A2', 'u1', 'unsure', '2026-10-01T09:00:00Z'),
    f('A2', 'u1', 'regenerate', '2026-10-01T10:00:00Z', 'missing_evidence'),
    f('A3', 'u1', 'disagree', '2026-08-01T09:00:00Z', 'wrong'),
    f('A3', 'u1', 'regenerate', '2026-08-01T10:00:00Z', 'too_vague'),
    f('A3', 'u2', 'regenerate', '2026-11-16T00:00:00Z', 'missing_evidence'),
    f('A5', 'u1', 'edit', '2026-10-20T09:00:00Z'),
    f('A5', 'u1', 'view', '2026-10-20T09:05:00Z'),
    f('A4', 'u1', 'view', '2026-11-17T09:00:00Z'),
  ];
  const m = feedbackMetrics({ analyses, feedback, now: at('2026-11-18T12:00:00Z') });

  expect(m.totals).toEqual({
    analyses: 4,
    judgments: 4,
    accepted: 2,
    rejected: 1,
    needs_revision: 1,
    regenerated_analyses: 2,
    edited_analyses: 1,
    regenerations: 3,
    edits: 1,
    views: 1,
  });
  expect(m.rates).toEqual({ acceptance: 0.5, rejection: 0.25, needs_revision: 0.25, regeneration: 0.5, edit: 0.25 });
  const none = { acceptance: null, rejection: null, needs_revision: null, regeneration: null, edit: null };
  const zero = { analyses: 0, judgments: 0, accepted: 0, rejected: 0, needs_revision: 0, regenerated_analyses: 0, edited_analyses: 0 };
  expect(m.by_type).toEqual([
    {
      analysis_type: 'question',
      analyses: 2,
      judgments: 3,
      accepted: 2,
      rejected: 0,
      needs_revision: 1,
      regenerated_analyses: 1,
      edited_analyses: 0,
      rates: { acceptance: 0.6667, rejection: 0, needs_revision: 0.3333, regeneration: 0.5, edit: 0 },
    },
    { analysis_type: 'topic', ...zero, rates: none },
    {
      analysis_type: 'summary',
      analyses: 1,
      judgments: 1,
      accepted: 0,
      rejected: 1,
      needs_revision: 0,
      regenerated_analyses: 1,
      edited_analyses: 0,
      rates: { acceptance: 0, rejection: 1, needs_revision: 0, regeneration: 1, edit: 0 },
    },
    {
      analysis_type: 'gap',
      ...zero,
      analyses: 1,
      edited_analyses: 1,
      rates: { acceptance: null, rejection: null, needs_revision: null, regeneration: 0, edit: 1 },
    },
    { analysis_type: 'error_check', ...zero, rates: none },
  ]);
  expect(m.top_regeneration_reasons).toEqual([
    { reason: 'missing_evidence', label: 'Missing evidence', count: 2, share: 0.6667 },
    { reason: 'too_vague', label: 'Too vague', count: 1, share: 0.3333 },
  ]);
  const week = (week_start: string, figures: Partial<(typeof m.weekly_trend)[number]> = {}) => ({
    week_start,
    judgments: 0,
    accepted: 0,
    rejected: 0,
    needs_revision: 0,
    acceptance_rate: null,
    regenerations: 0,
    edits: 0,
    ...figures,
  });
  expect(m.weekly_trend).toEqual([
    week('2026-09-28T00:00:00.000Z', { judgments: 1, needs_revision: 1, acceptance_rate: 0, regenerations: 1 }),
    week('2026-10-05T00:00:00.000Z'),
    week('2026-10-12T00:00:00.000Z'),
    week('2026-10-19T00:00:00.000Z', { edits: 1 }),
    week('2026-10-26T00:00:00.000Z'),
    week('2026-11-02T00:00:00.000Z'),
    week('2026-11-09T00:00:00.000Z', { judgments: 1, accepted: 1, acceptance_rate: 1 }),
    week('2026-11-16T00:00:00.000Z', { judgments: 1, accepted: 1, acceptance_rate: 1, regenerations: 1 }),
  ]);
});

describe('properties over any analyses and feedback', () => {
  const NOW = at('2026-11-18T12:00:00Z');
  const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
  const analysesArb = fc.uniqueArray(
    fc.record({
      analysis_id: fc.constantFrom(...ids),
      analysis_type: fc.constantFrom<AnalysisType>(...ANALYSIS_TYPES),
      generation_status: fc.constantFrom<GenerationStatus>(...GENERATION_STATUSES),
    }),
    { selector: (a) => a.analysis_id },
  );
  const feedbackArb = fc.array(
    fc.record({
      analysis_id: fc.constantFrom(...ids),
      user_id: fc.constantFrom('u1', 'u2', 'u3', null),
      action: fc.constantFrom<FeedbackAction>(...FEEDBACK_ACTIONS),
      reason: fc.constantFrom(null, ...Object.keys(REGENERATION_REASONS)),
      created_at: fc.date({ min: at('2026-06-01T00:00:00Z'), max: NOW, noInvalidDate: true }),
    }),
    { maxLength: 60 },
  );

  test('counts add up, rates are fractions (null only without a denominator), the trend has 8 consecutive weeks', () => {
    fc.assert(
      fc.property(analysesArb, feedbackArb, (analyses, feedback) => {
        const m = feedbackMetrics({ analyses, feedback, now: NOW });
        const t = m.totals;
        expect(t.accepted + t.rejected + t.needs_revision).toBe(t.judgments);
        for (const key of [
          'analyses',
          'judgments',
          'accepted',
          'rejected',
          'needs_revision',
          'regenerated_analyses',
          'edited_analyses',
        ] as const) {
          expect(m.by_type.reduce((sum, type) => sum + type[key], 0)).toBe(t[key]);
        }
        for (const rates of [m.rates, ...m.by_type.map((type) => type.rates)]) {
          for (const value of Object.values(rates)) if (value !== null) expect(value >= 0 && value <= 1).toBe(true);
        }
        expect(m.rates.acceptance === null).toBe(t.judgments === 0);
        expect(m.rates.regeneration === null).toBe(t.analyses === 0);
        expect(t.regenerated_analyses).toBeLessThanOrEqual(t.analyses);

        expect(m.weekly_trend).toHaveLength(8);
        m.weekly_trend.forEach((w, i) => {
          if (i > 0) expect(Date.parse(w.week_start) - Date.parse(m.weekly_trend[i - 1]!.week_start)).toBe(7 * 86_400_000);
          expect(w.accepted + w.rejected + w.needs_revision).toBe(w.judgments);
        });
        expect(m.weekly_trend.at(-1)!.week_start).toBe(weekStart(NOW).toISOString());
        expect(m.weekly_trend.reduce((sum, w) => sum + w.judgments, 0)).toBeLessThanOrEqual(t.judgments);
        expect(m.weekly_trend.reduce((sum, w) => sum + w.regenerations, 0)).toBeLessThanOrEqual(t.regenerations);

        expect(m.top_regeneration_reasons.reduce((sum, r) => sum + r.count, 0)).toBe(t.regenerations);
        m.top_regeneration_reasons.forEach((r, i) => {
          if (i > 0) expect(r.count).toBeLessThanOrEqual(m.top_regeneration_reasons[i - 1]!.count);
        });
      }),
    );
  });

  test('feedback inside the 8 weeks adds up to the totals exactly', () => {
    const recent = feedbackArb.map((list) =>
      list.map((f) => ({ ...f, created_at: new Date(Math.max(f.created_at.getTime(), Date.parse('2026-09-28T00:00:00Z'))) })),
    );
    fc.assert(
      fc.property(analysesArb, recent, (analyses, feedback) => {
        const m = feedbackMetrics({ analyses, feedback, now: NOW });
        expect(m.weekly_trend.reduce((sum, w) => sum + w.judgments, 0)).toBe(m.totals.judgments);
        expect(m.weekly_trend.reduce((sum, w) => sum + w.regenerations, 0)).toBe(m.totals.regenerations);
        expect(m.weekly_trend.reduce((sum, w) => sum + w.edits, 0)).toBe(m.totals.edits);
      }),
    );
  });
});
