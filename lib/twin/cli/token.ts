/**
 * `npm run token -- --role admin|investigator [--email user@…] [--ttl seconds]`
 * A dev access token of a demo user from the running twin's identity provider: issued exactly as a
 * sign-in issues it (the pool's claims, its pre-token-generation trigger), without the password round.
 * Use it as `Authorization: Bearer <token>` against the twin. Start the twin first (`npm start`); the
 * twin is found as ./running.ts finds it (TWIN_DIR, the default folder, its pointer), never a folder of its own.
 */
import { Command, Option } from 'commander';
import { DEMO_USERS } from '#core/seed/demo';
import { TOKENS_PATH } from '../identity/provider';
import { locateTwin, TwinNotFoundError } from '../running';

const program = new Command('token')
  .description('Get a dev access token for a demo user of the running local twin')
  .addOption(new Option('--role <role>', 'role of the demo user').choices(['admin', 'investigator']).default('investigator'))
  .option('--email <email>', `a specific user (demo users: ${DEMO_USERS.map((u) => u.email).join(', ')})`)
  .option('--ttl <seconds>', "lifetime in seconds (default: the app client's access token validity)")
  .addOption(new Option('--id', 'print the ID token instead of the access token'))
  .action(async (opts: { role: 'admin' | 'investigator'; email?: string; ttl?: string; id?: boolean }) => {
    const email = opts.email ?? DEMO_USERS.find((u) => u.role === opts.role)?.email;
    const ttl = opts.ttl === undefined ? undefined : Number(opts.ttl);
    if (ttl !== undefined && !(Number.isInteger(ttl) && ttl > 0)) return program.error('--ttl must be a positive whole number of seconds');
    let identityProvider: string;
    try {
      ({ identityProvider } = locateTwin().endpoints);
    } catch (error) {
      if (error instanceof TwinNotFoundError) return program.error(`${error.message} (tokens come from its identity provider)`);
      throw error;
    }
    const res = await fetch(`${identityProvider}${TOKENS_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, ...(ttl !== undefined && { ttlSeconds: ttl }) }),
    }).catch(() => program.error(`the twin's identity provider (${identityProvider}) does not answer: is the twin still running?`));
    const body = (await res.json()) as { accessToken?: string; idToken?: string; expiresIn?: number; message?: string };
    if (!res.ok) return program.error(body.message ?? `the identity provider answered ${res.status}`);
    console.error(`# ${email}: ${opts.id ? 'ID' : 'access'} token`);
    console.log(opts.id ? body.idToken : body.accessToken);
  });

void program.parseAsync();
