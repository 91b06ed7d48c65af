/**
 * Migrations on deploy: a Lambda in the VPC runs migrateToLatest (functions/deploy/migrate.ts) through
 * the RDS Proxy (IAM authentication, as every function connects), invoked by a CDK trigger once the instance, the proxy and the network path exist.
 * The trigger re-runs whenever the function's version changes (new migrations change its bundle), and
 * the stacks with the service functions deploy only after the data stack, so no function runs against
 * an older schema than its code expects. Migrations are idempotent: a re-run applies nothing.
 */
import { Duration } from 'aws-cdk-lib';
import { Trigger } from 'aws-cdk-lib/triggers';
import { Construct, type IDependable } from 'constructs';
import { ENV } from '#manifest/runtime-names';
import type { StageConfig } from '../stage-config';
import { ServiceLambda } from './service-function';
import { databaseEnv, grantDatabaseConnect, type DatabaseResources } from './service-resources';

/** Function id (deployed as `<prefix>-migrate`); not a manifest function: nothing calls it but the deploy. */
export const MIGRATE_FUNCTION_ID = 'migrate';
/** waiting for a new proxy (functions/deploy/migrate.ts) plus the migrations themselves */
const TIMEOUT = Duration.minutes(10);

export interface MigrationsProps {
  config: StageConfig;
  database: DatabaseResources;
  /** what must exist before the first run: the instance, the proxy and its target, the endpoints, the NAT route */
  after: IDependable[];
}

export class Migrations extends Construct {
  readonly fn: ServiceLambda;
  readonly trigger: Trigger;

  constructor(scope: Construct, id: string, { config, database, after }: MigrationsProps) {
    super(scope, id);
    this.fn = new ServiceLambda(this, MIGRATE_FUNCTION_ID, {
      config,
      description: 'Migrates the database to the latest schema (run by the deployment)',
      entry: 'functions/deploy/migrate.ts',
      timeoutSeconds: TIMEOUT.toSeconds(),
      memoryMb: 512,
      environment: { [ENV.functionId]: MIGRATE_FUNCTION_ID, ...databaseEnv(database) },
      database,
    });
    // the same sign-in as every function: an IAM auth token for the proxy's user (no read of the database secret)
    grantDatabaseConnect(this.fn, database);

    this.trigger = new Trigger(this, 'Run', { handler: this.fn, timeout: TIMEOUT, executeOnHandlerChange: true });
    for (const dependency of after) this.trigger.node.addDependency(dependency);
  }
}
