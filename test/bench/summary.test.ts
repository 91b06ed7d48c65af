import { mergeSummary, sectionBlock } from './summary';

const measured = { date: '2026-11-24', machine: 'test CPU, 2 CPUs', load: 0.4 };

describe('the bench summary (docs/benchmarks.md)', () => {
  it('shows each figure with its goal and whether the goal is met', () => {
    const block = sectionBlock(
      'bundles',
      [
        { name: 'bundle median', value: 512.4, unit: 'kB', goal: { atMost: 500 } },
        { name: 'handler init median', value: 48.25, unit: 'ms', goal: { atMost: 60 }, note: 'median of 3' },
        { name: 'recall@20 mean', value: 0.995, unit: '', goal: { atLeast: 0.99 }, engine: 'PGlite' },
      ],
      measured,
    );
    expect(block).toContain('Measured 2026-11-24 on test CPU, 2 CPUs; load average 0.4');
    const rows = block.split('\n').filter((line) => line.startsWith('|'));
    const cells = rows.map((row) =>
      row
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
    expect(cells).toEqual([
      ['figure', 'engine', 'value', 'goal', 'met', 'how'],
      ['-------------------', '------', '-------', '--------', '------', '-----------'],
      ['bundle median', '', '512 kB', '≤ 500 kB', '**no**', ''],
      ['handler init median', '', '48.3 ms', '≤ 60 ms', 'yes', 'median of 3'],
      ['recall@20 mean', 'PGlite', '0.995', '≥ 0.990', 'yes', ''],
    ]);
    // columns padded to one width, as the formatter writes a table
    expect(new Set(rows.map((row) => row.length)).size).toBe(1);
  });

  it('replaces the sections a run measured and keeps the others, in section order', () => {
    const old = mergeSummary(
      '',
      new Map([
        ['twin', '## twin\n\nold twin\n'],
        ['bundles', '## bundles\n\nold bundles\n'],
      ]),
      ['bundles', 'twin'],
    );
    const updated = mergeSummary(old, new Map([['twin', '## twin\n\nnew twin\n']]), ['bundles', 'twin']);
    expect(updated).toContain('old bundles');
    expect(updated).toContain('new twin');
    expect(updated).not.toContain('old twin');
    expect(updated.indexOf('## bundles')).toBeLessThan(updated.indexOf('## twin'));
    expect(updated.match(/^# Benchmarks/gm)).toHaveLength(1);
  });
});
