/** The process's Cognito user pool client (its own module, so only the functions that call Cognito load it). */
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { env, ENV } from '#core/config';
import { cachedClient } from './client-cache';

export const cognitoClient = (): CognitoIdentityProviderClient =>
  cachedClient(`cognito ${env(ENV.cognitoEndpoint) ?? ''}`, () => new CognitoIdentityProviderClient({}));
