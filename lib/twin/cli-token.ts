/**
 * `npm run token -- --role admin|investigator [--email user@…] [--ttl seconds]`
 * Mints a dev access token for a demo user, signed with the twin's key (no database needed).
 * Use it as `Authorization: Bearer <token>` against the twin.
 */
import { Command, Option } from 'commander';
import { DEMO_USERS } from '../../layers/core/seed/demo';
import { loadOrCreateKeys, mintToken } from './identity';
import { twinDirectory } from '../paths';

const program = new Command('token')
  .description('Mint a dev access token for a demo user of the local twin')
  .addOption(new Option('--role <role>', 'role of the demo user').choices(['admin', 'investigator']).default('investigator'))
  .option('--email <email>', `a specific demo user (${DEMO_USERS.map((u) => u.email).join(', ')})`)
  .option('--ttl <seconds>', 'lifetime in seconds', '3600')
  .action(async (opts: { role: 'admin' | 'investigator'; email?: string; ttl: string }) => {
    const user = opts.email ? DEMO_USERS.find((u) => u.email === opts.email) : DEMO_USERS.find((u) => u.role === opts.role);
    if (!user) return program.error(`no demo user ${opts.email ? `with email ${opts.email}` : `with role ${opts.role}`}`);
    const ttl = Number(opts.ttl);
    if (!Number.isInteger(ttl) || ttl <= 0) return program.error('--ttl must be a positive whole number of seconds');
    const keys = await loadOrCreateKeys(twinDirectory());
    const token = await mintToken(keys, { subject: user.idp_subject, email: user.email, role: user.role, organizationId: user.organization_id }, ttl);
    console.error(`# ${user.email} (${user.role}), valid ${ttl} s`);
    console.log(token);
  });

void program.parseAsync();
