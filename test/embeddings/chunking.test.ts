/**
 * Chunking: examples for each rule, and property checks over a few hundred generated texts
 * (seeded, so a failure reproduces): limits, coverage of the whole text, overlap, word boundaries,
 * determinism and indifference to how the whitespace was written.
 */
import { chunkText, CHUNK_DEFAULTS, estimateTokens, normalizeText, type ChunkOptions, type TextChunk } from '#core/embeddings/chunking';
import { seededRandom } from '../support/random';

// ---- a small seeded generator ----------------------------------------------------------------

const VOCABULARY = (
  'invoice vendor payment approval Northwind ledger kickback procurement contract audit email meeting ' +
  'transfer account director review signed amended quarterly shipment warehouse overdue refund Mr. Dr. e.g. 4,500 ' +
  '2023-04-11 über naïve résumé 東京 emoji🙂 x y z a I'
).split(' ');

const generateText = (random: () => number): string => {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const space = () => pick([' ', ' ', ' ', '  ', '\t', ' \n', '\n']);
  const word = () => (random() < 0.01 ? 'w'.repeat(1 + Math.floor(random() * 60)) : pick(VOCABULARY));
  const sentence = () => {
    const n = random() < 0.05 ? 120 + Math.floor(random() * 200) : 1 + Math.floor(random() * 25);
    const words = Array.from({ length: n }, word);
    words[0] = words[0]![0]!.toUpperCase() + words[0]!.slice(1);
    return words.join(space()) + pick(['.', '.', '.', '?', '!', '', '."']);
  };
  const paragraph = () => Array.from({ length: 1 + Math.floor(random() * 8) }, sentence).join(space());
  const paragraphs = Array.from({ length: Math.floor(random() * 7) }, paragraph);
  return pick(['', ' ', '\n']) + paragraphs.join(pick(['\n\n', '\n \n', '\r\n\r\n', '\n\n\n'])) + pick(['', '\n', '  ']);
};

const cases = (count: number, seed = 1): string[] => {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => generateText(random));
};

/** Every property the module promises, checked for one text. */
const checkProperties = (raw: string, chunks: TextChunk[], options: ChunkOptions = {}) => {
  const target = options.targetChars ?? CHUNK_DEFAULTS.targetChars;
  const overlap = options.overlapChars ?? CHUNK_DEFAULTS.overlapChars;
  const { text } = normalizeText(raw);
  if (text === '') {
    expect(chunks).toEqual([]);
    return;
  }
  expect(chunks.length).toBeGreaterThan(0);
  expect(chunks[0]!.start).toBe(0);
  expect(chunks.at(-1)!.end).toBe(text.length);
  chunks.forEach((chunk, i) => {
    expect(chunk.index).toBe(i);
    expect(chunk.text).toBe(text.slice(chunk.start, chunk.end));
    expect(chunk.text.length).toBeGreaterThan(0);
    expect(chunk.text.length).toBeLessThanOrEqual(target);
    expect(chunk.text).toBe(chunk.text.trim());
    expect(chunk.text).not.toMatch(/\s\s|[\t\n\r]/);
    expect(chunk.tokenCount).toBe(Math.ceil(chunk.text.length / 4));
    // never inside a word (the generator's words are shorter than a unit can be)
    expect(chunk.start === 0 || text[chunk.start - 1] === ' ').toBe(true);
    expect(chunk.end === text.length || text[chunk.end] === ' ').toBe(true);
    if (i === 0) return;
    const previous = chunks[i - 1]!;
    // contiguous coverage: no gap (at most the one space between two words), always progress
    expect(chunk.start).toBeGreaterThan(previous.start);
    expect(chunk.end).toBeGreaterThan(previous.end);
    expect(chunk.start).toBeLessThanOrEqual(previous.end + 1);
    // overlap: whole words, at most overlapChars, present unless the previous chunk's last word is too long for it
    const shared = previous.end - chunk.start;
    if (previous.text.split(' ').at(-1)!.length < overlap) expect(shared).toBeGreaterThan(0);
    expect(shared).toBeLessThanOrEqual(overlap);
    if (shared > 0) expect(previous.text.endsWith(chunk.text.slice(0, shared))).toBe(true);
  });
  // the chunks, overlaps removed, give back the whole normalised text
  const rebuilt = chunks.map((c, i) => (i === 0 ? c.text : text.slice(chunks[i - 1]!.end, c.end))).join('');
  expect(rebuilt).toBe(text);
};

// ---- examples --------------------------------------------------------------------------------

describe('normalizeText', () => {
  test('collapses whitespace inside paragraphs, keeps paragraph starts, drops control characters', () => {
    const n = normalizeText('  First\tline\n  continues.\r\n\r\n\n Second\u0000 para.  \n \n');
    expect(n.text).toBe('First line continues. Second para.');
    expect(n.paragraphStarts).toEqual([0, 22]);
  });

  test('empty and whitespace-only text normalise to nothing', () => {
    for (const raw of ['', '   ', '\n\n\t\r\n', '\u0000']) expect(normalizeText(raw)).toEqual({ text: '', paragraphStarts: [] });
  });
});

describe('chunkText', () => {
  test('empty text gives no chunks', () => {
    expect(chunkText('')).toEqual([]);
    expect(chunkText(' \n\n \t ')).toEqual([]);
  });

  test('a short text is one chunk, whitespace normalised', () => {
    expect(chunkText('  The vendor  was paid\ttwice.\n\nNobody noticed. ')).toEqual([
      { index: 0, text: 'The vendor was paid twice. Nobody noticed.', start: 0, end: 42, tokenCount: 11 },
    ]);
  });

  test('chunks end at sentence ends and the next one begins with the previous sentence when it fits the overlap', () => {
    const sentences = Array.from({ length: 40 }, (_, i) => `Invoice ${i} was approved by the regional director after review.`);
    const chunks = chunkText(sentences.join(' '));
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) {
      expect(chunk.text).toMatch(/^Invoice \d+ was/);
      expect(chunk.text).toMatch(/review\.$/);
      expect(chunk.text.length).toBeLessThanOrEqual(800);
    }
    // the overlap is exactly the last sentence of the previous chunk
    for (let i = 1; i < chunks.length; i++) {
      const lastSentence = chunks[i - 1]!.text.match(/Invoice \d+ [^.]*\.$/)![0];
      expect(chunks[i]!.text.startsWith(lastSentence)).toBe(true);
    }
  });

  test('paragraphs stay whole when they fit: a chunk of at least half the target ends at a paragraph break', () => {
    // 12 sentences of 41 characters: about 500 characters per paragraph, two would not fit in one chunk
    const paragraph = (n: number) =>
      Array.from({ length: 12 }, (_, i) => `Paragraph ${n} sentence ${String(i).padStart(2, '0')} holds words.`).join(' ');
    const raw = [1, 2, 3].map(paragraph).join('\n\n');
    const chunks = chunkText(raw);
    expect(chunks).toHaveLength(3);
    chunks.forEach((chunk, i) => {
      expect(chunk.text).toContain(`Paragraph ${i + 1} sentence 00 `);
      expect(chunk.text.endsWith(`Paragraph ${i + 1} sentence 11 holds words.`)).toBe(true);
    });
  });

  test('a sentence longer than a chunk is cut between words, never inside one', () => {
    const long = Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ');
    const chunks = chunkText(long);
    expect(chunks.length).toBeGreaterThan(3);
    checkProperties(long, chunks);
    for (const chunk of chunks) for (const w of chunk.text.split(' ')) expect(w).toMatch(/^word\d+$/);
  });

  test('a single token longer than any chunk is the only thing cut inside, at code point boundaries', () => {
    const blob = '🙂'.repeat(1000);
    const chunks = chunkText(`Before. ${blob} After.`);
    for (const chunk of chunks) {
      expect(chunk.text.length).toBeLessThanOrEqual(800);
      expect(chunk.text).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
    }
    expect(
      chunks
        .map((c) => c.text)
        .join(' ')
        .replace(/ /g, ''),
    ).toContain('🙂'.repeat(1000).slice(0, 20));
  });

  test('no break after abbreviations such as "Mr." and "e.g."', () => {
    const sentence = 'Mr. Harlan met Dr. Okafor, e.g. at the depot, and signed the amended contract on the spot.';
    const text = Array.from({ length: 20 }, () => sentence).join(' ');
    for (const chunk of chunkText(text)) {
      expect(chunk.text.startsWith('Mr. Harlan')).toBe(true);
      expect(chunk.text.endsWith('on the spot.')).toBe(true);
    }
  });

  test('options: smaller targets and overlaps are honoured; nonsense is refused', () => {
    const text = cases(1, 99)[0]! + ' ' + 'A sentence of words. '.repeat(50);
    const options = { targetChars: 200, overlapChars: 40 };
    checkProperties(text, chunkText(text, options), options);
    expect(() => chunkText('x', { targetChars: 100, overlapChars: 100 })).toThrow(RangeError);
    expect(() => chunkText('x', { targetChars: 1 })).toThrow(RangeError);
  });

  test('estimateTokens: one per four characters, rounded up', () => {
    expect([0, 1, 4, 5, 800].map((n) => estimateTokens('x'.repeat(n)))).toEqual([0, 1, 1, 2, 200]);
  });
});

// ---- properties ------------------------------------------------------------------------------

describe('chunkText properties (300 generated texts)', () => {
  const texts = cases(300);

  test('limits, contiguous coverage of the whole text, overlap, word boundaries', () => {
    let multiChunk = 0;
    for (const raw of texts) {
      const chunks = chunkText(raw);
      if (chunks.length > 1) multiChunk++;
      checkProperties(raw, chunks);
    }
    expect(multiChunk).toBeGreaterThan(100); // the generator does exercise splitting
  });

  test('the same properties at other sizes', () => {
    for (const options of [
      { targetChars: 300, overlapChars: 50 },
      { targetChars: 1200, overlapChars: 0 },
      { targetChars: 500, overlapChars: 150, minChars: 100 },
    ]) {
      for (const raw of texts.slice(0, 100)) {
        const chunks = chunkText(raw, options);
        if (options.overlapChars === 0) {
          // no overlap: consecutive chunks are separated by exactly one space
          chunks.slice(1).forEach((c, i) => expect(c.start).toBe(chunks[i]!.end + 1));
        } else checkProperties(raw, chunks, options);
      }
    }
  });

  test('deterministic, and indifferent to how whitespace inside a paragraph was written', () => {
    const random = seededRandom(7);
    for (const raw of texts.slice(0, 120)) {
      expect(chunkText(raw)).toEqual(chunkText(raw));
      const respaced = raw.replace(/[ \t]+/g, () => [' ', '  ', '\t', ' \t '][Math.floor(random() * 4)]!);
      expect(chunkText(respaced)).toEqual(chunkText(raw));
    }
  });
});
