/**
 * The analysis workers' log lines carry their Lambda context, the message's analysis and message id, and
 * its correlation id — the request that queued it, or the analysis for a message without one — and
 * none of them leaks to the batch's next message (issue 16, item 3). SQS is the client's `send`, stubbed.
 */
import { SQSClient } from '@aws-sdk/client-sqs';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import type { analysisWorker as AnalysisWorker } from '#core/analysis/worker';
import { captureLogLines } from '../support/log-lines';

const ANALYSIS = ['5b0f6a0e-8d3c-4f7a-9b1e-2c4d6e8f0a11', '6c1a7b1f-9e4d-4a8b-8c2f-3d5e7f9a1b22'];

// the logger reads its level when it is made, and each invocation goes back to it: loaded after the level is set
let analysisWorker: typeof AnalysisWorker;
beforeAll(async () => {
  process.env.POWERTOOLS_LOG_LEVEL = 'INFO';
  ({ analysisWorker } = await import('#core/analysis/worker'));
});

const log = captureLogLines();
beforeEach(() => {
  jest.spyOn(SQSClient.prototype, 'send').mockImplementation((async () => ({})) as never);
});

const record = (messageId: string, body: unknown): SQSRecord =>
  ({
    messageId,
    body: JSON.stringify(body),
    receiptHandle: `rh-${messageId}`,
    attributes: { ApproximateReceiveCount: '1' },
    eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:ias-generation',
  }) as unknown as SQSRecord;

test("each message's log lines carry its own ids; a message without a correlation id is correlated by its analysis", async () => {
  const handler = analysisWorker('generation', 'generation', async () => 'complete');
  const event: SQSEvent = {
    Records: [
      record('m-1', { analysis_id: ANALYSIS[0], correlation_id: 'gw-req-1' }),
      record('m-2', { analysis_id: ANALYSIS[1] }), // sent before messages carried one
      record('m-3', { analysis_id: 'not-a-uuid', correlation_id: 'gw-req-3' }),
    ],
  };
  expect(await handler(event, { awsRequestId: 'fn-req-1', functionName: 'ias-generation-worker' } as Context)).toEqual({
    batchItemFailures: [{ itemIdentifier: 'm-3' }],
  });
  expect(log.lines().map((l) => [l.message, l.correlation_id, l.analysisId, l.messageId, l.function_request_id])).toEqual([
    ['generation message handled', 'gw-req-1', ANALYSIS[0], 'm-1', 'fn-req-1'],
    ['generation message handled', ANALYSIS[1], ANALYSIS[1], 'm-2', 'fn-req-1'],
    ['generation message is malformed; left for the DLQ', undefined, undefined, 'm-3', 'fn-req-1'],
  ]);
});
