/**
 * The twin's user pool: the token issuer with the pool's signing keys and its pre-token-generation trigger (Cognito
 * invokes the trigger function only if its resource policy lets it), and the local Cognito-compatible endpoint.
 */
import type { Kysely } from 'kysely';
import type { Database } from '#core/db/schema';
import type { TwinPlan } from '../assembly/plan';
import type { DeploymentIam } from '../iam/decisions';
import { deniedInvocation, type LambdaRuntime } from '../runtime/lambda';
import type { Stops } from '../stops';
import { loadOrCreatePasskey } from './passkey';
import { startLocalIdentityProvider } from './provider';
import { createTokenIssuer, type KeyFile } from './tokens';

export const startIdentity = async (
  stops: Stops,
  options: {
    twinDir: string;
    plan: TwinPlan;
    db: Kysely<Database>;
    keys: KeyFile;
    iam: DeploymentIam;
    /** the runtime's invoke: the trigger runs there once it has started */
    invoke: LambdaRuntime['invoke'];
    /** the web app's origin, which passkeys are bound to */
    origin: string;
    log: (line: string) => void;
  },
) => {
  const { plan, iam, keys } = options;
  const { userPool } = plan;
  const trigger = userPool.preTokenGeneration && plan.functions.find((f) => f.id === userPool.preTokenGeneration!.functionId);
  const issuer = createTokenIssuer({
    keys,
    pool: userPool,
    region: plan.region,
    ...(trigger && {
      trigger: async (event) =>
        iam.mayInvoke(trigger, 'cognito-idp.amazonaws.com', userPool.arn)
          ? options.invoke(trigger.id, event)
          : deniedInvocation(`Cognito may not invoke ${trigger.functionName}`),
    }),
  });
  const provider = await stops.started(
    startLocalIdentityProvider({
      db: options.db,
      keys,
      issuer,
      passkey: await loadOrCreatePasskey(options.twinDir),
      origin: options.origin,
      log: options.log,
      pool: { userPoolId: userPool.id, clientId: userPool.clients[0]!.id, mfa: userPool.mfa },
    }),
    (p) => () => p.stop(),
  );
  return { issuer, provider };
};
