/**
 * The feedback badge in the analysis list (SPEC "Feedback"): Agreed (green), Disagreed (red),
 * Regenerated (blue), Edited (amber), Needs Revision (purple), Viewed (gray); no feedback, no badge.
 * The key names what the investigator did, so clients need not know the stored status names.
 *
 * Pure: no I/O, no clock, no environment.
 */
import type { FeedbackStatus } from '#core/db/schema';

export type { FeedbackStatus };

type BadgeKey = 'agreed' | 'disagreed' | 'regenerated' | 'edited' | 'needs_revision' | 'viewed';
type BadgeColor = 'green' | 'red' | 'blue' | 'amber' | 'purple' | 'gray';

export interface FeedbackBadge {
  key: BadgeKey;
  label: string;
  color: BadgeColor;
}

/** One badge per stored feedback status; a Record so a new status without a badge fails type-checking. */
const FEEDBACK_BADGES: Readonly<Record<FeedbackStatus, FeedbackBadge>> = {
  accepted: { key: 'agreed', label: 'Agreed', color: 'green' },
  rejected: { key: 'disagreed', label: 'Disagreed', color: 'red' },
  regenerated: { key: 'regenerated', label: 'Regenerated', color: 'blue' },
  edited: { key: 'edited', label: 'Edited', color: 'amber' },
  needs_revision: { key: 'needs_revision', label: 'Needs Revision', color: 'purple' },
  viewed: { key: 'viewed', label: 'Viewed', color: 'gray' },
};

/** The badge for a stored status; null for none; RangeError for a status this module does not know. */
export const feedbackBadge = (status: FeedbackStatus | null): FeedbackBadge | null => {
  if (status === null) return null;
  if (!Object.hasOwn(FEEDBACK_BADGES, status)) throw new RangeError(`unknown feedback status: ${String(status)}`);
  return { ...FEEDBACK_BADGES[status] };
};
