/**
 * The Cognito user pool, its `admin` group, the SPA's app client and the pool's own trigger function.
 * Its own stack (not the API's) because the workers and the API both need the pool's issuer while the
 * API's functions need the workers' queues: with the pool in the API stack the two stacks would depend
 * on each other. It is also stateful (users), like the data stack.
 *
 * Tenancy: every customer account carries the immutable custom attribute `organization_id`, which the
 * app client can read but never write; the pre-token-generation trigger (V2: access-token customization,
 * Essentials/Plus plan) copies it into the access and ID tokens as `organization_id`
 * (layers/core/auth/token-claims.ts).
 */
import { CfnOutput, Duration, RemovalPolicy, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import type { Construct } from 'constructs';
import type { FunctionSpec } from '#manifest';
import type { StageConfig } from '../stage-config';
import { ServiceFunction } from './service-function';
import { ADMIN_GROUP } from '#manifest/runtime-names';
import { publishIdentity, type PublishedIdentity } from './published-resources';
import type { AppOrigin } from './web-stack';

/** The custom attribute holding a customer account's organization (Cognito names it `custom:organization_id`). */
const ORGANIZATION_ATTRIBUTE_NAME = 'organization_id';

export const cognitoTriggers = (fn: FunctionSpec) => fn.triggers.filter((t) => t.kind === 'cognito');

export interface IdentityStackProps extends StackProps {
  config: StageConfig;
  /** the SPA's origin: its host is the passkey relying party id (buildApp: context `corsOrigin`, else the web stack's distribution) */
  appOrigin: (consumer: Stack) => AppOrigin;
  /** manifest functions with a user pool trigger */
  triggers: FunctionSpec[];
}

export class IdentityStack extends Stack {
  /** what the stacks of other functions read (published-resources.ts) */
  readonly published: PublishedIdentity;
  readonly functions: ServiceFunction[];

  constructor(scope: Construct, id: string, { config, appOrigin, triggers, ...props }: IdentityStackProps) {
    super(scope, id, props);
    const plus = config.cognitoPlan === 'plus';
    const mfaRequired = config.mfa === 'required';
    const userPool = new cognito.UserPool(this, 'Users', {
      userPoolName: `${config.prefix}-users`,
      selfSignUpEnabled: false, // administrators invite investigators
      signInAliases: { email: true },
      autoVerify: { email: true },
      accountRecovery: cognito.AccountRecovery.EMAIL_ONLY,
      // SES where the stage names an identity (prod must: Cognito's own e-mail stops at 50 a day), Cognito's otherwise
      email: config.email
        ? cognito.UserPoolEmail.withSES({
            fromEmail: config.email.fromEmail,
            sesRegion: config.email.sesRegion,
            ...(config.email.verifiedDomain && { sesVerifiedDomain: config.email.verifiedDomain }),
          })
        : cognito.UserPoolEmail.withCognito(),
      mfa: mfaRequired ? cognito.Mfa.REQUIRED : cognito.Mfa.OPTIONAL,
      mfaSecondFactor: { otp: true, sms: false },
      customAttributes: { [ORGANIZATION_ATTRIBUTE_NAME]: new cognito.StringAttribute({ minLen: 36, maxLen: 36, mutable: false }) },
      passwordPolicy: {
        minLength: 12,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(3),
        passwordHistorySize: 5,
      },
      featurePlan: plus ? cognito.FeaturePlan.PLUS : cognito.FeaturePlan.ESSENTIALS,
      // passkeys as a first factor (USER_AUTH → WEB_AUTHN through /api/auth/*); the relying party is the SPA's host.
      // Cognito offers no passkey first factor while MFA is required.
      signInPolicy: { allowedFirstAuthFactors: { password: true, passkey: !mfaRequired } },
      passkeyRelyingPartyId: appOrigin(this).host,
      passkeyUserVerification: cognito.PasskeyUserVerification.PREFERRED,
      ...(plus && { standardThreatProtectionMode: cognito.StandardThreatProtectionMode.FULL_FUNCTION }),
      deletionProtection: config.removalPolicy === RemovalPolicy.RETAIN,
      removalPolicy: config.removalPolicy,
    });
    userPool.addGroup('AdminGroup', { groupName: ADMIN_GROUP, description: 'Administrators: may call /api/admin/* and the cron routes' });
    const client = userPool.addClient('SpaClient', {
      userPoolClientName: 'spa',
      generateSecret: false, // a browser app cannot keep one
      // SRP from the SPA; ADMIN_USER_PASSWORD and USER_AUTH (passkeys) for the /api/auth/* proxies
      authFlows: { userSrp: true, adminUserPassword: true, user: true },
      disableOAuth: true, // sign-in goes through the API's proxies, not the hosted UI
      // the organization is readable (ID tokens carry it) and writable by no client: only the operator sets it
      readAttributes: new cognito.ClientAttributes()
        .withStandardAttributes({ email: true, emailVerified: true })
        .withCustomAttributes(ORGANIZATION_ATTRIBUTE_NAME),
      writeAttributes: new cognito.ClientAttributes().withStandardAttributes({ email: true }),
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      accessTokenValidity: Duration.hours(1),
      idTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.days(30),
    });
    this.published = publishIdentity(this, config.prefix, { userPool, client, issuer: userPool.userPoolProviderUrl });
    this.functions = triggers.map((spec) => {
      const fn = new ServiceFunction(this, { spec, resources: undefined, config });
      for (const trigger of cognitoTriggers(spec)) {
        if (trigger.event === 'preTokenGeneration')
          userPool.addTrigger(cognito.UserPoolOperation.PRE_TOKEN_GENERATION_CONFIG, fn, cognito.LambdaVersion.V2_0);
      }
      return fn;
    });
    new CfnOutput(this, 'UserPoolId', { value: userPool.userPoolId });
    new CfnOutput(this, 'UserPoolClientId', { value: client.userPoolClientId });

    if (!mfaRequired) {
      Validations.of(userPool).acknowledge({
        id: 'AwsSolutions-COG2',
        reason:
          'MFA is offered, not forced (SPEC: MFA exists; -c mfa=required forces it); users enrol a TOTP app and SMS is off. Required MFA would also turn off passkey sign-in.',
      });
    }
    if (!plus) {
      Validations.of(userPool).acknowledge({
        id: 'AwsSolutions-COG8',
        reason: `${config.stage} stays on the Essentials plan; threat protection (Plus plan, billed per active user) is on in prod.`,
      });
    }
  }
}
