/**
 * What the twin's AWS account answers about itself, for the read-only calls `npm run preflight` makes before a first
 * deploy (lib/operator/cli-preflight.ts), each in its service's own protocol behind the AWS edge:
 *   Bedrock (control plane)  GET /foundation-model-availability/{modelId}, GET /inference-profiles/{id}: a model the
 *                            Bedrock stand-in serves is available in every region (a geographic inference profile
 *                            only in its geography), unless access to it was taken away (`set({ modelAccessRevoked })`)
 *   Lambda                   GET /2016-08-19/account-settings: the account's concurrency limit (1,000, AWS's default)
 *   SES (v2)                 GET /v2/email/identities/{identity}, GET /v2/email/account: the identities verified in
 *                            the region asked (none until `set({ verifiedIdentities })`: SES's are per region),
 *                            production access (out of the sandbox)
 *   Systems Manager          GetParameter of CDK's bootstrap version (`/cdk-bootstrap/<qualifier>/version`)
 * A deployed twin is a bootstrapped account with model access; tests take parts away to see preflight say so.
 */
import { randomUUID } from 'node:crypto';
import { profileValidIn, splitProfileId } from '#core/ai/models';
import type { AwsHttpRequest } from '../iam/requests';
import { servesModel } from '../bedrock/standin';

export interface AccountState {
  /** Lambda's concurrent executions limit */
  lambdaConcurrency: number;
  /** CDK's bootstrap stack version, or none: not bootstrapped */
  bootstrapVersion: number | undefined;
  /** `<region> <model id>` pairs whose access was taken away (no use-case form, an entitlement missing) */
  modelAccessRevoked: string[];
  /** `<region> <identity>` pairs: SES identities (addresses or domains) verified for sending, each in its region only */
  verifiedIdentities: string[];
  /** SES production access: false is the sandbox (mail only to verified addresses) */
  sesProductionAccess: boolean;
}

type Answer = { status: number; headers: Record<string, string>; body: string };

const DEFAULTS: AccountState = {
  lambdaConcurrency: 1000,
  bootstrapVersion: 30,
  modelAccessRevoked: [],
  verifiedIdentities: [],
  sesProductionAccess: true,
};

export const twinAccount = () => {
  let state: AccountState = { ...DEFAULTS };

  const json = (status: number, body: unknown, headers: Record<string, string> = {}): Answer => ({
    status,
    headers: { 'content-type': 'application/json', 'x-amzn-requestid': randomUUID(), ...headers },
    body: JSON.stringify(body),
  });
  /** REST-JSON services' errors: the type in a header and the body */
  const restError = (status: number, type: string, message: string) => json(status, { message }, { 'x-amzn-errortype': type });
  const pathOf = (request: AwsHttpRequest) => decodeURIComponent(request.path.split('?')[0] ?? '/');

  const bedrock = (request: AwsHttpRequest): Answer => {
    const path = pathOf(request);
    const availability = /^\/foundation-model-availability\/([^/]+)$/.exec(path);
    if (availability) {
      const modelId = availability[1]!;
      if (!servesModel(modelId)) return restError(404, 'ResourceNotFoundException', `The model ${modelId} does not exist.`);
      const granted = !state.modelAccessRevoked.includes(`${request.region} ${modelId}`);
      return json(200, {
        modelId,
        agreementAvailability: { status: granted ? 'AVAILABLE' : 'NOT_AVAILABLE' },
        authorizationStatus: granted ? 'AUTHORIZED' : 'NOT_AUTHORIZED',
        entitlementAvailability: granted ? 'AVAILABLE' : 'NOT_AVAILABLE',
        regionAvailability: 'AVAILABLE',
      });
    }
    const profile = /^\/inference-profiles\/([^/]+)$/.exec(path);
    if (profile) {
      const id = profile[1]!;
      const parts = splitProfileId(id);
      if (!parts || !servesModel(parts.model) || !profileValidIn(parts.geography, request.region))
        return restError(404, 'ResourceNotFoundException', `The inference profile ${id} does not exist in ${request.region}.`);
      return json(200, {
        inferenceProfileName: id,
        inferenceProfileId: id,
        inferenceProfileArn: `arn:aws:bedrock:${request.region}:${request.account}:inference-profile/${id}`,
        models: [{ modelArn: `arn:aws:bedrock:${request.region}::foundation-model/${parts.model}` }],
        status: 'ACTIVE',
        type: 'SYSTEM_DEFINED',
      });
    }
    return restError(400, 'ValidationException', `The twin's Bedrock control plane serves no ${request.method} ${path}`);
  };

  const lambdaAccountSettings = (request: AwsHttpRequest): Answer | undefined =>
    request.method.toUpperCase() === 'GET' && /^\/2016-08-19\/account-settings\/?$/.test(pathOf(request))
      ? json(200, {
          AccountLimit: {
            ConcurrentExecutions: state.lambdaConcurrency,
            UnreservedConcurrentExecutions: state.lambdaConcurrency,
            CodeSizeUnzipped: 262_144_000,
            CodeSizeZipped: 52_428_800,
            TotalCodeSize: 80_530_636_800,
          },
          AccountUsage: { FunctionCount: 0, TotalCodeSize: 0 },
        })
      : undefined;

  const email = (request: AwsHttpRequest): Answer => {
    const path = pathOf(request);
    if (path === '/v2/email/account')
      return json(200, {
        ProductionAccessEnabled: state.sesProductionAccess,
        SendingEnabled: true,
        EnforcementStatus: 'HEALTHY',
        SendQuota: {
          Max24HourSend: state.sesProductionAccess ? 50_000 : 200,
          MaxSendRate: state.sesProductionAccess ? 14 : 1,
          SentLast24Hours: 0,
        },
      });
    const identity = /^\/v2\/email\/identities\/([^/]+)$/.exec(path)?.[1];
    if (identity === undefined) return restError(400, 'BadRequestException', `The twin's SES serves no ${request.method} ${path}`);
    if (!state.verifiedIdentities.includes(`${request.region} ${identity}`))
      return restError(404, 'NotFoundException', `Email identity ${identity} does not exist.`);
    return json(200, {
      IdentityType: identity.includes('@') ? 'EMAIL_ADDRESS' : 'DOMAIN',
      VerifiedForSendingStatus: true,
      VerificationStatus: 'SUCCESS',
      FeedbackForwardingStatus: true,
    });
  };

  const ssm = (request: AwsHttpRequest): Answer => {
    const target = request.headers['x-amz-target'];
    const jsonError = (type: string, message: string) =>
      json(400, { __type: type, message }, { 'content-type': 'application/x-amz-json-1.1' });
    if (target !== 'AmazonSSM.GetParameter')
      return jsonError('InvalidAction', `The twin's Systems Manager serves GetParameter only, not ${target}`);
    const { Name } = JSON.parse(request.body.toString('utf8') || '{}') as { Name?: string };
    if (!Name?.match(/^\/cdk-bootstrap\/[^/]+\/version$/) || state.bootstrapVersion === undefined)
      return jsonError('ParameterNotFound', `Parameter ${Name ?? ''} not found.`);
    return json(
      200,
      {
        Parameter: {
          Name,
          Type: 'String',
          Value: String(state.bootstrapVersion),
          Version: 1,
          DataType: 'text',
          ARN: `arn:aws:ssm:${request.region}:${request.account}:parameter${Name}`,
        },
      },
      { 'content-type': 'application/x-amz-json-1.1' },
    );
  };

  return {
    /** the edge's backends of the services only preflight reads */
    backends: {
      bedrock: { handle: async (request: AwsHttpRequest) => bedrock(request) },
      email: { handle: async (request: AwsHttpRequest) => email(request) },
      ssm: { handle: async (request: AwsHttpRequest) => ssm(request) },
    },
    lambdaAccountSettings,
    /** the account as it is now */
    state: (): AccountState => ({ ...state }),
    /** changes the account (tests: a model's access taken away, a low concurrency limit, an identity verified) */
    set: (changes: Partial<AccountState>) => {
      state = { ...state, ...changes };
    },
    /** back to a bootstrapped account with model access */
    reset: () => {
      state = { ...DEFAULTS };
    },
  };
};

export type TwinAccount = ReturnType<typeof twinAccount>;
