/**
 * Feedback metrics of one investigation (SPEC "Feedback": acceptance, rejection, regeneration and
 * edit rates; breakdown by analysis type; top regeneration reasons; a weekly trend over 8 weeks).
 *
 * Denominators (the spec leaves them open; docs/feedback.md explains them to users):
 * - analyses: the investigation's analyses that produced output (complete, checking, verified,
 *   quality_unavailable); queued, generating and failed ones cannot be judged and are not counted.
 * - judgments: one per investigator per analysis — their latest Agree, Disagree or Unsure — so a
 *   change of mind replaces the earlier vote instead of counting twice.
 * - acceptance rate = accepted judgments / judgments; rejection and needs-revision rates likewise.
 * - regeneration rate = analyses regenerated at least once / analyses; edit rate likewise.
 * - top regeneration reasons count every regeneration (one per request), most frequent first.
 * - weekly trend: the 8 weeks (Monday 00:00 UTC to Monday) ending with the current one, oldest
 *   first, empty weeks as zeros; a judgment counts in the week it was cast, regenerations and edits
 *   in the week they were requested. Within those 8 weeks the trend adds up to the totals.
 * A rate whose denominator is zero is null (nothing to measure), never 0.
 *
 * Pure: no I/O, no clock (the caller passes `now`), no environment.
 */
import { ANALYSIS_TYPES, type AnalysisType } from './analysis-types';
import { isGenerated, type GenerationStatus } from './generation-status';
import { isJudgment, type FeedbackAction, REGENERATION_REASONS, STATUS_OF_ACTION, type RegenerationReason } from './feedback';

const TREND_WEEKS = 8;

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;

export interface MetricsAnalysis {
  analysis_id: string;
  analysis_type: AnalysisType;
  generation_status: GenerationStatus;
}

export interface MetricsFeedback {
  analysis_id: string;
  user_id: string | null;
  action: FeedbackAction;
  reason: string | null;
  created_at: Date;
}

interface Rates {
  acceptance: number | null;
  rejection: number | null;
  needs_revision: number | null;
  regeneration: number | null;
  edit: number | null;
}

interface Counts {
  analyses: number;
  judgments: number;
  accepted: number;
  rejected: number;
  needs_revision: number;
  regenerated_analyses: number;
  edited_analyses: number;
}

interface WeekFigures {
  week_start: string;
  judgments: number;
  accepted: number;
  rejected: number;
  needs_revision: number;
  acceptance_rate: number | null;
  regenerations: number;
  edits: number;
}

export interface FeedbackMetrics {
  totals: Counts & { regenerations: number; edits: number; views: number };
  rates: Rates;
  by_type: (Counts & { analysis_type: AnalysisType; rates: Rates })[];
  top_regeneration_reasons: {
    reason: RegenerationReason;
    label: (typeof REGENERATION_REASONS)[RegenerationReason];
    count: number;
    share: number;
  }[];
  weekly_trend: WeekFigures[];
}

/** A ratio rounded to 4 decimals; null when there is nothing to divide by. */
export const rate = (part: number, whole: number): number | null => (whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000);

/** Monday 00:00 UTC of the week holding `time`. */
export const weekStart = (time: Date): Date => {
  const day = new Date(Date.UTC(time.getUTCFullYear(), time.getUTCMonth(), time.getUTCDate()));
  return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY_MS);
};

const counts = (analyses: MetricsAnalysis[], judgments: MetricsFeedback[], feedback: MetricsFeedback[]): Counts => {
  const ids = new Set(analyses.map((a) => a.analysis_id));
  const mine = (f: MetricsFeedback) => ids.has(f.analysis_id);
  const status = (f: MetricsFeedback) => STATUS_OF_ACTION[f.action];
  const touched = (action: FeedbackAction) =>
    new Set(feedback.filter((f) => mine(f) && f.action === action).map((f) => f.analysis_id)).size;
  const votes = judgments.filter(mine);
  return {
    analyses: analyses.length,
    judgments: votes.length,
    accepted: votes.filter((f) => status(f) === 'accepted').length,
    rejected: votes.filter((f) => status(f) === 'rejected').length,
    needs_revision: votes.filter((f) => status(f) === 'needs_revision').length,
    regenerated_analyses: touched('regenerate'),
    edited_analyses: touched('edit'),
  };
};

const ratesOf = (c: Counts): Rates => ({
  acceptance: rate(c.accepted, c.judgments),
  rejection: rate(c.rejected, c.judgments),
  needs_revision: rate(c.needs_revision, c.judgments),
  regeneration: rate(c.regenerated_analyses, c.analyses),
  edit: rate(c.edited_analyses, c.analyses),
});

export const feedbackMetrics = (input: { analyses: MetricsAnalysis[]; feedback: MetricsFeedback[]; now: Date }): FeedbackMetrics => {
  const analyses = input.analyses.filter((a) => isGenerated(a.generation_status));
  const counted = new Set(analyses.map((a) => a.analysis_id));
  const feedback = input.feedback.filter((f) => counted.has(f.analysis_id)).sort((a, b) => a.created_at.getTime() - b.created_at.getTime());

  // each investigator's latest judgment per analysis (feedback is oldest first, so later ones win)
  const latest = new Map<string, MetricsFeedback>();
  for (const f of feedback) if (isJudgment(f.action)) latest.set(`${f.analysis_id}|${f.user_id ?? ''}`, f);
  const judgments = [...latest.values()];

  const overall = counts(analyses, judgments, feedback);
  const regenerations = feedback.filter((f) => f.action === 'regenerate');

  const byReason = new Map<RegenerationReason, number>();
  for (const f of regenerations) {
    const reason = (Object.hasOwn(REGENERATION_REASONS, f.reason ?? '') ? f.reason : 'other') as RegenerationReason;
    byReason.set(reason, (byReason.get(reason) ?? 0) + 1);
  }
  const reasonOrder = Object.keys(REGENERATION_REASONS);
  const top = [...byReason.entries()]
    .sort(([a, x], [b, y]) => y - x || reasonOrder.indexOf(a) - reasonOrder.indexOf(b))
    .map(([reason, count]) => ({ reason, label: REGENERATION_REASONS[reason], count, share: rate(count, regenerations.length) ?? 0 }));

  const first = weekStart(input.now).getTime() - (TREND_WEEKS - 1) * WEEK_MS;
  const weekOf = (f: MetricsFeedback) => Math.floor((f.created_at.getTime() - first) / WEEK_MS);
  const weekly_trend = Array.from({ length: TREND_WEEKS }, (_, week): WeekFigures => {
    const inWeek = (f: MetricsFeedback) => weekOf(f) === week;
    const votes = judgments.filter(inWeek);
    const accepted = votes.filter((f) => f.action === 'agree').length;
    return {
      week_start: new Date(first + week * WEEK_MS).toISOString(),
      judgments: votes.length,
      accepted,
      rejected: votes.filter((f) => f.action === 'disagree').length,
      needs_revision: votes.filter((f) => f.action === 'unsure').length,
      acceptance_rate: rate(accepted, votes.length),
      regenerations: regenerations.filter(inWeek).length,
      edits: feedback.filter((f) => f.action === 'edit' && inWeek(f)).length,
    };
  });

  return {
    totals: {
      ...overall,
      regenerations: regenerations.length,
      edits: feedback.filter((f) => f.action === 'edit').length,
      views: feedback.filter((f) => f.action === 'view').length,
    },
    rates: ratesOf(overall),
    by_type: ANALYSIS_TYPES.map((type) => {
      const ofType = counts(
        analyses.filter((a) => a.analysis_type === type),
        judgments,
        feedback,
      );
      return { analysis_type: type, ...ofType, rates: ratesOf(ofType) };
    }),
    top_regeneration_reasons: top,
    weekly_trend,
  };
};
