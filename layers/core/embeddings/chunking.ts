/**
 * Splits a source's text into chunks for retrieval. Pure and deterministic: the same text (up to
 * whitespace) always gives the same chunks.
 *
 * 1. Normalise: `\r\n` → `\n`, control characters (NUL included; PostgreSQL text cannot hold it) →
 *    space; paragraphs are separated by a blank line (or U+2029); inside a paragraph every run of
 *    whitespace becomes one space; paragraphs are joined by one space. Every chunk is a slice of this
 *    normalised text, so chunks carry their `start`/`end` offsets in it and never hold a blank line
 *    (which the Bedrock stand-in, like a prompt reader, takes as the end of a passage).
 * 2. Units: the sentences of each paragraph (Intl.Segmenter, not breaking after common
 *    abbreviations such as "Mr." or "e.g.", nor where no space follows). A sentence longer than
 *    `targetChars − overlapChars − 1` is cut between words into pieces that fit; a single word longer
 *    than that is the one thing ever cut inside (at a code point boundary).
 * 3. Packing: units are added to the current chunk while it stays within `targetChars`. A chunk also
 *    ends where a new paragraph begins once it holds at least `minChars`, so paragraphs tend to stay
 *    whole. The next chunk starts with an overlap of at most `overlapChars` copied from the end of the
 *    previous one: from a sentence start when that gives at least half the overlap, else from the
 *    earliest word start that fits. Because a unit is at most `targetChars − overlapChars − 1` long,
 *    overlap plus one unit always fits, so no chunk exceeds `targetChars`.
 */

export interface ChunkOptions {
  /** the most characters in a chunk (default 800) */
  targetChars?: number;
  /** the most characters a chunk repeats from the end of the previous one (default 100) */
  overlapChars?: number;
  /** a chunk holding at least this many characters ends at a paragraph break (default targetChars / 2) */
  minChars?: number;
}

export const CHUNK_DEFAULTS = { targetChars: 800, overlapChars: 100 } as const;

export interface TextChunk {
  /** position of the chunk in its source, from 0 */
  index: number;
  text: string;
  /** offsets of `text` in the normalised text: normalised.slice(start, end) === text */
  start: number;
  end: number;
  /** estimated tokens (one per four characters, rounded up) */
  tokenCount: number;
}

export interface NormalizedText {
  text: string;
  /** offset of each paragraph's first character in `text` */
  paragraphStarts: number[];
}

/** Deterministic token estimate: one token per four characters, rounded up (the stand-in counts alike). */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000E-\u001F\u007F]/g;
const PARAGRAPH_BREAK = /\n\s*\n|\u2029/;

export const normalizeText = (raw: string): NormalizedText => {
  const paragraphs = raw
    .replace(CONTROL, ' ')
    .replace(/\r\n?/g, '\n')
    .split(PARAGRAPH_BREAK)
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter((p) => p !== '');
  const paragraphStarts: number[] = [];
  let offset = 0;
  for (const p of paragraphs) {
    paragraphStarts.push(offset);
    offset += p.length + 1;
  }
  return { text: paragraphs.join(' '), paragraphStarts };
};

interface Unit {
  start: number;
  end: number;
  sentenceStart: boolean;
  paragraphStart: boolean;
}

/** Made on first use: ICU's sentence rules take about 9 ms to build, which a function that never chunks would pay at init. */
let segmenter: Intl.Segmenter | undefined;

/** ICU breaks after these; a sentence ending in one continues in the next segment. */
const ABBREVIATION_END =
  /\b(?:mr|mrs|ms|dr|prof|st|sr|jr|no|nos|vs|inc|ltd|co|gen|col|capt|lt|sgt|det|insp|approx|fig|e\.g|i\.e|etc)\.\s*$/i;

/** Sentence spans [start, end) of one paragraph (no surrounding spaces), offsets relative to it. */
const sentenceSpans = (paragraph: string): Array<[number, number]> => {
  const spans: Array<[number, number]> = [];
  let from = 0;
  for (const { segment, index } of (segmenter ??= new Intl.Segmenter('en', { granularity: 'sentence' })).segment(paragraph)) {
    const to = index + segment.length;
    const pending = paragraph.slice(from, to);
    // only break where a space follows and not after an abbreviation
    if (to < paragraph.length && (!/\s$/.test(pending) || ABBREVIATION_END.test(pending))) continue;
    const trimmed = pending.trimEnd();
    if (trimmed !== '') spans.push([from, from + trimmed.length]);
    from = to;
  }
  return spans;
};

/** A cut at or before `at` that does not separate a surrogate pair. */
const codePointCut = (text: string, at: number): number => {
  const code = text.charCodeAt(at - 1);
  return code >= 0xd800 && code <= 0xdbff ? at - 1 : at;
};

/** Cuts the span [start, end) of `text` between words into pieces of at most `max` characters. */
const splitLong = (text: string, start: number, end: number, max: number): Array<[number, number]> => {
  const pieces: Array<[number, number]> = [];
  let pieceStart = start;
  while (end - pieceStart > max) {
    // the last space that keeps the piece within max
    const space = text.lastIndexOf(' ', pieceStart + max);
    if (space > pieceStart) {
      pieces.push([pieceStart, space]);
      pieceStart = space + 1;
    } else {
      // one word longer than max: the only cut inside a word
      const cut = Math.max(pieceStart + 1, codePointCut(text, pieceStart + max));
      pieces.push([pieceStart, cut]);
      pieceStart = cut;
    }
  }
  pieces.push([pieceStart, end]);
  return pieces;
};

const unitsOf = (normalized: NormalizedText, maxUnit: number): Unit[] => {
  const { text, paragraphStarts } = normalized;
  const units: Unit[] = [];
  paragraphStarts.forEach((offset, i) => {
    const paragraphEnd = (paragraphStarts[i + 1] ?? text.length + 1) - 1;
    sentenceSpans(text.slice(offset, paragraphEnd)).forEach(([s, e], j) => {
      splitLong(text, offset + s, offset + e, maxUnit).forEach(([start, end], k) => {
        units.push({ start, end, sentenceStart: k === 0, paragraphStart: j === 0 && k === 0 });
      });
    });
  });
  return units;
};

const resolveOptions = (options: ChunkOptions) => {
  const targetChars = options.targetChars ?? CHUNK_DEFAULTS.targetChars;
  const overlapChars = options.overlapChars ?? CHUNK_DEFAULTS.overlapChars;
  const minChars = options.minChars ?? Math.floor(targetChars / 2);
  if (!Number.isInteger(targetChars) || targetChars < 2) throw new RangeError('targetChars must be an integer of at least 2');
  if (!Number.isInteger(overlapChars) || overlapChars < 0 || overlapChars > targetChars - 2)
    throw new RangeError('overlapChars must be an integer from 0 to targetChars − 2');
  return { targetChars, overlapChars, minChars };
};

/** Splits `raw` into chunks (see the module comment). Empty or whitespace-only text gives no chunks. */
export const chunkText = (raw: string, options: ChunkOptions = {}): TextChunk[] => {
  const { targetChars, overlapChars, minChars } = resolveOptions(options);
  const normalized = normalizeText(raw);
  const { text } = normalized;
  if (text === '') return [];
  const units = unitsOf(normalized, targetChars - overlapChars - 1);
  const sentenceStarts = new Set(units.filter((u) => u.sentenceStart).map((u) => u.start));

  /** Where the chunk after [start, end) begins: inside it (overlap), or undefined for no overlap. */
  const overlapStart = (start: number, end: number): number | undefined => {
    const from = Math.max(start + 1, end - overlapChars);
    let word: number | undefined;
    for (let p = from; p < end; p++) {
      if (text[p - 1] !== ' ') continue;
      word ??= p;
      if (sentenceStarts.has(p)) return end - p >= overlapChars / 2 ? p : word;
    }
    return word;
  };

  const spans: Array<[number, number]> = [];
  let start = -1;
  let end = -1;
  for (const unit of units) {
    if (start < 0) {
      [start, end] = [unit.start, unit.end];
      continue;
    }
    const full = unit.end - start > targetChars;
    const paragraphBreak = unit.paragraphStart && end - start >= minChars;
    if (full || paragraphBreak) {
      spans.push([start, end]);
      start = overlapStart(start, end) ?? unit.start;
    }
    end = unit.end;
  }
  spans.push([start, end]);

  return spans.map(([s, e], index) => {
    const chunk = text.slice(s, e);
    return { index, text: chunk, start: s, end: e, tokenCount: estimateTokens(chunk) };
  });
};

export interface JoinedChunks {
  text: string;
  /** offsets of each chunk's text in `text`, in the order given */
  spans: Array<{ start: number; end: number }>;
}

/**
 * The text consecutive chunks of one source were cut from (chunkText's inverse, for showing a chunk in its
 * surrounding passage): each chunk overlaps the one before by at most `overlapChars`, starting at a word
 * start, so the longest such overlap is taken out; without one, the chunks were one space apart.
 * Repetitive text can make a longer overlap look possible than the one chunkText chose, and then a
 * repeated phrase shows once; the chunk texts themselves are always kept whole.
 */
export const joinChunks = (texts: readonly string[], overlapChars: number = CHUNK_DEFAULTS.overlapChars): JoinedChunks => {
  let text = '';
  const spans: JoinedChunks['spans'] = [];
  for (const chunk of texts) {
    if (spans.length === 0) {
      text = chunk;
      spans.push({ start: 0, end: chunk.length });
      continue;
    }
    let overlap = 0;
    for (let k = Math.min(overlapChars, text.length, chunk.length); k > 0; k--) {
      const wordStart = k === text.length || text[text.length - k - 1] === ' ';
      if (wordStart && text.endsWith(chunk.slice(0, k))) {
        overlap = k;
        break;
      }
    }
    const start = overlap > 0 ? text.length - overlap : text.length + 1;
    text = overlap > 0 ? text.slice(0, start) + chunk : `${text} ${chunk}`;
    spans.push({ start, end: start + chunk.length });
  }
  return { text, spans };
};

// ---- pages ----------------------------------------------------------------------------------

/**
 * How extraction separates a PDF's pages in the text it stores: a form feed on a line of its own, which the chunker
 * takes as the paragraph break it is (so the chunks are those of the text without it) and which numbers the pages.
 */
export const PAGE_BREAK = '\n\f\n';

/**
 * Where each page starts in the normalised text (normalizeText joins paragraphs, and so pages, with one space): the
 * offset of page 1, page 2, …; empty for a text without page breaks.
 */
export const pageStarts = (text: string): number[] => {
  if (!text.includes('\f')) return [];
  const starts: number[] = [];
  let offset = 0;
  for (const page of text.split(/\n?\f\n?/)) {
    const normalized = normalizeText(page).text;
    starts.push(offset);
    if (normalized !== '') offset += normalized.length + 1;
  }
  return starts;
};

/** The page (from 1) holding offset `at` of the normalised text, or null without pages. */
export const pageAt = (starts: readonly number[], at: number): number | null => {
  if (starts.length === 0) return null;
  let page = 1;
  for (let i = 1; i < starts.length; i++) if (starts[i]! <= at) page = i + 1;
  return page;
};

export interface PreparedChunk extends TextChunk {
  /** the PDF page (from 1) the chunk starts on; null for a text without pages */
  page: number | null;
}

/** Pure: the chunks of a source's text, each with its page. */
export const prepareChunks = (text: string): PreparedChunk[] => {
  const starts = pageStarts(text);
  return chunkText(text).map((chunk) => ({ ...chunk, page: pageAt(starts, chunk.start) }));
};
