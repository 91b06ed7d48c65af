/**
 * An investigation's feedback metrics: totals, rates, the breakdown by analysis type, the top regeneration
 * reasons, and the 8-week trend as a small SVG chart whose figures are also stated in text (its label and a table).
 */
import { client, unwrap } from '../api';
import { onLink } from '../router';
import type { components } from '../../api/schema';
import { Loading, percent, Table, useLoad, when } from '../components/ui';
import { ANALYSIS_TYPES } from './Investigation';

type Metrics = components['schemas']['FeedbackMetricsResponse'];
type Week = Metrics['weekly_trend'][number];

const weekOf = (iso: string) => new Date(iso).toLocaleDateString(undefined, { day: 'numeric', month: 'short' });

const SERIES = [
  ['accepted', 'Accepted'],
  ['rejected', 'Rejected'],
  ['needs_revision', 'Needs revision'],
] as const;

/** Judgments per week, stacked by outcome; the figures are in its accessible name and in the table after it. */
const TrendChart = ({ weeks }: { weeks: Week[] }) => {
  const width = 320;
  const height = 140;
  const top = 16;
  const bottom = 20;
  const max = Math.max(1, ...weeks.map((w) => w.judgments));
  const slot = width / weeks.length;
  const scale = (height - top - bottom) / max;
  const label = `Judgments in each of the last ${weeks.length} weeks: ${weeks
    .map(
      (w) =>
        `week of ${weekOf(w.week_start)}, ${w.judgments} (${w.accepted} accepted, ${w.rejected} rejected, ${w.needs_revision} needs revision)`,
    )
    .join('; ')}.`;
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label}>
        <line x1="0" x2={width} y1={height - bottom} y2={height - bottom} class="axis" />
        {weeks.map((w, i) => {
          let y = height - bottom;
          return (
            <g key={w.week_start}>
              {SERIES.map(([key]) => {
                const h = w[key] * scale;
                y -= h;
                return h > 0 ? <rect key={key} class={`bar-${key}`} x={i * slot + 6} y={y} width={slot - 12} height={h} /> : null;
              })}
              <text x={i * slot + slot / 2} y={y - 3} class="value">
                {w.judgments}
              </text>
              <text x={i * slot + slot / 2} y={height - 5} class="tick">
                {weekOf(w.week_start)}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption>
        Judgments per week, by outcome:{' '}
        {SERIES.map(([key, name]) => (
          <span key={key} class="legend">
            <span class={`swatch bar-${key}`} aria-hidden="true" /> {name}
          </span>
        ))}
      </figcaption>
    </figure>
  );
};

export const MetricsPage = ({ id }: { id: string }) => {
  const metrics = useLoad(
    () => unwrap(client.GET('/api/analysis/feedback-metrics', { params: { query: { investigation_id: id } } })),
    [id],
  );
  return (
    <main>
      <p class="crumbs">
        <a href={`/investigations/${id}`} onClick={onLink}>
          Back to the investigation
        </a>
      </p>
      <h1>Feedback metrics</h1>
      <Loading state={metrics} label="the feedback metrics">
        {(m) => (
          <>
            <p class="meta">As of {when(m.as_of)}</p>
            <dl class="figures">
              <div>
                <dt>Analyses</dt>
                <dd>{m.totals.analyses}</dd>
              </div>
              <div>
                <dt>Judgments</dt>
                <dd>{m.totals.judgments}</dd>
              </div>
              <div>
                <dt>Accepted</dt>
                <dd>
                  {m.totals.accepted} ({percent(m.rates.acceptance)})
                </dd>
              </div>
              <div>
                <dt>Rejected</dt>
                <dd>
                  {m.totals.rejected} ({percent(m.rates.rejection)})
                </dd>
              </div>
              <div>
                <dt>Needs revision</dt>
                <dd>
                  {m.totals.needs_revision} ({percent(m.rates.needs_revision)})
                </dd>
              </div>
              <div>
                <dt>Regenerated analyses</dt>
                <dd>
                  {m.totals.regenerated_analyses} ({percent(m.rates.regeneration)})
                </dd>
              </div>
              <div>
                <dt>Edited analyses</dt>
                <dd>
                  {m.totals.edited_analyses} ({percent(m.rates.edit)})
                </dd>
              </div>
              <div>
                <dt>Views</dt>
                <dd>{m.totals.views}</dd>
              </div>
            </dl>
            <section class="panel" aria-labelledby="trend-heading">
              <h2 id="trend-heading">Weekly trend</h2>
              <TrendChart weeks={m.weekly_trend} />
              <details>
                <summary>The figures by week</summary>
                <Table
                  label="Figures by week"
                  columns={['Week of', 'Judgments', 'Accepted', 'Rejected', 'Needs revision', 'Acceptance', 'Regenerations', 'Edits']}
                >
                  {m.weekly_trend.map((w) => (
                    <tr key={w.week_start}>
                      <th scope="row">{weekOf(w.week_start)}</th>
                      <td>{w.judgments}</td>
                      <td>{w.accepted}</td>
                      <td>{w.rejected}</td>
                      <td>{w.needs_revision}</td>
                      <td>{percent(w.acceptance_rate)}</td>
                      <td>{w.regenerations}</td>
                      <td>{w.edits}</td>
                    </tr>
                  ))}
                </Table>
              </details>
            </section>
            <section class="panel" aria-labelledby="types-heading">
              <h2 id="types-heading">By analysis type</h2>
              {m.by_type.length === 0 ? (
                <p>No analyses yet.</p>
              ) : (
                <Table label="By analysis type" columns={['Analysis', 'Analyses', 'Judgments', 'Acceptance', 'Regeneration', 'Edit']}>
                  {m.by_type.map((t) => (
                    <tr key={t.analysis_type}>
                      <th scope="row">{ANALYSIS_TYPES[t.analysis_type]}</th>
                      <td>{t.analyses}</td>
                      <td>{t.judgments}</td>
                      <td>{percent(t.rates.acceptance)}</td>
                      <td>{percent(t.rates.regeneration)}</td>
                      <td>{percent(t.rates.edit)}</td>
                    </tr>
                  ))}
                </Table>
              )}
            </section>
            <section class="panel" aria-labelledby="reasons-heading">
              <h2 id="reasons-heading">Top regeneration reasons</h2>
              {m.top_regeneration_reasons.length === 0 ? (
                <p>No regenerations yet.</p>
              ) : (
                <ol>
                  {m.top_regeneration_reasons.map((r) => (
                    <li key={r.reason}>
                      {r.label}: {r.count} ({percent(r.share)})
                    </li>
                  ))}
                </ol>
              )}
            </section>
          </>
        )}
      </Loading>
    </main>
  );
};
