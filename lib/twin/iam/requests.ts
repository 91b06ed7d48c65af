/**
 * What a raw AWS SDK v3 request needs from IAM, who signed it, and how AWS refuses it, for the five
 * services the functions call: SQS (AWS JSON 1.0), S3 (REST-XML, header-signed or presigned),
 * Bedrock Runtime (REST-JSON), Cognito user pools and Secrets Manager (AWS JSON 1.1).
 *
 * An operation this module does not model is never let through silently: it needs the permission
 * `<prefix>:UnknownOperation` (on the resource the request names, else `*`), which no policy grants
 * except a service-wide wildcard such as `s3:*` — and that would grant the real operation too.
 */
import { createHash } from 'node:crypto';
import { GEOGRAPHY_REGIONS, splitProfileId } from '#core/ai/models';

export type AwsService = 'sqs' | 's3' | 'bedrock-runtime' | 'bedrock' | 'cognito-idp' | 'secretsmanager' | 'lambda' | 'email' | 'ssm';

export interface AwsHttpRequest {
  service: AwsService;
  method: string;
  /** the Host/:authority the SDK used, e.g. sqs.us-east-1.amazonaws.com, mybucket.s3.us-east-1.amazonaws.com */
  host: string;
  /** path plus query string, as sent */
  path: string;
  /** lower-case names */
  headers: Record<string, string>;
  body: Buffer;
  /** the region the request is for */
  region: string;
  /** the account the twin runs as, e.g. 000000000000 */
  account: string;
}

export interface RequiredPermission {
  action: string;
  resource: string;
}

export interface RequiredPermissionsOptions {
  /** the ARN of the secret with this name, when one exists (AWS appends a random suffix to secret ARNs) */
  secretArnOf?: (nameOrArn: string) => string | undefined;
  /**
   * The region a geographic inference profile routes this request to, among its destination regions
   * (AWS picks one per request and checks the foundation model there). Default: the calling region.
   */
  destinationRegion?: (destinations: readonly string[]) => string;
}

const UNKNOWN_OPERATION = 'UnknownOperation';

const operationIn = (table: Record<string, string>, key: string): string => table[key] ?? UNKNOWN_OPERATION;

const REGION = '[a-z]{2}(?:-[a-z]+)+-\\d+';
const S3_HOST = new RegExp(`^(?:(.+)\\.)?s3(?:\\.dualstack)?(?:[.-](${REGION}))?\\.amazonaws\\.com$`);
const HOSTS: [RegExp, AwsService][] = [
  [new RegExp(`^sqs\\.(${REGION})\\.amazonaws\\.com$`), 'sqs'],
  // the legacy SQS endpoints, still found in old queue URLs
  [new RegExp(`^(${REGION})\\.queue\\.amazonaws\\.com$`), 'sqs'],
  [/^queue\.amazonaws\.com$/, 'sqs'],
  [new RegExp(`^bedrock-runtime(?:-fips)?\\.(${REGION})\\.amazonaws\\.com$`), 'bedrock-runtime'],
  [new RegExp(`^cognito-idp(?:-fips)?\\.(${REGION})\\.amazonaws\\.com$`), 'cognito-idp'],
  [new RegExp(`^lambda\\.(${REGION})\\.amazonaws\\.com$`), 'lambda'],
  [new RegExp(`^secretsmanager(?:-fips)?\\.(${REGION})\\.amazonaws\\.com$`), 'secretsmanager'],
  // read by npm run preflight only (../aws/account.ts): Bedrock's control plane, SES v2, Systems Manager
  [new RegExp(`^bedrock(?:-fips)?\\.(${REGION})\\.amazonaws\\.com$`), 'bedrock'],
  [new RegExp(`^email(?:-fips)?\\.(${REGION})\\.amazonaws\\.com$`), 'email'],
  [new RegExp(`^ssm(?:-fips)?\\.(${REGION})\\.amazonaws\\.com$`), 'ssm'],
];

const hostname = (host: string): string => host.toLowerCase().replace(/:\d+$/, '');

/** The service and region an AWS endpoint host serves; undefined for any other host. */
export function serviceOfHost(host: string): { service: AwsService; region: string } | undefined {
  const name = hostname(host);
  const s3 = S3_HOST.exec(name);
  // s3.amazonaws.com and <bucket>.s3.amazonaws.com are the us-east-1 endpoints
  if (s3) return { service: 's3', region: s3[2] ?? 'us-east-1' };
  for (const [pattern, service] of HOSTS) {
    const match = pattern.exec(name);
    if (match) return { service, region: match[1] ?? 'us-east-1' };
  }
  return undefined;
}

const splitPath = (path: string): { pathname: string; query: URLSearchParams } => {
  const at = path.indexOf('?');
  return at < 0
    ? { pathname: path, query: new URLSearchParams() }
    : { pathname: path.slice(0, at), query: new URLSearchParams(path.slice(at + 1)) };
};

/** A malformed escape is kept as sent rather than failing the whole check. */
const decode = (text: string): string => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

const jsonBody = (request: AwsHttpRequest): Record<string, unknown> => {
  try {
    const parsed: unknown = JSON.parse(request.body.toString('utf8') || '{}');
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

const stringField = (body: Record<string, unknown>, name: string): string | undefined => {
  const value = body[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
};

/** The operation of an AWS JSON request, from `x-amz-target: <serviceTarget>.<Operation>`. */
const jsonOperation = (request: AwsHttpRequest, serviceTarget: string): string => {
  const target = request.headers['x-amz-target'] ?? '';
  return target.startsWith(`${serviceTarget}.`) ? target.slice(serviceTarget.length + 1) : UNKNOWN_OPERATION;
};

const isArn = (value: string): boolean => value.startsWith('arn:');

// ---- SQS ----

/** Batch calls are authorised as the single call they batch. */
const SQS_BATCH_ACTIONS: Record<string, string> = {
  SendMessageBatch: 'SendMessage',
  DeleteMessageBatch: 'DeleteMessage',
  ChangeMessageVisibilityBatch: 'ChangeMessageVisibility',
};

/** A queue URL is `<endpoint>/<account>/<queue name>`; the endpoint host names the region on AWS. */
const queueArnOfUrl = (queueUrl: string, request: AwsHttpRequest): string => {
  let url: URL | undefined;
  try {
    url = new URL(queueUrl);
  } catch {
    url = undefined;
  }
  const segments = (url?.pathname ?? queueUrl).split('/').filter(Boolean);
  const name = segments.at(-1) ?? '';
  const owner = segments.at(-2);
  const endpoint = url && serviceOfHost(url.host);
  const region = endpoint?.service === 'sqs' ? endpoint.region : request.region;
  const account = owner && /^\d{12}$/.test(owner) ? owner : request.account;
  return `arn:aws:sqs:${region}:${account}:${name}`;
};

const sqsPermissions = (request: AwsHttpRequest): RequiredPermission[] => {
  const operation = jsonOperation(request, 'AmazonSQS');
  const body = jsonBody(request);
  const queueUrl = stringField(body, 'QueueUrl');
  const queueName = stringField(body, 'QueueName');
  const resource = queueUrl
    ? queueArnOfUrl(queueUrl, request)
    : queueName
      ? `arn:aws:sqs:${request.region}:${stringField(body, 'QueueOwnerAWSAccountId') ?? request.account}:${queueName}`
      : '*';
  return [{ action: `sqs:${SQS_BATCH_ACTIONS[operation] ?? operation}`, resource }];
};

// ---- S3 ----

/**
 * The query parameters that select an S3 operation other than the plain object or bucket one (the
 * S3 "subresources"). The ones handled below are modelled; any other present makes the request an
 * unknown operation rather than being mistaken for GetObject or ListBucket.
 */
const S3_SUBRESOURCES = new Set([
  'accelerate',
  'acl',
  'analytics',
  'attributes',
  'cors',
  'delete',
  'encryption',
  'intelligent-tiering',
  'inventory',
  'legal-hold',
  'lifecycle',
  'location',
  'logging',
  'metadataConfiguration',
  'metrics',
  'notification',
  'object-lock',
  'ownershipControls',
  'policy',
  'policyStatus',
  'publicAccessBlock',
  'renameObject',
  'replication',
  'requestPayment',
  'restore',
  'retention',
  'select',
  'session',
  'tagging',
  'torrent',
  'uploadId',
  'uploads',
  'versionId',
  'versioning',
  'versions',
  'website',
]);

/** The bucket and key, from a virtual-hosted AWS host or else the path (path-style, as the twin's endpoint is). */
const s3Target = (request: AwsHttpRequest, pathname: string): { bucket?: string; key: string } => {
  const virtualBucket = S3_HOST.exec(hostname(request.host))?.[1];
  const rest = pathname.replace(/^\//, '');
  if (virtualBucket) return { bucket: virtualBucket, key: decode(rest) };
  const slash = rest.indexOf('/');
  const bucket = decode(slash < 0 ? rest : rest.slice(0, slash));
  return { bucket: bucket || undefined, key: slash < 0 ? '' : decode(rest.slice(slash + 1)) };
};

/** `x-amz-copy-source: [/]<bucket>/<url-encoded key>[?versionId=...]` needs read access to that object. */
const copySourcePermission = (copySource: string): RequiredPermission => {
  const { pathname, query } = splitPath(copySource.replace(/^\//, ''));
  return {
    action: query.has('versionId') ? 's3:GetObjectVersion' : 's3:GetObject',
    resource: `arn:aws:s3:::${decode(pathname)}`,
  };
};

const s3ObjectAction = (method: string, query: URLSearchParams, subresources: string[]): string => {
  const only = (...names: string[]) => subresources.every((s) => names.includes(s));
  if (query.has('uploadId') && only('uploadId')) {
    // UploadPart(Copy) and CompleteMultipartUpload write the object; abort and list parts have their own actions
    return operationIn({ PUT: 'PutObject', POST: 'PutObject', DELETE: 'AbortMultipartUpload', GET: 'ListMultipartUploadParts' }, method);
  }
  if (query.has('uploads') && only('uploads')) return method === 'POST' ? 'PutObject' : UNKNOWN_OPERATION;
  if (query.has('versionId') && only('versionId')) {
    return operationIn({ GET: 'GetObjectVersion', HEAD: 'GetObjectVersion', DELETE: 'DeleteObjectVersion' }, method);
  }
  if (subresources.length > 0) return UNKNOWN_OPERATION;
  return operationIn({ GET: 'GetObject', HEAD: 'GetObject', PUT: 'PutObject', DELETE: 'DeleteObject' }, method);
};

const s3BucketAction = (method: string, subresources: string[]): string => {
  const [subresource, ...more] = subresources;
  if (more.length > 0) return UNKNOWN_OPERATION;
  if (subresource === undefined) return method === 'GET' || method === 'HEAD' ? 'ListBucket' : UNKNOWN_OPERATION;
  if (method !== 'GET') return UNKNOWN_OPERATION;
  return operationIn({ location: 'GetBucketLocation', uploads: 'ListBucketMultipartUploads', versions: 'ListBucketVersions' }, subresource);
};

const s3Permissions = (request: AwsHttpRequest): RequiredPermission[] => {
  const { pathname, query } = splitPath(request.path);
  const { bucket, key } = s3Target(request, pathname);
  const method = request.method.toUpperCase();
  if (!bucket) return [{ action: method === 'GET' ? 's3:ListAllMyBuckets' : `s3:${UNKNOWN_OPERATION}`, resource: '*' }];
  const subresources = [...new Set(query.keys())].filter((name) => S3_SUBRESOURCES.has(name));
  if (!key) return [{ action: `s3:${s3BucketAction(method, subresources)}`, resource: `arn:aws:s3:::${bucket}` }];
  const action = s3ObjectAction(method, query, subresources);
  const copySource = request.headers['x-amz-copy-source'];
  return [
    { action: `s3:${action}`, resource: `arn:aws:s3:::${bucket}/${key}` },
    ...(method === 'PUT' && action === 'PutObject' && copySource ? [copySourcePermission(copySource)] : []),
  ];
};

// ---- Bedrock Runtime ----

const BEDROCK_OPERATIONS: Record<string, string> = {
  converse: 'bedrock:InvokeModel',
  invoke: 'bedrock:InvokeModel',
  'converse-stream': 'bedrock:InvokeModelWithResponseStream',
  'invoke-with-response-stream': 'bedrock:InvokeModelWithResponseStream',
};

/**
 * An inference profile needs the profile and the foundation model it routes to, checked in the region
 * the request is routed to (a geographic profile: one of its destination regions, as the caller's
 * options pick it); a global profile the model in the calling region and the region-less
 * foundation-model ARN, as AWS documents for global routing.
 */
const bedrockModelResources = (modelId: string, request: AwsHttpRequest, options: RequiredPermissionsOptions): string[] => {
  const foundationModel = (id: string, region = request.region) => `arn:aws:bedrock:${region}::foundation-model/${id}`;
  const profileId = isArn(modelId) ? /:inference-profile\/(.+)$/.exec(modelId)?.[1] : modelId;
  const profile = profileId === undefined ? undefined : splitProfileId(profileId);
  if (!profile) return [isArn(modelId) ? modelId : foundationModel(modelId)];
  return [
    isArn(modelId) ? modelId : `arn:aws:bedrock:${request.region}:${request.account}:inference-profile/${modelId}`,
    ...(profile.geography === 'global'
      ? [foundationModel(profile.model), `arn:aws:bedrock:::foundation-model/${profile.model}`]
      : [foundationModel(profile.model, options.destinationRegion?.(GEOGRAPHY_REGIONS[profile.geography]) ?? request.region)]),
  ];
};

const bedrockPermissions = (request: AwsHttpRequest, options: RequiredPermissionsOptions): RequiredPermission[] => {
  const match = /^\/model\/([^/]+)\/([a-z-]+)$/.exec(splitPath(request.path).pathname);
  const action = match && request.method.toUpperCase() === 'POST' ? BEDROCK_OPERATIONS[match[2]!] : undefined;
  if (!match || !action) return [{ action: `bedrock:${UNKNOWN_OPERATION}`, resource: '*' }];
  return bedrockModelResources(decode(match[1]!), request, options).map((resource) => ({ action, resource }));
};

// ---- Cognito user pools ----

/**
 * The operations Cognito serves without IAM (they carry a user's token or none): those the
 * client's model marks `smithy.api#noAuth`, which the client sends unsigned. The test checks
 * this list against @aws-sdk/client-cognito-identity-provider.
 */
export const COGNITO_UNAUTHENTICATED_OPERATIONS: ReadonlySet<string> = new Set([
  'AssociateSoftwareToken',
  'ChangePassword',
  'CompleteWebAuthnRegistration',
  'ConfirmDevice',
  'ConfirmForgotPassword',
  'ConfirmSignUp',
  'DeleteUser',
  'DeleteUserAttributes',
  'DeleteWebAuthnCredential',
  'ForgetDevice',
  'ForgotPassword',
  'GetDevice',
  'GetTokensFromRefreshToken',
  'GetUser',
  'GetUserAttributeVerificationCode',
  'GetUserAuthFactors',
  'GlobalSignOut',
  'InitiateAuth',
  'ListDevices',
  'ListUserSessions',
  'ListWebAuthnCredentials',
  'ResendConfirmationCode',
  'RespondToAuthChallenge',
  'RevokeToken',
  'RevokeUserSession',
  'SetUserMFAPreference',
  'SetUserSettings',
  'SignUp',
  'StartWebAuthnRegistration',
  'UpdateAuthEventFeedback',
  'UpdateDeviceStatus',
  'UpdateUserAttributes',
  'VerifySoftwareToken',
  'VerifyUserAttribute',
]);

/** The pool's public OpenID discovery documents. */
const COGNITO_WELL_KNOWN = /^\/[^/]+\/\.well-known\/(?:jwks\.json|openid-configuration)$/;

const cognitoPermissions = (request: AwsHttpRequest): RequiredPermission[] | 'unauthenticated' => {
  if (request.method.toUpperCase() === 'GET' && COGNITO_WELL_KNOWN.test(splitPath(request.path).pathname)) return 'unauthenticated';
  const operation = jsonOperation(request, 'AWSCognitoIdentityProviderService');
  if (COGNITO_UNAUTHENTICATED_OPERATIONS.has(operation)) return 'unauthenticated';
  const userPoolId = stringField(jsonBody(request), 'UserPoolId');
  const resource = userPoolId ? `arn:aws:cognito-idp:${request.region}:${request.account}:userpool/${userPoolId}` : '*';
  return [{ action: `cognito-idp:${operation}`, resource }];
};

// ---- Secrets Manager ----

const secretsManagerPermissions = (request: AwsHttpRequest, options: RequiredPermissionsOptions): RequiredPermission[] => {
  const operation = jsonOperation(request, 'secretsmanager');
  const secretId = stringField(jsonBody(request), 'SecretId');
  const resource = !secretId
    ? '*'
    : isArn(secretId)
      ? secretId
      : (options.secretArnOf?.(secretId) ?? `arn:aws:secretsmanager:${request.region}:${request.account}:secret:${secretId}`);
  return [{ action: `secretsmanager:${operation}`, resource }];
};

// ---- Lambda ----

/** Invoke (`POST /2015-03-31/functions/{name}/invocations`): the function's name, ARN or partial ARN, and an optional qualifier. */
const INVOKE_PATH = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/;

/** The unqualified function ARN an Invoke names (a version or alias qualifier is not part of the grant's ARN here). */
export const invokedFunctionArn = (request: AwsHttpRequest): string | undefined => {
  const match = INVOKE_PATH.exec(splitPath(request.path).pathname);
  if (!match) return undefined;
  const name = decodeURIComponent(match[1]!);
  if (isArn(name)) return name.split(':').slice(0, 7).join(':');
  const parts = name.split(':'); // name, name:qualifier, or account:function:name
  const bare = parts.length >= 3 && parts[1] === 'function' ? parts[2]! : parts[0]!;
  return `arn:aws:lambda:${request.region}:${request.account}:function:${bare}`;
};

const lambdaPermissions = (request: AwsHttpRequest): RequiredPermission[] => {
  if (/^\/2016-08-19\/account-settings\/?$/.test(splitPath(request.path).pathname))
    return [{ action: 'lambda:GetAccountSettings', resource: '*' }];
  const arn = invokedFunctionArn(request);
  // the twin's Lambda serves Invoke and GetAccountSettings only; any other operation is refused as unknown by the backend
  return [{ action: 'lambda:InvokeFunction', resource: arn ?? '*' }];
};

// ---- what npm run preflight reads (../aws/account.ts) ----

const bedrockControlPermissions = (request: AwsHttpRequest): RequiredPermission[] => {
  const { pathname } = splitPath(request.path);
  const profile = /^\/inference-profiles\/([^/]+)$/.exec(pathname)?.[1];
  if (profile !== undefined)
    return [
      {
        action: 'bedrock:GetInferenceProfile',
        resource: `arn:aws:bedrock:${request.region}:${request.account}:inference-profile/${decodeURIComponent(profile)}`,
      },
    ];
  const known = /^\/foundation-model-availability\/[^/]+$/.test(pathname);
  return [{ action: `bedrock:${known ? 'GetFoundationModelAvailability' : UNKNOWN_OPERATION}`, resource: '*' }];
};

const sesPermissions = (request: AwsHttpRequest): RequiredPermission[] => {
  const { pathname } = splitPath(request.path);
  const identity = /^\/v2\/email\/identities\/([^/]+)$/.exec(pathname)?.[1];
  if (identity !== undefined)
    return [
      {
        action: 'ses:GetEmailIdentity',
        resource: `arn:aws:ses:${request.region}:${request.account}:identity/${decodeURIComponent(identity)}`,
      },
    ];
  return [{ action: `ses:${pathname === '/v2/email/account' ? 'GetAccount' : UNKNOWN_OPERATION}`, resource: '*' }];
};

const ssmPermissions = (request: AwsHttpRequest): RequiredPermission[] => {
  const name = stringField(jsonBody(request), 'Name') ?? '';
  return [
    { action: `ssm:${jsonOperation(request, 'AmazonSSM')}`, resource: `arn:aws:ssm:${request.region}:${request.account}:parameter${name}` },
  ];
};

/**
 * Every permission the request needs (all must be allowed), or 'unauthenticated' for the calls AWS
 * serves without IAM (Cognito's public user-token operations and discovery documents).
 */
export function requiredPermissions(
  request: AwsHttpRequest,
  options: RequiredPermissionsOptions = {},
): RequiredPermission[] | 'unauthenticated' {
  switch (request.service) {
    case 'sqs':
      return sqsPermissions(request);
    case 's3':
      return s3Permissions(request);
    case 'bedrock-runtime':
      return bedrockPermissions(request, options);
    case 'cognito-idp':
      return cognitoPermissions(request);
    case 'secretsmanager':
      return secretsManagerPermissions(request, options);
    case 'lambda':
      return lambdaPermissions(request);
    case 'bedrock':
      return bedrockControlPermissions(request);
    case 'email':
      return sesPermissions(request);
    case 'ssm':
      return ssmPermissions(request);
  }
}

/** The access key id of a SigV4 signature, from the Authorization header or a presigned URL's X-Amz-Credential. */
export function signingAccessKey(request: AwsHttpRequest): string | undefined {
  const authorization = request.headers.authorization;
  if (authorization) return /^AWS4-HMAC-SHA256\s+Credential=([^/,\s]+)\//.exec(authorization)?.[1];
  const credential = splitPath(request.path).query.get('X-Amz-Credential');
  return credential?.split('/')[0] || undefined;
}

/** A request id derived from the request, so the answer is a pure function of its inputs. */
const requestIdOf = (request: Pick<AwsHttpRequest, 'method' | 'host' | 'path' | 'headers'>): Buffer =>
  createHash('sha256')
    .update(
      [
        request.method,
        request.host,
        request.path,
        request.headers['amz-sdk-invocation-id'] ?? '',
        request.headers['x-amz-date'] ?? '',
      ].join('\n'),
    )
    .digest();

const uuidOf = (bytes: Buffer): string => {
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
};

const xmlEscape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * S3's error answer: its XML error document (code, message, the further elements of that error, request
 * ids), or no body for a HEAD, as S3 sends none; S3's ids are a 16-character hex request id and a base64
 * extended id (x-amz-id-2), derived here from the request.
 */
export function s3Error(
  request: Pick<AwsHttpRequest, 'method' | 'host' | 'path' | 'headers'>,
  error: { status: number; code: string; message: string; fields?: [string, string][] },
): { status: number; headers: Record<string, string>; body: string } {
  const requestId = requestIdOf(request);
  const id = requestId.subarray(0, 8).toString('hex').toUpperCase();
  const hostId = requestId.toString('base64');
  const headers = { 'content-type': 'application/xml', 'x-amz-request-id': id, 'x-amz-id-2': hostId };
  const elements = [['Code', error.code], ['Message', error.message], ...(error.fields ?? []), ['RequestId', id], ['HostId', hostId]];
  const body =
    request.method.toUpperCase() === 'HEAD'
      ? ''
      : `<?xml version="1.0" encoding="UTF-8"?>\n<Error>${elements.map(([name, value]) => `<${name}>${xmlEscape(value!)}</${name}>`).join('')}</Error>`;
  return { status: error.status, headers, body };
}

/**
 * AWS's AccessDenied answer for the request's service, so the real SDK client raises the error it
 * raises against AWS: S3 `AccessDenied` (HEAD: no body, as S3 sends none), SQS `AccessDenied`,
 * Bedrock, SES, Systems Manager, Cognito and Secrets Manager `AccessDeniedException`. The message follows AWS's wording;
 * the denial is attributed to the identity-based policy (AWS says "resource-based policy" when the
 * explicit deny is in the resource's policy, which the denial passed here does not say).
 */
export function accessDenied(
  request: AwsHttpRequest,
  denial: { principalArn: string; action: string; resource: string; reason: 'explicit-deny' | 'no-allow' },
): { status: number; headers: Record<string, string>; body: string } {
  const requestId = requestIdOf(request);
  const message = (action: string, resource: string) =>
    `User: ${denial.principalArn} is not authorized to perform: ${action} on resource: ${resource} ` +
    (denial.reason === 'explicit-deny'
      ? 'with an explicit deny in an identity-based policy'
      : `because no identity-based policy allows the ${action} action`);
  switch (request.service) {
    case 's3':
      return s3Error(request, { status: 403, code: 'AccessDenied', message: message(denial.action, `"${denial.resource}"`) });
    case 'sqs':
      // As AWS answers SQS's JSON protocol (recorded AWS responses; the SDKs' query-compatibility tests
      // use the same header): 403, the Query-era code in x-amzn-query-error, which the JS SDK names the
      // error by (AccessDenied, not the __type's AccessDeniedException), `Message`, and the action
      // lower-cased in the text ("sqs:sendmessage")
      return {
        status: 403,
        headers: {
          'content-type': 'application/x-amz-json-1.0',
          'x-amzn-requestid': uuidOf(requestId),
          'x-amzn-query-error': 'AccessDenied;Sender',
        },
        body: JSON.stringify({
          __type: 'com.amazon.coral.service#AccessDeniedException',
          Message: message(denial.action.toLowerCase(), denial.resource),
        }),
      };
    case 'bedrock-runtime':
    case 'bedrock':
    case 'email':
      return {
        status: 403,
        headers: { 'content-type': 'application/json', 'x-amzn-requestid': uuidOf(requestId), 'x-amzn-errortype': 'AccessDeniedException' },
        body: JSON.stringify({ message: message(denial.action, denial.resource) }),
      };
    case 'lambda':
      // REST-JSON: the error type in x-amzn-errortype, `Message` in the body
      return {
        status: 403,
        headers: { 'content-type': 'application/json', 'x-amzn-requestid': uuidOf(requestId), 'x-amzn-errortype': 'AccessDeniedException' },
        body: JSON.stringify({ Type: 'User', Message: message(denial.action, denial.resource) }),
      };
    case 'cognito-idp':
    case 'ssm':
    case 'secretsmanager': {
      // all three are AWS JSON 1.1; Secrets Manager capitalises the message member
      const messageKey = request.service === 'secretsmanager' ? 'Message' : 'message';
      return {
        status: 400,
        headers: {
          'content-type': 'application/x-amz-json-1.1',
          'x-amzn-requestid': uuidOf(requestId),
          'x-amzn-errortype': 'AccessDeniedException',
        },
        body: JSON.stringify({ __type: 'AccessDeniedException', [messageKey]: message(denial.action, denial.resource) }),
      };
    }
  }
}
