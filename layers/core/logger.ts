/** Structured JSON logs (Powertools). The spec's log markers ([AI:Throttle], [AUDIT FAILURE], …) go in `message`. */
import { Logger } from '@aws-lambda-powertools/logger';

export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'investigation-analysis' });
