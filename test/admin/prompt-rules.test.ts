/**
 * The pure rules behind the prompt editor: the side-by-side line diff (examples and properties), and
 * what a new template version must satisfy to be rendered correctly (placeholders per prompt type).
 */
import fc from 'fast-check';
import { changeInWords, countRows, sideBySide, type DiffRow } from '#core/admin/diff';
import { PROMPT_RULES, PROMPT_TYPES, previewOf, templateProblems } from '#core/admin/prompt-rules';
import { PROMPT_TYPE, renderTemplate } from '#core/analysis/prompts';
import { QUALITY_PROMPT_TYPES } from '#core/analysis/quality';
import { INITIAL_TEMPLATES } from '#core/db/migrations/0003-prompt-templates';
import { FENCED_TEMPLATES } from '#core/db/migrations/0010-fenced-prompts';
import { SHARED_PREFIX_TEMPLATES } from '#core/db/migrations/0024-prompt-cache';

describe('sideBySide', () => {
  test('pairs a replaced line as changed, keeps common lines, and numbers each side', () => {
    expect(sideBySide('a\nb\nc', 'a\nB\nc\nd')).toEqual<DiffRow[]>([
      { kind: 'same', left_line_no: 1, left: 'a', right_line_no: 1, right: 'a' },
      { kind: 'changed', left_line_no: 2, left: 'b', right_line_no: 2, right: 'B' },
      { kind: 'same', left_line_no: 3, left: 'c', right_line_no: 3, right: 'c' },
      { kind: 'added', left_line_no: null, left: null, right_line_no: 4, right: 'd' },
    ]);
  });

  test('a hunk with more removed than added lines leaves the extra ones removed', () => {
    const rows = sideBySide('keep\nx1\nx2\nx3\nend', 'keep\ny1\nend');
    expect(rows.map((r) => r.kind)).toEqual(['same', 'changed', 'removed', 'removed', 'same']);
    expect(rows[2]).toEqual({ kind: 'removed', left_line_no: 3, left: 'x2', right_line_no: null, right: null });
    expect(rows[4]).toMatchObject({ left_line_no: 5, right_line_no: 3 });
    expect(countRows(rows)).toEqual({ same: 2, changed: 1, removed: 2, added: 0 });
  });

  test('identical texts are all same rows; CRLF and LF lines compare equal', () => {
    expect(countRows(sideBySide('one\r\ntwo', 'one\ntwo'))).toEqual({ same: 2, changed: 0, removed: 0, added: 0 });
  });

  const text = fc
    .array(fc.constantFrom('alpha', 'beta', 'gamma', '', '{{evidence}}', 'delta'), { maxLength: 12 })
    .map((lines) => lines.join('\n'));

  test('property: each side reads back its own text, line numbers run 1..n, and kinds match the sides present', () => {
    fc.assert(
      fc.property(text, text, (left, right) => {
        const rows = sideBySide(left, right);
        const lefts = rows.filter((r) => r.left !== null);
        const rights = rows.filter((r) => r.right !== null);
        expect(lefts.map((r) => r.left).join('\n')).toBe(left);
        expect(rights.map((r) => r.right).join('\n')).toBe(right);
        expect(lefts.map((r) => r.left_line_no)).toEqual(lefts.map((_, i) => i + 1));
        expect(rights.map((r) => r.right_line_no)).toEqual(rights.map((_, i) => i + 1));
        for (const r of rows) {
          if (r.kind === 'same') expect(r.left).toBe(r.right);
          if (r.kind === 'added') expect(r.left_line_no).toBeNull();
          if (r.kind === 'removed') expect(r.right_line_no).toBeNull();
          if (r.kind === 'changed') expect(r.left !== null && r.right !== null).toBe(true);
        }
      }),
    );
  });

  test('property: a text against itself has only same rows', () => {
    fc.assert(fc.property(text, (t) => sideBySide(t, t).every((r) => r.kind === 'same')));
  });
});

describe('changeInWords', () => {
  const [changed] = sideBySide(
    'You are an analyst. Work only from the evidence passages you are given, and cite each one.',
    'You are an analyst. Work only from the evidence passages you are given, and cite each one. Keep findings short.',
  );
  test('a changed line: its first added words, after a little of what precedes them', () => {
    expect(changeInWords(changed!)).toBe('…you are given, and cite each one. Keep findings short.');
  });
  test('words taken out of a line say so', () => {
    const [row] = sideBySide('Cite each passage and be brief.', 'Cite each passage.');
    expect(changeInWords(row!)).toMatch(/^Cite each (passage)?\s*\(removed\) /);
  });
  test('a line added or removed whole', () => {
    const rows = sideBySide('keep', 'keep\n  New   rule.');
    expect(changeInWords(rows[1]!)).toBe('New rule.');
    expect(changeInWords(sideBySide('keep\nGone.', 'keep')[1]!)).toBe('(removed) Gone.');
  });
});

describe('templateProblems', () => {
  test('the rules cover exactly the prompt types the service renders and the migration seeds', () => {
    const rendered = [...Object.values(PROMPT_TYPE), ...Object.values(QUALITY_PROMPT_TYPES)].sort();
    expect([...PROMPT_TYPES].sort()).toEqual(rendered);
    expect(Object.keys(INITIAL_TEMPLATES).sort()).toEqual(rendered);
    expect(Object.keys(FENCED_TEMPLATES).sort()).toEqual(rendered);
  });

  test.each([...Object.entries(INITIAL_TEMPLATES), ...Object.entries(FENCED_TEMPLATES), ...Object.entries(SHARED_PREFIX_TEMPLATES)])(
    'the seeded %s template passes',
    (type, t) => {
      expect(templateProblems(type, { system_prompt: t.system, user_prompt_template: t.user })).toEqual([]);
    },
  );

  const question = INITIAL_TEMPLATES.analysis_question!;

  test('a misspelt placeholder (which the renderer would silently empty) is named, once, with the ones on offer', () => {
    const user = question.user.replace('{{evidence}}', '{{evidense}} {{evidense}}');
    expect(renderTemplate('{{evidense}}', { evidence: 'x' })).toBe(''); // why this matters
    expect(templateProblems('analysis_question', { system_prompt: question.system, user_prompt_template: user })).toEqual([
      {
        path: 'user_prompt_template',
        message: expect.stringMatching(/\{\{evidense\}\} is not a placeholder of analysis_question; it offers .*\{\{evidence\}\}/),
      },
      { path: 'user_prompt_template', message: 'analysis_question needs {{evidence}} in the system prompt or the user prompt template' },
    ]);
  });

  test('a placeholder the renderer cannot read is named in its field', () => {
    const problems = templateProblems('analysis_summary', { system_prompt: 'Use {{ evidence }}.', user_prompt_template: question.user });
    expect(problems).toEqual([
      { path: 'system_prompt', message: expect.stringContaining('{{ evidence }} is not a placeholder the renderer can fill') },
    ]);
  });

  test('required placeholders per type: question, topic, analysis; either field may hold them', () => {
    const noQuestion = templateProblems('analysis_question', { system_prompt: '{{evidence}}', user_prompt_template: '{{regeneration}}' });
    expect(noQuestion.map((p) => p.message)).toEqual([
      'analysis_question needs {{question}} in the system prompt or the user prompt template',
    ]);
    expect(
      templateProblems('analysis_topic', { system_prompt: '{{topic}} {{evidence}}', user_prompt_template: '{{regeneration}}' }),
    ).toEqual([]);
    expect(templateProblems('quality_faithfulness', { system_prompt: 'x', user_prompt_template: '{{evidence}}' })[0]!.message).toContain(
      '{{analysis}}',
    );
    // a quality prompt is not given the regeneration text
    expect(
      templateProblems('quality_faithfulness', { system_prompt: '{{regeneration}}', user_prompt_template: '{{analysis}} {{evidence}}' })[0]!
        .message,
    ).toContain('{{regeneration}} is not a placeholder of quality_faithfulness');
  });

  test('an unknown prompt type is refused', () => {
    expect(templateProblems('analysis_timeline', { system_prompt: '', user_prompt_template: '' })).toEqual([
      { path: 'prompt_type', message: expect.stringContaining('unknown prompt type') },
    ]);
    expect(Object.keys(PROMPT_RULES)).not.toContain('analysis_timeline');
  });
});

test('previewOf collapses whitespace and cuts long text with an ellipsis', () => {
  expect(previewOf('  a\n\n b  ')).toBe('a b');
  const long = previewOf('x'.repeat(500), 20);
  expect(long).toHaveLength(20);
  expect(long.endsWith('…')).toBe(true);
});
