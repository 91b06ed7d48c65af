/**
 * One request followed through the twin's logs by the `x-request-id` it answered with (issue 16,
 * item 3): the handler's own lines carry it as correlation_id beside the Lambda context, and so do the
 * lines of the generation it queued, in another function.
 */
import { RETENTION_LOG_MARKER } from '#core/operations/retention';
import { DEMO_INVESTIGATION_IDS } from '#core/seed/demo';
import type { TwinTest } from '../support/twin';
import { until } from '../support/until';

export const requestCorrelation = (e2e: TwinTest): void => {
  const requestIdOf = (headers: Headers): string => {
    const id = headers.get('x-request-id');
    if (!id) throw new Error('the answer carries no x-request-id');
    return id;
  };

  test("a cron request: its x-request-id finds the handler's log lines, with the function's own request id", async () => {
    const res = await e2e.call('POST', '/api/admin/cron/retention', e2e.twin.cronSecret);
    expect(res.status).toBe(200);
    const requestId = requestIdOf(res.headers);
    const lines = e2e.logged('retention-sweep').filter((line) => line.correlation_id === requestId);
    expect(lines).toContainEqual(
      expect.objectContaining({
        message: RETENTION_LOG_MARKER,
        jobRunId: res.body.job_run_id,
        function_name: expect.stringContaining('retention'),
        function_request_id: expect.any(String),
      }),
    );
    // one invocation: every line of it, and only those, carry the request id
    const invocations = new Set(lines.map((line) => line.function_request_id));
    expect(invocations.size).toBe(1);
    expect(e2e.logged('retention-sweep').filter((line) => invocations.has(line.function_request_id))).toEqual(lines);
  });

  test("an analysis request: its x-request-id finds the generation worker's lines for that analysis", async () => {
    const investigator = await e2e.token('investigator');
    const created = await e2e.call('POST', '/api/analysis', investigator, {
      investigation_id: DEMO_INVESTIGATION_IDS.northwind,
      analysis_type: 'summary',
    });
    expect(created.status).toBe(202);
    const requestId = requestIdOf(created.headers);
    await e2e.pollUntilGenerated(created.body.analysis_id, investigator);
    // the worker logs the message handled after the analysis is stored, so the line can trail the status a reader sees
    const handled = (line: Record<string, unknown>) => line.correlation_id === requestId && line.message === 'generation message handled';
    const lines = await until(
      'the generation worker to log the message handled',
      async () => {
        const found = e2e.logged('generation-worker').filter((line) => line.correlation_id === requestId);
        return found.some(handled) ? found : undefined;
      },
      10_000,
      50,
    );
    expect(lines).toContainEqual(
      expect.objectContaining({
        message: 'generation message handled',
        analysisId: created.body.analysis_id,
        messageId: expect.any(String),
        function_request_id: expect.any(String),
      }),
    );
  });
};
