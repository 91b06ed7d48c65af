/**
 * How the proxy authenticates its clients, as RDS Proxy does: the secret's username and password, or (IAMAuth
 * REQUIRED) an RDS IAM auth token, checked and decided on by the twin's IAM (../iam). Either way the client sends it
 * in a cleartext password message, over TLS.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Duplex } from 'node:stream';
import type { DatabaseSignInDecider } from '../iam/decisions';
import { checkRdsAuthToken } from '../iam/rds-auth-token';
import { AUTH_CLEARTEXT, authentication, type MessageReader } from './wire';

export interface IamAuthOptions {
  /** the endpoint clients connect to, which their tokens must be signed for (the proxy's host name and port) */
  host: string;
  port: number;
  region: string;
  /** the IAM resource a client must be allowed to connect to as `user`: arn:aws:rds-db:<region>:<account>:dbuser:<proxy resource id>/<user> */
  resource: (user: string) => string;
  /** the IAM decision on `rds-db:connect` for the identity an access key belongs to; undefined when it belongs to none */
  authorize: DatabaseSignInDecider;
  now?: () => Date;
}

/** The password the client sends after AuthenticationCleartextPassword (the channel is TLS). */
const cleartextPassword = async (socket: Duplex, reader: MessageReader): Promise<string> => {
  socket.write(authentication(AUTH_CLEARTEXT));
  const reply = await reader.message();
  if (reply.type !== 'p') throw new Error(`expected a password message, got '${reply.type}'`);
  return reply.body.subarray(0, Math.max(0, reply.body.indexOf(0))).toString('utf8');
};

/** Ask for the password and compare both user and password with the secret's, in constant time. */
export const authenticate = async (
  socket: Duplex,
  reader: MessageReader,
  user: string,
  expected: { username: string; password: string },
): Promise<boolean> => {
  const password = await cleartextPassword(socket, reader);
  const userMatches = sameSecret(user, expected.username);
  const passwordMatches = sameSecret(password, expected.password);
  return userMatches && passwordMatches;
};

/**
 * IAM authentication as RDS Proxy does it: the password is an RDS IAM auth token for this endpoint and the
 * client's user, unexpired, signed by a known identity whose policy allows rds-db:connect on the proxy user;
 * and the proxy holds a secret for that user. Returns why the client is refused, or undefined.
 */
export const authenticateIam = async (
  socket: Duplex,
  reader: MessageReader,
  user: string,
  secretUser: string,
  iam: IamAuthOptions,
): Promise<string | undefined> => {
  const token = await cleartextPassword(socket, reader);
  const check = checkRdsAuthToken(token, { host: iam.host, port: iam.port, user, region: iam.region, now: iam.now?.() ?? new Date() });
  if (!check.ok) return check.reason;
  const resource = iam.resource(user);
  const decision = iam.authorize(check.accessKeyId, { action: 'rds-db:connect', resource });
  if (!decision) return `the access key ${check.accessKeyId} belongs to no identity`;
  if (!decision.allowed) return `the signer may not rds-db:connect to ${resource}`;
  if (user !== secretUser) return `the proxy has no secret for user "${user}"`;
  return undefined;
};

/** Equal-length digests make timingSafeEqual applicable to strings of any length. */
const sameSecret = (a: string, b: string): boolean =>
  timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
