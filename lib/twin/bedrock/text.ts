/**
 * Pure text logic of the local Bedrock stand-in (./bedrock-standin.ts): the extractive Converse
 * answer and the feature-hashing embedding. No I/O and no randomness: the same input always gives
 * the same output. Everything it writes is labelled as stand-in output.
 *
 * Prompt convention the extractive answer understands:
 * - Evidence passages in the user message(s) start with a marker `[chunk:<id>]` at the start of a
 *   line (the service issues a fresh label per call as the id: layers/core/analysis/evidence-markers.ts);
 *   a passage runs to the next marker or to the first blank line after it, whichever comes first. Text
 *   outside the passages (and the system prompt) is read as the instructions / question, so a marker
 *   quoted inside a sentence (a template's "each starts with its [chunk:<label>] marker", or user text
 *   the service failed to neutralise) is never read as a passage and never cited.
 * - Without any marker, every non-empty line of the user message(s) is a passage with no citation.
 * - If the instructions contain the word JSON, the answer is a JSON object (see StandinAnswer).
 * - A quality call reviews the analysis after the line that starts `Analysis under review` (to the line that starts
 *   `Question or topic` or to its last paragraph), claim by claim. One whose instructions ask for `"aspects"` is a
 *   coverage check: the aspects are the content phrases of the line that starts `Question or topic` (its text after
 *   the first colon), each addressed when the analysis under review holds at least half its words, citing the
 *   passages that do. The instructions read for it are the system prompt and the user text's closing paragraph
 *   after the last evidence passage (where a prompt sharing its system prompt and evidence with another check says
 *   what it checks), never the passages or the analysis.
 */

const STANDIN_LABEL = '[stand-in]';
/** the most sentences an answer quotes */
const MAX_FINDINGS = 5;

/** Deterministic token estimate: one token per four characters, rounded up. */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

// ---- hashing and embeddings ------------------------------------------------------------------

const utf8 = new TextEncoder();
/** held at module scope: a global read in a hot loop is slow where the global object is a vm context's (jest's) */
const { imul } = Math;

/** 32-bit FNV-1a over the UTF-8 bytes of `text`, as an unsigned integer. */
export const fnv1a32 = (text: string): number => {
  let hash = 0x811c9dc5;
  for (const byte of utf8.encode(text)) {
    hash ^= byte;
    hash = imul(hash, 0x01000193);
  }
  return hash >>> 0;
};

/** Lowercased runs of letters and digits, in order. */
const wordTokens = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

const STOPWORDS = new Set(
  'a an and are as at be been but by for from had has have he her his i in is it its not of on or she that the their they this to was we were what when which who will with you'.split(
    ' ',
  ),
);

/** Word tokens without common English function words, so unrelated texts share (almost) nothing. */
const contentWords = (text: string): string[] => wordTokens(text).filter((word) => !STOPWORDS.has(word));

/**
 * Weighted features of a text: content words (weight 1) and adjacent content-word pairs (0.5).
 * Falls back to all words, then to the raw text, so every non-empty text has at least one feature.
 */
const textFeatures = (text: string): Array<[feature: string, weight: number]> => {
  const all = wordTokens(text);
  const content = all.filter((word) => !STOPWORDS.has(word));
  const words = content.length > 0 ? content : all;
  if (words.length === 0) return [[`raw:${text.trim()}`, 1]];
  const features: Array<[string, number]> = words.map((word) => [`w:${word}`, 1]);
  for (let i = 1; i < words.length; i++) features.push([`b:${words[i - 1]} ${words[i]}`, 0.5]);
  return features;
};

/**
 * Feature-hashing embedding: each feature lands in bucket `hash % dimensions` with the sign of the
 * hash's top bit; L2-normalized when `normalize` is true. Cosine similarity tracks word overlap.
 */
export const embedText = (text: string, dimensions: number, normalize = true): number[] => {
  const vector = new Array<number>(dimensions).fill(0);
  for (const [feature, weight] of textFeatures(text)) {
    const hash = fnv1a32(feature);
    const bucket = hash % dimensions;
    vector[bucket] = (vector[bucket] ?? 0) + (hash >= 0x80000000 ? -weight : weight);
  }
  if (!normalize) return vector;
  const norm = Math.sqrt(vector.reduce((sum, v) => sum + v * v, 0));
  return norm === 0 ? vector : vector.map((v) => v / norm);
};

export const cosineSimilarity = (a: readonly number[], b: readonly number[]): number => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
};

// ---- extractive answers ----------------------------------------------------------------------

interface EvidencePassage {
  /** the id (the service's per-call label) from a `[chunk:<id>]` marker; absent for unmarked lines */
  chunkId?: string;
  text: string;
}

export interface ParsedPrompt {
  passages: EvidencePassage[];
  /** system prompt plus the user text outside the passages */
  instructions: string;
  asksForJson: boolean;
}

interface Finding {
  /** a sentence copied verbatim (whitespace collapsed) from an evidence passage */
  statement: string;
  /** ids of the chunks the sentence was found in (only ids present in the prompt) */
  citations: string[];
}

/** The JSON answer; the layout per purpose (analysis / quality / judge) is refined later. */
export interface StandinAnswer {
  standin: true;
  summary: string;
  findings: Finding[];
  confidence: 'possible';
}

const CHUNK_MARKER = /^\[chunk:([^\]\s]+)\]/gm;
const JSON_WORD = /\bjson\b/i;

export const parsePrompt = (system: string, user: string): ParsedPrompt => {
  const markers = [...user.matchAll(CHUNK_MARKER)];
  if (markers.length === 0) {
    const passages = user
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '')
      .map((text) => ({ text }));
    return { passages, instructions: system, asksForJson: JSON_WORD.test(`${system}\n${user}`) };
  }
  const outside = [system, user.slice(0, markers[0]?.index)];
  const passages = markers.map((marker, i): EvidencePassage => {
    const start = marker.index + marker[0].length;
    const end = markers[i + 1]?.index ?? user.length;
    const [text = '', ...after] = user
      .slice(start, end)
      .trim()
      .split(/\n\s*\n/);
    outside.push(after.join('\n\n'));
    return { chunkId: marker[1] ?? '', text: text.trim() };
  });
  const instructions = outside.join('\n');
  return { passages, instructions, asksForJson: JSON_WORD.test(instructions) };
};

const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

/** ICU breaks after these; a sentence ending in one continues in the next segment. */
const ABBREVIATION_END = /\b(?:mr|mrs|ms|dr|prof|st|sr|jr|no|nos|vs|inc|ltd|co|gen|col|capt|lt|sgt|det|insp|approx|fig|e\.g|i\.e)\.\s*$/i;

/** Sentences of a passage, whitespace collapsed (hard-wrapped lines are joined). */
export const sentences = (text: string): string[] => {
  const result: string[] = [];
  let pending = '';
  for (const { segment } of segmenter.segment(text.replace(/\s+/g, ' '))) {
    pending += segment;
    if (ABBREVIATION_END.test(pending)) continue;
    if (pending.trim() !== '') result.push(pending.trim());
    pending = '';
  }
  if (pending.trim() !== '') result.push(pending.trim());
  return result;
};

/** A sentence worth quoting: at least three words, not an instruction about JSON, not a question or a heading. */
const quotable = (sentence: string): boolean => wordTokens(sentence).length >= 3 && !JSON_WORD.test(sentence) && !/[?:]$/.test(sentence);

/**
 * Up to `max` findings: the sentence of each passage sharing the most content words with the
 * instructions (earliest on ties), the best-scoring passages kept, reported in passage order.
 * The same sentence found in several chunks becomes one finding citing all of them.
 */
const extractFindings = (prompt: ParsedPrompt, max = MAX_FINDINGS): Finding[] => {
  const query = new Set(contentWords(prompt.instructions));
  const score = (sentence: string): number => new Set(contentWords(sentence).filter((w) => query.has(w))).size;
  const byStatement = new Map<string, { order: number; score: number; citations: string[] }>();
  prompt.passages.forEach((passage, order) => {
    let best: { sentence: string; score: number } | undefined;
    for (const sentence of sentences(passage.text).filter(quotable)) {
      const s = score(sentence);
      if (!best || s > best.score) best = { sentence, score: s };
    }
    if (!best) return;
    const seen = byStatement.get(best.sentence);
    const citations = passage.chunkId === undefined ? [] : [passage.chunkId];
    if (!seen) byStatement.set(best.sentence, { order, score: best.score, citations });
    else seen.citations = [...new Set([...seen.citations, ...citations])];
  });
  return [...byStatement.entries()]
    .sort(([, a], [, b]) => b.score - a.score || a.order - b.order)
    .slice(0, max)
    .sort(([, a], [, b]) => a.order - b.order)
    .map(([statement, { citations }]) => ({ statement, citations }));
};

const answerJson = (findings: Finding[]): StandinAnswer => ({
  standin: true,
  summary:
    findings.length > 0
      ? `${STANDIN_LABEL} Extractive summary: ${findings
          .slice(0, 2)
          .map((f) => f.statement)
          .join(' ')}`
      : `${STANDIN_LABEL} The prompt contained no evidence sentences to extract.`,
  findings,
  confidence: 'possible',
});

const answerText = (findings: Finding[]): string => {
  const head = `${STANDIN_LABEL} Extractive answer from the local Bedrock stand-in (not AI output).`;
  if (findings.length === 0) return `${head}\nThe prompt contained no evidence sentences to extract.`;
  const lines = findings.map((f) => `- ${[f.statement, ...f.citations.map((id) => `[chunk:${id}]`)].join(' ')}`);
  return [head, ...lines].join('\n');
};

// ---- per purpose -----------------------------------------------------------------------------
// The gateway names the purpose of each Converse call in `requestMetadata.purpose`. Analysis (and
// any unnamed purpose) gets the extractive findings above; quality and judge calls get the verdict
// shapes below, computed from word overlap between the text under review and the evidence.

interface ClaimVerdict {
  statement: string;
  supported: boolean;
  citations: string[];
}

interface QualityAnswer {
  standin: true;
  /** share of the reviewed claims supported by some evidence passage, 0–1 */
  score: number;
  claims: ClaimVerdict[];
  rationale: string;
}

interface JudgeAnswer {
  standin: true;
  scores: Record<'relevance' | 'completeness' | 'accuracy' | 'professional_tone', { score: 1 | 2 | 3 | 4 | 5; reason: string }>;
}

/** A claim is supported when most of its content words occur in one passage. */
const verdictFor = (claim: string, passages: EvidencePassage[]): ClaimVerdict => {
  const words = [...new Set(contentWords(claim))];
  const supporting = passages.filter((p) => {
    const have = new Set(contentWords(p.text));
    return words.length > 0 && words.filter((w) => have.has(w)).length / words.length >= 0.6;
  });
  return { statement: claim, supported: supporting.length > 0, citations: supporting.flatMap((p) => (p.chunkId ? [p.chunkId] : [])) };
};

const QUESTION_LINE = /^Question or topic[^:\n]*:(.*)$/m;

/**
 * The analysis under review in a quality prompt: after the line that starts `Analysis under review`, up to its closing
 * instruction paragraph (or the first evidence marker), and up to the question or topic when that follows it;
 * undefined in a prompt without that line.
 */
const analysisUnderReview = (user: string): string | undefined => {
  const start = /^Analysis under review[^\n]*\n/m.exec(user);
  if (!start) return undefined;
  const rest = user.slice(start.index + start[0].length).split(/^\[chunk:/m)[0]!;
  const last = rest.trimEnd().lastIndexOf('\n\n');
  const review = last === -1 ? rest : rest.slice(0, last);
  return review.slice(0, QUESTION_LINE.exec(review)?.index);
};

/**
 * The paragraph closing the user text after its last evidence passage (empty when a passage closes it): a check's own
 * instructions when its system prompt is shared. Only the last paragraph, so neither the passages nor the analysis
 * under review (which may quote them) before it are read as instructions.
 */
const closingInstructions = (user: string): string => {
  const lastMarker = [...user.matchAll(CHUNK_MARKER)].at(-1);
  const paragraphs = user
    .slice(lastMarker?.index)
    .trim()
    .split(/\n\s*\n/);
  return paragraphs.slice(lastMarker ? 1 : 0).at(-1) ?? '';
};

/**
 * The claims under review: the quotable sentences of the analysis under review (its numbering, "Summary:" label and
 * citation lists left out), or, in a prompt without that block, of the user's text outside the evidence passages
 * (the system prompt holds instructions, not claims).
 */
const reviewedClaims = (user: string): string[] => {
  const review = analysisUnderReview(user);
  if (review === undefined) return sentences(parsePrompt('', user).instructions).filter(quotable);
  return review
    .split('\n')
    .map((line) => line.replace(/^\s*(?:\d+\.|Summary:)\s*/, '').replace(/\s*\((?:citations: [^)]*|no citations)\)\s*$/, ''))
    .flatMap(sentences)
    .filter(quotable);
};

const answerQuality = (prompt: ParsedPrompt, user: string): QualityAnswer => {
  const claims = reviewedClaims(user).map((claim) => verdictFor(claim, prompt.passages));
  const supported = claims.filter((c) => c.supported).length;
  const score = claims.length === 0 ? 0 : Math.round((supported / claims.length) * 100) / 100;
  return {
    standin: true,
    score,
    claims,
    rationale: `${STANDIN_LABEL} ${supported} of ${claims.length} claim(s) share most of their words with a cited passage.`,
  };
};

interface AspectVerdict {
  aspect: string;
  addressed: boolean;
  citations: string[];
}

interface CoverageAnswer {
  standin: true;
  /** share of the aspects the analysis addresses, 0–1 */
  score: number;
  aspects: AspectVerdict[];
  rationale: string;
}

/** an aspect is addressed by a text holding at least this share of its words */
const ASPECT_WORDS_SHARE = 0.5;
/** the most aspects a coverage answer lists */
const MAX_ASPECTS = 8;
const ASKS_FOR_ASPECTS = /"aspects"/;

/** Words that ask rather than name: an aspect of a question is what it asks about, not how it asks. */
const ASKING_WORDS = new Set('do does did how why where whether any there can could should would'.split(' '));

/**
 * Runs of content words between function words, asking words and punctuation:
 * "Who approved the wire transfer, and did anyone check?" -> ["approved", "wire transfer", "anyone check"].
 */
const contentPhrases = (text: string): string[] => {
  const phrases: string[] = [];
  for (const piece of text.toLowerCase().split(/[^\p{L}\p{N}\s]+/u)) {
    let run: string[] = [];
    for (const word of wordTokens(piece)) {
      if (STOPWORDS.has(word) || ASKING_WORDS.has(word) || word.length < 2) {
        if (run.length > 0) phrases.push(run.join(' '));
        run = [];
      } else run.push(word);
    }
    if (run.length > 0) phrases.push(run.join(' '));
  }
  return [...new Set(phrases)].slice(0, MAX_ASPECTS);
};

const answerCoverage = (prompt: ParsedPrompt, user: string): CoverageAnswer => {
  const asked = QUESTION_LINE.exec(user)?.[1] ?? '';
  const reviewed = new Set(wordTokens(analysisUnderReview(user) ?? ''));
  const aspects = contentPhrases(asked).map((aspect): AspectVerdict => {
    const words = wordTokens(aspect);
    const holds = (text: string | Set<string>) => {
      const have = typeof text === 'string' ? new Set(wordTokens(text)) : text;
      return words.filter((w) => have.has(w)).length / words.length >= ASPECT_WORDS_SHARE;
    };
    return {
      aspect,
      addressed: holds(reviewed),
      citations: prompt.passages.flatMap((p) => (p.chunkId && holds(p.text) ? [p.chunkId] : [])),
    };
  });
  const addressed = aspects.filter((a) => a.addressed).length;
  return {
    standin: true,
    score: aspects.length === 0 ? answerQuality(prompt, user).score : Math.round((addressed / aspects.length) * 100) / 100,
    aspects,
    rationale:
      aspects.length === 0
        ? `${STANDIN_LABEL} No question or topic to split into aspects; the score is the share of supported claims.`
        : `${STANDIN_LABEL} ${addressed} of ${aspects.length} aspect(s) of the question or topic have half their words or more in the analysis.`,
  };
};

const answerJudge = (prompt: ParsedPrompt, user: string): JudgeAnswer => {
  const quality = answerQuality(prompt, user);
  const grade = (x: number) => Math.max(1, Math.min(5, Math.round(1 + x * 4))) as 1 | 2 | 3 | 4 | 5;
  const reason = `${STANDIN_LABEL} derived from word overlap, not a model's judgement`;
  const coverage = prompt.passages.length === 0 ? 0 : Math.min(1, quality.claims.length / prompt.passages.length);
  return {
    standin: true,
    scores: {
      relevance: { score: grade(quality.score), reason },
      completeness: { score: grade(coverage), reason },
      accuracy: { score: grade(quality.score), reason },
      professional_tone: { score: 4, reason },
    },
  };
};

/** The stand-in's whole Converse answer text for a system prompt, the user messages' text and the purpose. */
export const composeAnswer = (system: string, user: string, purpose?: string): string => {
  const prompt = parsePrompt(system, user);
  if (purpose === 'quality') {
    const coverage = ASKS_FOR_ASPECTS.test(system) || ASKS_FOR_ASPECTS.test(closingInstructions(user));
    return JSON.stringify(coverage ? answerCoverage(prompt, user) : answerQuality(prompt, user));
  }
  if (purpose === 'judge') return JSON.stringify(answerJudge(prompt, user));
  const findings = extractFindings(prompt);
  return prompt.asksForJson ? JSON.stringify(answerJson(findings)) : answerText(findings);
};
