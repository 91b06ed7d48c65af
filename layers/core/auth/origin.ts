/** The caller's origin as API Gateway reports it, for the sign-in proxies' audit rows and Cognito's threat protection. */
import type { APIGatewayProxyEventV2WithJWTAuthorizer as HttpEvent } from 'aws-lambda';

export interface RequestOrigin {
  sourceIp: string;
  serverName: string;
  serverPath: string;
  userAgent: string;
}

export const requestOrigin = (event: HttpEvent): RequestOrigin => ({
  sourceIp: event.requestContext?.http?.sourceIp ?? 'unknown',
  serverName: event.requestContext?.domainName ?? 'unknown',
  serverPath: event.rawPath ?? '/',
  userAgent: event.requestContext?.http?.userAgent ?? '',
});
