/**
 * The analysis record (./export.ts) as a PDF document, made in the function with pdf-lib (pure JavaScript, its
 * standard fonts built in: no font file to read at run time, so the bundle is all it needs). A4 pages, text
 * wrapped to the page width; the sections follow the record: what was asked, the answer, each finding with its
 * passages quoted, the claim verdicts and aspects, quality and confidence with its reason, the retrieval set, the
 * prompt and models, the timestamps, the judgments and edits.
 *
 * The standard fonts encode WinAnsi only: a character outside it is written as its closest plain form (accents
 * dropped) or "?", so any text an investigator or a model wrote can be exported.
 */
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import type { AnalysisRecord } from './export';
import { ifUsed } from '#core/if-used';

const PAGE = { width: 595.28, height: 841.89, margin: 50 } as const;
const SIZE = { title: 16, heading: 12, text: 10, small: 8.5 } as const;
const GREY = /* @__PURE__ */ ifUsed(() => rgb(0.35, 0.35, 0.35));

interface Style {
  size?: number;
  bold?: boolean;
  indent?: number;
  grey?: boolean;
}

/** Writes lines top to bottom, wrapping at the margin and turning pages. */
class Writer {
  private page: PDFPage;
  private y = PAGE.height - PAGE.margin;
  private readonly supported: Set<number>;

  constructor(
    private readonly doc: PDFDocument,
    private readonly fonts: { regular: PDFFont; bold: PDFFont },
  ) {
    this.page = doc.addPage([PAGE.width, PAGE.height]);
    this.supported = new Set(fonts.regular.getCharacterSet());
  }

  /** Text the standard font can encode: accents dropped where that makes it so, anything else as "?". */
  private encodable(text: string): string {
    return [...text.replace(/\r?\n|\t/g, ' ')]
      .map((ch) => {
        if (this.supported.has(ch.codePointAt(0)!)) return ch;
        const plain = ch.normalize('NFKD').replace(/\p{M}/gu, '');
        return [...plain].every((c) => this.supported.has(c.codePointAt(0)!)) ? plain : '?';
      })
      .join('');
  }

  private wrap(text: string, font: PDFFont, size: number, width: number): string[] {
    const lines: string[] = [];
    let line = '';
    for (const word of text.split(/\s+/).filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(candidate, size) <= width) {
        line = candidate;
        continue;
      }
      if (line) lines.push(line);
      // a word longer than the line is cut where it must be
      let rest = word;
      while (font.widthOfTextAtSize(rest, size) > width) {
        let cut = rest.length - 1;
        while (cut > 1 && font.widthOfTextAtSize(rest.slice(0, cut), size) > width) cut--;
        lines.push(rest.slice(0, cut));
        rest = rest.slice(cut);
      }
      line = rest;
    }
    if (line) lines.push(line);
    return lines.length > 0 ? lines : [''];
  }

  text(text: string, { size = SIZE.text, bold = false, indent = 0, grey = false }: Style = {}): void {
    const font = bold ? this.fonts.bold : this.fonts.regular;
    const leading = size * 1.35;
    for (const line of this.wrap(this.encodable(text), font, size, PAGE.width - 2 * PAGE.margin - indent)) {
      if (this.y - leading < PAGE.margin) {
        this.page = this.doc.addPage([PAGE.width, PAGE.height]);
        this.y = PAGE.height - PAGE.margin;
      }
      this.y -= leading;
      this.page.drawText(line, { x: PAGE.margin + indent, y: this.y, size, font, ...(grey && { color: GREY }) });
    }
  }

  heading(text: string): void {
    this.gap(8);
    this.text(text, { size: SIZE.heading, bold: true });
    this.gap(2);
  }

  gap(points: number): void {
    this.y -= points;
  }
}

const percent = (score: number | null): string => (score === null ? 'not checked' : `${Math.round(score * 100)} %`);
const when = (iso: string | null): string => (iso === null ? '-' : iso.replace('T', ' ').replace(/\.\d+Z$/, ' UTC'));
const source = (title: string | null, page: number | null): string =>
  `${title ?? '(passage no longer available)'}${page === null ? '' : `, page ${page}`}`;
const verdict = (supported: boolean): string => (supported ? 'Supported' : 'Not supported');

const FEEDBACK_WORDS: Record<string, string> = {
  agree: 'Agreed',
  disagree: 'Disagreed',
  unsure: 'Unsure',
  regenerate: 'Asked for a new version',
  edit: 'Edited the analysis',
  view: 'Viewed',
};

/** The record as PDF bytes. */
export const renderAnalysisPdf = async (record: AnalysisRecord): Promise<Uint8Array> => {
  const { analysis } = record;
  const doc = await PDFDocument.create();
  doc.setTitle(`Analysis ${analysis.analysis_id}`);
  doc.setSubject(`Investigation: ${record.investigation.title}`);
  doc.setCreator('Investigation Analysis Service');
  doc.setCreationDate(new Date(record.exported_at));
  const w = new Writer(doc, {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
  });

  w.text('Analysis record', { size: SIZE.title, bold: true });
  w.text(`Investigation: ${record.investigation.title}`, { bold: true });
  if (analysis.question_text !== null) w.text(`Question: ${analysis.question_text}`, { bold: true });
  if (analysis.topic_title !== null) w.text(`Topic: ${analysis.topic_title}`, { bold: true });
  w.text(
    `Analysis ${analysis.analysis_id} (${analysis.analysis_type}), status ${analysis.generation_status}, exported ${when(record.exported_at)}`,
    { size: SIZE.small, grey: true },
  );

  w.heading('Answer');
  w.text(analysis.result?.summary ?? 'No answer: the analysis was not generated.');
  if (analysis.error_message) w.text(`Error: ${analysis.error_message}`, { grey: true });
  for (const gap of analysis.result?.evidence_gaps ?? []) w.text(`Not established: ${gap}`, { indent: 12 });
  if (analysis.edit) {
    w.gap(4);
    w.text(`Investigator's edit (${analysis.edit.edited_by?.display_name ?? 'unknown'}, ${when(analysis.edit.edited_at)}):`, {
      bold: true,
    });
    w.text(analysis.edit.content, { indent: 12 });
    if (analysis.quality_note) w.text(analysis.quality_note, { grey: true, indent: 12 });
  }

  w.heading('Findings');
  if (record.findings.length === 0) w.text('None.');
  for (const finding of record.findings) {
    w.gap(3);
    w.text(`${finding.index + 1}. ${finding.statement}`, { bold: true });
    for (const citation of finding.citations) {
      w.text(`"${citation.quote ?? '(the passage is no longer available)'}"`, { indent: 12 });
      w.text(`- ${source(citation.source_title, citation.page)}`, { indent: 24, size: SIZE.small, grey: true });
    }
    if (finding.citations.length === 0) w.text('No cited passage.', { indent: 12, grey: true });
    for (const claim of finding.claims) w.text(`Claim verdict: ${verdict(claim.supported)} - ${claim.statement}`, { indent: 12 });
  }

  w.heading('Claim verdicts (faithfulness check)');
  if (!analysis.claims) w.text('No verdicts kept: the analysis has not been checked since they were.');
  for (const claim of analysis.claims ?? []) {
    const part = claim.part === 'finding' ? `finding ${claim.finding_index! + 1}` : claim.part;
    w.text(`${verdict(claim.supported)} (${part}): ${claim.statement}`);
  }
  w.heading('Aspects of the question or topic (coverage check)');
  if (!analysis.coverage_aspects?.length) w.text('No aspects kept.');
  for (const aspect of analysis.coverage_aspects ?? []) w.text(`${aspect.addressed ? 'Addressed' : 'Missing'}: ${aspect.aspect}`);

  w.heading('Quality and confidence');
  w.text(`Faithfulness ${percent(analysis.faithfulness_score)}, coverage ${percent(analysis.coverage_score)}.`);
  w.text(`Confidence: ${analysis.quality_confidence ?? 'none yet'}.`, { bold: true });
  if (analysis.confidence_reason) w.text(`Why: ${analysis.confidence_reason}`);
  w.text(`Citations: ${analysis.validation_status ?? '-'}.`);

  w.heading(`Retrieval set (${record.retrieval.summary.included} included, ${record.retrieval.summary.excluded} excluded)`);
  if (record.retrieval.low_relevance) w.text('No passage reached the similarity floor: the closest few were used.', { grey: true });
  for (const chunk of record.retrieval.chunks) {
    const { band } = chunk;
    const state = chunk.included ? 'included' : `excluded: ${chunk.exclusion_reason ?? 'no reason recorded'}`;
    w.text(`#${chunk.rank}  ${band.percent} % ${band.label}, ${state} - ${source(chunk.source_title, chunk.page)}`);
  }

  w.heading('Prompt and models');
  w.text(`Prompt ${analysis.prompt_type ?? '-'}, version ${analysis.prompt_version ?? '-'}.`);
  for (const m of record.models) w.text(`${m.purpose}: ${m.model_id} in ${m.region} (${m.calls} call${m.calls === 1 ? '' : 's'})`);
  if (analysis.token_usage) w.text(`Tokens: ${analysis.token_usage.input_tokens} in, ${analysis.token_usage.output_tokens} out.`);

  w.heading('Timestamps');
  w.text(`Requested ${when(record.timestamps.requested_at)}`);
  w.text(`Generated ${when(record.timestamps.generated_at)}`);
  w.text(`Quality checked ${when(record.timestamps.quality_checked_at)}`);
  for (const e of record.timestamps.engagements) {
    w.text(
      `${e.display_name ?? e.user_id}: detail reviewed ${when(e.detail_reviewed_at)}, citation checked ${when(e.citation_checked_at)}`,
    );
  }

  w.heading('Judgments and edits');
  if (record.feedback.length === 0) w.text('None.');
  for (const f of record.feedback) {
    const detail = [f.reason && `reason: ${f.reason}`, f.direction && `direction: ${f.direction}`].filter(Boolean).join('; ');
    w.text(
      `${when(f.created_at)} ${f.actor?.display_name ?? 'unknown'}: ${FEEDBACK_WORDS[f.action] ?? f.action} (${f.status})${detail ? ` - ${detail}` : ''}`,
    );
    if (f.content !== null) w.text(f.content, { indent: 12, grey: true });
  }
  return doc.save();
};
