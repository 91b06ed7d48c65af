/** The service's event metrics: each event one EMF line at once, in the service's namespace, with the region where it has one. */
import { countEvent } from '#core/metrics';
import { captureLogLines } from '../support/log-lines';

const { lines } = captureLogLines();

type Emf = {
  _aws: { CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[] };
} & Record<string, unknown>;

test('an AI event: its metric with dimensions service and Region, published at once (no handler, no flush)', () => {
  countEvent('aiThrottles', 'us-west-2');
  const [line, ...rest] = lines() as Emf[];
  expect(rest).toEqual([]);
  expect(line!._aws.CloudWatchMetrics).toEqual([
    {
      Namespace: 'InvestigationAnalysis',
      Dimensions: [['service', 'Region']],
      Metrics: [{ Name: 'AiThrottles', Unit: 'Count' }],
    },
  ]);
  expect(line).toMatchObject({ AiThrottles: 1, service: 'investigation-analysis', Region: 'us-west-2' });
});

test('events without a region: dimension service only, one line per event', () => {
  countEvent('auditFailures');
  countEvent('auditFailures');
  expect((lines() as Emf[]).map((l) => [l._aws.CloudWatchMetrics[0]!.Dimensions, l.AuditFailures])).toEqual([
    [[['service']], 1],
    [[['service']], 1],
  ]);
});
