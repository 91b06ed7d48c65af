/**
 * How investigators judge an analysis (SPEC "Feedback", "Engagement gates", "Judgment"): the actions,
 * the status each one stores, when judgment is open, and what Unsure offers as a regeneration draft.
 *
 * Decisions where the spec is silent ("Transitions between feedback statuses: not shown"):
 * - the analysis shows the status of its latest action, except that a view never replaces another
 *   status (opening an analysis after agreeing with it leaves it Agreed);
 * - judgment is open once the investigator has passed both gates on an analysis that has generated
 *   output; regenerate, edit and view are not gated (the spec gates judgment only).
 *
 * Pure: no I/O, no clock, no environment.
 */
import { isGenerated, type GenerationStatus } from './generation-status';

export const FEEDBACK_ACTIONS = ['agree', 'disagree', 'unsure', 'regenerate', 'edit', 'view'] as const;
export type FeedbackAction = (typeof FEEDBACK_ACTIONS)[number];

/** What an analysis's latest feedback says about it (one per action: STATUS_OF_ACTION). */
export const FEEDBACK_STATUSES = ['accepted', 'rejected', 'needs_revision', 'regenerated', 'edited', 'viewed'] as const;
export type FeedbackStatus = (typeof FEEDBACK_STATUSES)[number];

const JUDGMENTS = ['agree', 'disagree', 'unsure'] as const satisfies readonly FeedbackAction[];
export type Judgment = (typeof JUDGMENTS)[number];

/** The status each action stores (SPEC: Agree → accepted, Disagree → rejected, Unsure → needs_revision). */
export const STATUS_OF_ACTION: Readonly<Record<FeedbackAction, FeedbackStatus>> = {
  agree: 'accepted',
  disagree: 'rejected',
  unsure: 'needs_revision',
  regenerate: 'regenerated',
  edit: 'edited',
  view: 'viewed',
};

export const isJudgment = (action: FeedbackAction): action is Judgment => (JUDGMENTS as readonly string[]).includes(action);

/** The analysis's feedback status after `action`: the latest action's, but a view only fills an empty status. */
export const nextFeedbackStatus = (current: FeedbackStatus | null, action: FeedbackAction): FeedbackStatus =>
  action === 'view' && current !== null ? current : STATUS_OF_ACTION[action];

/** SPEC "Feedback": the regeneration dropdown, in its order. */
export const REGENERATION_REASONS = {
  inaccurate_conclusions: 'Inaccurate conclusions',
  missing_evidence: 'Missing evidence',
  too_vague: 'Too vague',
  wrong_focus: 'Wrong focus',
  other: 'Other',
} as const;
export type RegenerationReason = keyof typeof REGENERATION_REASONS;
export const REGENERATION_REASON_KEYS = Object.keys(REGENERATION_REASONS) as [RegenerationReason, ...RegenerationReason[]];

export interface GateProgress {
  detail_reviewed_at: Date | string | null;
  citation_checked_at: Date | string | null;
}

/** The gates the investigator has still to pass, in order (empty when judgment is open). */
export const missingGates = (gates: GateProgress): ('detail_reviewed' | 'citation_checked')[] => [
  ...(gates.detail_reviewed_at ? [] : ['detail_reviewed' as const]),
  ...(gates.citation_checked_at ? [] : ['citation_checked' as const]),
];

/** Judgment needs output to judge (isGenerated: complete and every later status) and both gates passed. */
export const judgmentEnabled = (status: GenerationStatus, gates: GateProgress): boolean =>
  isGenerated(status) && missingGates(gates).length === 0;

/** What Unsure asks the investigator (SPEC "Judgment"). */
export const UNSURE_PROMPT = 'What would help you decide?';

export interface DraftSignals {
  validation_status: string | null;
  faithfulness_score: number | null;
  coverage_score: number | null;
}

/** Below this a quality score suggests the matching regeneration reason. */
const DRAFT_SCORE_THRESHOLD = 0.7;

/**
 * The regeneration feedback Unsure pre-populates: the reason the analysis's own signals point at
 * (conclusions not backed by their citations, then aspects of the question left uncovered), else
 * Other; the direction is the investigator's note when they gave one,
 * else a sentence naming what the signal showed, for them to edit.
 */
export const regenerationDraft = (signals: DraftSignals, note?: string): { reason: RegenerationReason; direction: string } => {
  const { faithfulness_score: faithfulness, coverage_score: coverage } = signals;
  let reason: RegenerationReason = 'other';
  let suggestion = 'Explain the reasoning step by step and cite the evidence for each conclusion.';
  if (signals.validation_status !== null && signals.validation_status !== 'valid') {
    reason = 'inaccurate_conclusions';
    suggestion = 'Some findings cited evidence that was not provided; back every conclusion with the evidence shown.';
  } else if (faithfulness !== null && faithfulness < DRAFT_SCORE_THRESHOLD && (coverage === null || faithfulness <= coverage)) {
    reason = 'inaccurate_conclusions';
    suggestion = 'Some conclusions are not supported by the cited evidence; state only what the evidence shows.';
  } else if (coverage !== null && coverage < DRAFT_SCORE_THRESHOLD) {
    reason = 'missing_evidence';
    suggestion = 'Address every aspect of the question, and say which aspects the evidence does not cover.';
  }
  const direction = note?.trim() ? note.trim() : suggestion;
  return { reason, direction };
};
