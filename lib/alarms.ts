/**
 * The service's alarms as one table: each threshold is written here once, with the statistic, period,
 * evaluation window and missing-data treatment that make it a CloudWatch alarm. The observability
 * stack renders the table (lib/stacks/observability-stack.ts); docs/runbook.md says what each alarm
 * means and what to do. Per-stage overrides come from CDK context `alarmThresholds` (see
 * `parseAlarmOverrides`), e.g. `-c alarmThresholds='{"rules":{"databaseCpu":{"threshold":90}}}'`.
 *
 * Pure data and functions (no CDK constructs), so stage-config.ts and the tests can use it directly.
 */
import * as z from 'zod';
import { functions } from '#manifest';

type Statistic = 'Sum' | 'Average' | 'Maximum' | 'Minimum';
/** CloudWatch's TreatMissingData, minus `ignore` (which no alarm here wants) */
export type MissingData = 'breaching' | 'notBreaching' | 'missing';

export interface AlarmRule {
  /** what is wrong when it fires (the alarm description starts with it) */
  summary: string;
  /** in `unit`; `scale` converts it to the metric's own unit */
  threshold: number;
  unit: string;
  /** metric unit per `unit` (e.g. bytes per GiB); 1 when they agree */
  scale?: number;
  comparison: 'above' | 'below';
  statistic: Statistic;
  periodSeconds: number;
  /** consecutive breaching periods that raise the alarm (all of them: datapointsToAlarm = evaluationPeriods) */
  evaluationPeriods: number;
  missingData: MissingData;
  /** why this missing-data treatment (the runbook repeats it) */
  missingDataReason: string;
}

const NO_EVENT_IS_GOOD = 'the metric is published only when the event happens: no data means nothing happened';

/** The alarms. Ids name the CloudWatch alarms (`<prefix>-<id>…`) and the runbook's sections. */
const ALARM_RULES = {
  aiThrottles: {
    summary: 'Bedrock throttled more than 10 model calls in 5 minutes ([AI:Throttle], all regions together)',
    threshold: 10,
    unit: 'throttles',
    comparison: 'above',
    statistic: 'Sum',
    periodSeconds: 300,
    evaluationPeriods: 1,
    missingData: 'notBreaching',
    missingDataReason: NO_EVENT_IS_GOOD,
  },
  aiFallbacks: {
    summary: 'More than 5 model calls fell back to the secondary region in 15 minutes ([AI:fallback])',
    threshold: 5,
    unit: 'fallbacks',
    comparison: 'above',
    statistic: 'Sum',
    periodSeconds: 900,
    evaluationPeriods: 1,
    missingData: 'notBreaching',
    missingDataReason: NO_EVENT_IS_GOOD,
  },
  aiSheds: {
    summary: 'The throttle shedder refused quality calls ([AI:Shed]): analyses are shipping without quality scores',
    threshold: 0,
    unit: 'shed calls',
    comparison: 'above',
    statistic: 'Sum',
    periodSeconds: 300,
    evaluationPeriods: 1,
    missingData: 'notBreaching',
    missingDataReason: NO_EVENT_IS_GOOD,
  },
  auditFailures: {
    summary: 'An audit row failed to write ([AUDIT FAILURE])',
    threshold: 0,
    unit: 'failures',
    comparison: 'above',
    statistic: 'Sum',
    periodSeconds: 300,
    evaluationPeriods: 1,
    missingData: 'notBreaching',
    missingDataReason: NO_EVENT_IS_GOOD,
  },
  qualityCheckFailures: {
    summary: 'A background quality check failed ([QUALITY_CHECK_FAILURE])',
    threshold: 0,
    unit: 'failures',
    comparison: 'above',
    statistic: 'Sum',
    periodSeconds: 300,
    evaluationPeriods: 1,
    missingData: 'notBreaching',
    missingDataReason: NO_EVENT_IS_GOOD,
  },
  databaseCpu: {
    summary: 'Database CPU above 80 % for 5 minutes',
    threshold: 80,
    unit: '%',
    comparison: 'above',
    statistic: 'Average',
    periodSeconds: 60,
    evaluationPeriods: 5,
    missingData: 'missing',
    missingDataReason:
      'RDS reports every minute while the instance runs; no data means it is stopped or being replaced, which the health canary reports',
  },
  databaseFreeStorage: {
    summary: 'Database free storage below 5 GiB',
    threshold: 5,
    unit: 'GiB',
    scale: 1024 ** 3,
    comparison: 'below',
    statistic: 'Minimum',
    periodSeconds: 300,
    evaluationPeriods: 1,
    missingData: 'missing',
    missingDataReason: 'as for database CPU',
  },
  databaseConnections: {
    summary: "Database connections above 80 % of the instance's max_connections",
    threshold: 80,
    unit: '% of max_connections',
    comparison: 'above',
    statistic: 'Maximum',
    periodSeconds: 300,
    evaluationPeriods: 1,
    missingData: 'missing',
    missingDataReason: 'as for database CPU',
  },
  computeCpu: {
    summary: 'Function CPU above 75 % of its allocated vCPU for 10 minutes (Lambda Insights)',
    threshold: 75,
    unit: '% of allocated vCPU',
    comparison: 'above',
    statistic: 'Sum',
    periodSeconds: 300,
    evaluationPeriods: 2,
    missingData: 'notBreaching',
    missingDataReason: 'no invocations, no load',
  },
  computeMemory: {
    summary: 'Function memory above 80 % of its configured memory for 10 minutes (Lambda Insights)',
    threshold: 80,
    unit: '% of configured memory',
    comparison: 'above',
    statistic: 'Maximum',
    periodSeconds: 300,
    evaluationPeriods: 2,
    missingData: 'notBreaching',
    missingDataReason: 'no invocations, no load',
  },
  api5xxRate: {
    summary: 'More than 5 % of API requests answered 5xx over 5 minutes',
    threshold: 5,
    unit: '% of requests',
    comparison: 'above',
    statistic: 'Sum',
    periodSeconds: 300,
    evaluationPeriods: 1,
    missingData: 'notBreaching',
    missingDataReason: 'no requests, no errors (the health canary covers an API that answers nothing)',
  },
  embeddingPending: {
    summary: 'Embedding sources still pending more than 24 hours after a sweep (PendingOver24hAfterSweep above 0)',
    threshold: 0,
    unit: 'sources',
    comparison: 'above',
    statistic: 'Maximum',
    periodSeconds: 3600,
    evaluationPeriods: 1,
    missingData: 'notBreaching',
    missingDataReason:
      'the metric exists only when a sweep runs; a sweeper that does not run raises scheduledRunFailures or deadLetters instead',
  },
  retentionSilence: {
    summary: 'No successful retention sweep (RetentionCronLastRun) for 26 hours',
    threshold: 1,
    unit: 'runs per hour',
    comparison: 'below',
    statistic: 'Sum',
    periodSeconds: 3600,
    evaluationPeriods: 26,
    missingData: 'breaching',
    missingDataReason: 'the alarm is about the line being absent: an hour without it counts against the sweep',
  },
  deadLetters: {
    summary: 'Messages in a dead-letter queue (work that failed every attempt)',
    threshold: 0,
    unit: 'messages',
    comparison: 'above',
    statistic: 'Maximum',
    periodSeconds: 300,
    evaluationPeriods: 1,
    missingData: 'notBreaching',
    missingDataReason: 'SQS stops publishing metrics of a queue idle for 6 hours; an idle dead-letter queue is an empty one',
  },
  scheduledRunFailures: {
    summary: 'A scheduled run failed (Lambda errors of a scheduled function; EventBridge Scheduler retries it)',
    threshold: 0,
    unit: 'failed runs',
    comparison: 'above',
    statistic: 'Sum',
    periodSeconds: 300,
    evaluationPeriods: 1,
    missingData: 'notBreaching',
    missingDataReason: 'no invocations, no errors (a run that never starts lands in the schedules DLQ)',
  },
  // its period is the stage's canary cadence (resolveAlarms: prod's 5 minutes here, dev's 30)
  healthCanary: {
    summary: 'The health canary (GET /api/health) failed twice in a row',
    threshold: 100,
    unit: '% successful runs',
    comparison: 'below',
    statistic: 'Average',
    periodSeconds: 300,
    evaluationPeriods: 2,
    missingData: 'breaching',
    missingDataReason: 'a canary that reports nothing is not checking anything',
  },
} as const satisfies Record<string, AlarmRule>;

export type AlarmRuleId = keyof typeof ALARM_RULES;
export const ALARM_RULE_IDS = Object.keys(ALARM_RULES) as AlarmRuleId[];

/** The two alarms rendered per function, from Lambda Insights. */
export const COMPUTE_RULES = ['computeCpu', 'computeMemory'] as const;
export type ComputeRuleId = (typeof COMPUTE_RULES)[number];

/**
 * Per-function thresholds that differ from the compute defaults (context overrides go on top).
 * background-extract-text parses PDF and DOCX files: it is CPU-bound by design, so it runs near its whole
 * vCPU share whenever it works; only a pinned CPU is news there.
 */
export const FUNCTION_COMPUTE_THRESHOLDS: Record<string, Partial<Record<ComputeRuleId, number>>> = {
  'background-extract-text': { computeCpu: 95 },
};

// ── Lambda compute mapping ─────────────────────────────────────────────────────────────────────
/**
 * Lambda gives a function CPU in proportion to its memory: 1,769 MB is one vCPU. Its CPU utilization is
 * therefore CPU time ÷ (wall time × allocated vCPUs) — Lambda Insights' cpu_total_time over AWS/Lambda's
 * Duration, both summed over the period — which, like a container's CPU %, reaches 100 % when the
 * function uses all the CPU it has.
 */
const LAMBDA_MB_PER_VCPU = 1769;
export const allocatedVcpus = (memoryMb: number): number => memoryMb / LAMBDA_MB_PER_VCPU;

// ── database max_connections ───────────────────────────────────────────────────────────────────
/**
 * Memory (GiB) of the RDS classes the stages use and their neighbours. RDS for PostgreSQL's default is
 * max_connections = LEAST(DBInstanceClassMemory / 9531392, 5000). DBInstanceClassMemory is the class's
 * memory less what RDS keeps for the OS, so the real value is somewhat lower than this gives: check
 * `SHOW max_connections;` and set the `databaseMaxConnections` override if it differs much.
 */
const INSTANCE_CLASS_MEMORY_GIB: Record<string, number> = {
  't4g.micro': 1,
  't4g.small': 2,
  't4g.medium': 4,
  't4g.large': 8,
  't4g.xlarge': 16,
  'm7g.large': 8,
  'm7g.xlarge': 16,
  'm7g.2xlarge': 32,
  'm7g.4xlarge': 64,
  'r7g.large': 16,
  'r7g.xlarge': 32,
  'r7g.2xlarge': 64,
};
const BYTES_PER_CONNECTION = 9531392;
const MAX_CONNECTIONS_CAP = 5000;

export const defaultMaxConnections = (instanceClass: string): number => {
  const gib = INSTANCE_CLASS_MEMORY_GIB[instanceClass];
  if (gib === undefined) {
    throw new Error(
      `no memory size known for database class '${instanceClass}': add it to INSTANCE_CLASS_MEMORY_GIB in lib/alarms.ts ` +
        'or set alarmThresholds.databaseMaxConnections',
    );
  }
  return Math.min(Math.floor((gib * 1024 ** 3) / BYTES_PER_CONNECTION), MAX_CONNECTIONS_CAP);
};

// ── overrides from CDK context ─────────────────────────────────────────────────────────────────
const FUNCTION_IDS = functions.map((f) => f.id) as [string, ...string[]];

const overridesSchema = z.strictObject({
  rules: z
    .partialRecord(
      z.enum(ALARM_RULE_IDS),
      z.strictObject({
        threshold: z.number().nonnegative().optional(),
        evaluationPeriods: z.number().int().positive().optional(),
      }),
    )
    .optional(),
  functions: z
    .partialRecord(
      z.enum(FUNCTION_IDS),
      z.strictObject({
        computeCpu: z.number().positive().max(100).optional(),
        computeMemory: z.number().positive().max(100).optional(),
      }),
    )
    .optional(),
  databaseMaxConnections: z.number().int().positive().optional(),
});

export type AlarmOverrides = z.infer<typeof overridesSchema>;

/**
 * Reads context `alarmThresholds`: a JSON object (in cdk.json) or its text (`-c alarmThresholds='{…}'`).
 * Unknown keys, functions or rules fail the synth rather than being ignored.
 */
export const parseAlarmOverrides = (value: unknown): AlarmOverrides => {
  if (value === undefined || value === '') return {};
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      throw new Error(`alarmThresholds must be a JSON object, got '${value}'`);
    }
  }
  const result = overridesSchema.safeParse(parsed);
  if (!result.success) throw new Error(`alarmThresholds: ${z.prettifyError(result.error)}`);
  return result.data;
};

// ── resolution ─────────────────────────────────────────────────────────────────────────────────
/**
 * CloudWatch's limits on an alarm's window: a period of 10, 30 or a multiple of 60 seconds; period ×
 * evaluation periods at most one day below hourly periods, at most seven days from hourly periods up.
 */
export const assertLegalWindow = (
  id: string,
  { periodSeconds, evaluationPeriods }: Pick<AlarmRule, 'periodSeconds' | 'evaluationPeriods'>,
): void => {
  if (!(periodSeconds === 10 || periodSeconds === 30 || (periodSeconds > 0 && periodSeconds % 60 === 0))) {
    throw new Error(`alarm ${id}: period ${periodSeconds}s is not 10, 30 or a multiple of 60`);
  }
  const limit = periodSeconds < 3600 ? 86_400 : 604_800;
  if (periodSeconds * evaluationPeriods > limit) {
    throw new Error(`alarm ${id}: ${evaluationPeriods} × ${periodSeconds}s exceeds CloudWatch's ${limit / 86_400}-day evaluation window`);
  }
};

export interface ResolvedAlarms {
  rules: Record<AlarmRuleId, AlarmRule>;
  /** the compute rule with the function's own threshold */
  computeRule: (functionId: string, rule: ComputeRuleId) => AlarmRule;
  maxConnections: number;
}

/**
 * The table with the stage's overrides applied, checked against CloudWatch's limits. `canaryMinutes`, the stage's
 * canary cadence (StageConfig.canaryMinutes), is the health canary alarm's period: one run a period.
 */
export const resolveAlarms = (overrides: AlarmOverrides, databaseInstanceClass: string, canaryMinutes?: number): ResolvedAlarms => {
  const cadence: Partial<Record<AlarmRuleId, Partial<AlarmRule>>> = canaryMinutes
    ? { healthCanary: { periodSeconds: canaryMinutes * 60 } }
    : {};
  const rules = Object.fromEntries(
    ALARM_RULE_IDS.map((id) => {
      const rule: AlarmRule = { ...ALARM_RULES[id], ...cadence[id], ...overrides.rules?.[id] };
      assertLegalWindow(id, rule);
      return [id, rule];
    }),
  ) as Record<AlarmRuleId, AlarmRule>;
  return {
    rules,
    computeRule: (functionId, id) => {
      const threshold = overrides.functions?.[functionId]?.[id] ?? FUNCTION_COMPUTE_THRESHOLDS[functionId]?.[id];
      return threshold === undefined ? rules[id] : { ...rules[id], threshold };
    },
    maxConnections: overrides.databaseMaxConnections ?? defaultMaxConnections(databaseInstanceClass),
  };
};
