/**
 * X-Ray tracing (Powertools Tracer). Lambda opens each invocation's segment (active tracing:
 * lib/stacks/service-function.ts; the twin sets the trace header as Lambda does); below it go the
 * handler (`handlerTracing`, in httpRoute and withLambdaContext), every AWS SDK call (clients are
 * captured where they are made: aws/client-cache.ts) and every database statement (db/tracing.ts).
 * A trace holds names, operations, timings and errors, never a handler's response (evidence text).
 * Off outside a Lambda environment (tests, CLIs, the twin's own process): no AWS_EXECUTION_ENV.
 */
import './xray-mode'; // first: the SDK reads its mode as it loads
import { Tracer } from '@aws-lambda-powertools/tracer';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import { serviceName } from './config';

// outbound HTTP is not captured globally: the calls that matter go through the SDK clients, captured one by one
export const tracer = new Tracer({ serviceName: serviceName(), captureHTTPsRequests: false });

/** The middy middleware that puts the handler under the invocation's segment (cold start and service as annotations). */
export const handlerTracing = () => captureLambdaHandler(tracer, { captureResponse: false });
