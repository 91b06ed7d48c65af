/**
 * A line-level, side-by-side diff (pure). The left side is the older text (the version asked for),
 * the right side the newer one (the current version). Each row is one line of the table a prompt
 * editor draws: a line on both sides (`same`, or `changed` when a removed line is paired with an added
 * one in the same hunk), or on one side only (`removed` from the left, `added` on the right).
 */
import { diffArrays, diffWords } from 'diff';

type DiffKind = 'same' | 'changed' | 'removed' | 'added';

export interface DiffRow {
  kind: DiffKind;
  /** 1-based line number on the left, null where the left side has no line */
  left_line_no: number | null;
  left: string | null;
  right_line_no: number | null;
  right: string | null;
}

export interface DiffCounts {
  same: number;
  changed: number;
  removed: number;
  added: number;
}

const lines = (text: string): string[] => text.split(/\r?\n/);

export const sideBySide = (left: string, right: string): DiffRow[] => {
  const rows: DiffRow[] = [];
  let l = 0;
  let r = 0;
  let removed: string[] = [];
  let added: string[] = [];
  // a hunk's removed lines pair with its added lines in order; the longer side's extra lines stand alone
  const flush = () => {
    for (let i = 0; i < Math.max(removed.length, added.length); i++) {
      const hasLeft = i < removed.length;
      const hasRight = i < added.length;
      rows.push({
        kind: hasLeft && hasRight ? 'changed' : hasLeft ? 'removed' : 'added',
        left_line_no: hasLeft ? ++l : null,
        left: hasLeft ? removed[i]! : null,
        right_line_no: hasRight ? ++r : null,
        right: hasRight ? added[i]! : null,
      });
    }
    removed = [];
    added = [];
  };
  for (const change of diffArrays(lines(left), lines(right))) {
    if (change.removed) removed.push(...change.value);
    else if (change.added) added.push(...change.value);
    else {
      flush();
      for (const line of change.value) rows.push({ kind: 'same', left_line_no: ++l, left: line, right_line_no: ++r, right: line });
    }
  }
  flush();
  return rows;
};

export const countRows = (rows: readonly DiffRow[]): DiffCounts => {
  const counts: DiffCounts = { same: 0, changed: 0, removed: 0, added: 0 };
  for (const row of rows) counts[row.kind]++;
  return counts;
};

/** Words of context kept before a change within a line. */
const CONTEXT_CHARS = 40;

/**
 * A changed row in words, whitespace collapsed: the line added or removed, or within a changed line the first
 * words it added (or removed) with a little of what comes before them, so a long line's change is not cut off.
 */
export const changeInWords = (row: DiffRow): string => {
  const flat = (text: string) => text.replace(/\s+/g, ' ');
  if (row.kind === 'added') return flat(row.right ?? '').trim();
  if (row.kind === 'removed') return `(removed) ${flat(row.left ?? '').trim()}`;
  const parts = diffWords(row.left ?? '', row.right ?? '');
  const at = parts.findIndex((p) => p.added || p.removed);
  if (at < 0) return flat(row.right ?? '').trim();
  const before = flat(
    parts
      .slice(0, at)
      .map((p) => p.value)
      .join(''),
  );
  const lead = before.length > CONTEXT_CHARS ? `…${before.slice(-CONTEXT_CHARS).replace(/^\S*\s/, '')}` : before;
  const change = parts[at]!;
  return `${lead}${change.removed ? `(removed) ${flat(change.value).trim()}` : flat(change.value)}`.trim();
};
