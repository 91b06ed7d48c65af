/**
 * `npm run users -- <command>`: onboarding, the first thing to do after a deploy (docs/deploy.md).
 *   create-organization <name>                       a customer organization
 *   invite --email <e> --organization <id|name>      an investigator of it (Cognito mails a temporary password)
 *   invite --email <e> --role admin                  an operator (administrators belong to no organization)
 *   list                                             organizations and their users, operators first
 * Against the running local twin by default, or a deployed stage with `--stage dev|prod [--region …]`
 * (the `users` operator function does the work inside the VPC: lib/operator/invoke.ts).
 */
import { Option } from 'commander';
import { cliProgram, type CliIo } from '#core/seed/cli-seed';
import type { InvitedUser, OrganizationListing } from '#core/admin/onboarding';
import { OperatorCallError, operatorTarget, type OperatorTarget } from './invoke';

const processIo: CliIo = { out: (line) => process.stdout.write(`${line}\n`), err: (line) => process.stderr.write(`${line}\n`) };

type Answer = { ok: true; result: unknown } | { ok: false; error: string };

const printListing = (io: CliIo, listing: OrganizationListing) => {
  for (const group of listing.organizations) {
    io.out(group.organization_id ? `${group.organization_name} (${group.organization_id})` : 'Operators (administrators, no organization)');
    if (group.users.length === 0) io.out('  (no users)');
    for (const user of group.users) io.out(`  ${user.email}  ${user.role}  ${user.display_name}`);
  }
};

/** Runs one command; exit code 0 on success, 1 on a refusal or an error (the reason on stderr). */
export const runUsersCli = async (argv: string[], io: CliIo = processIo, target?: { twinDir?: string }): Promise<number> => {
  let exitCode = 0;
  const program = cliProgram('users', io)
    .description('Onboarding: organizations, investigators and operators (administrators) of the service')
    .option('--stage <stage>', 'a deployed stage (dev or prod) instead of the running local twin')
    .option('--region <region>', 'AWS region of the deployed stage (default: the AWS CLI configuration)')
    .option('--json', 'print the answer as JSON');

  const run = async (request: Record<string, unknown>, print: (result: unknown) => void) => {
    const opts = program.opts<{ stage?: string; region?: string; json?: boolean }>();
    let where: OperatorTarget;
    try {
      where = operatorTarget({ ...opts, ...target });
      const answer = (await where.invoke('users', request)) as Answer;
      if (!answer.ok) {
        io.err(`refused (nothing changed): ${answer.error}`);
        exitCode = 1;
        return;
      }
      if (opts.json) io.out(JSON.stringify(answer.result, null, 2));
      else print(answer.result);
    } catch (error) {
      io.err(error instanceof OperatorCallError ? error.message : `the call failed: ${(error as Error).message}`);
      exitCode = 1;
    }
  };

  program
    .command('create-organization <name>')
    .description('create a customer organization')
    .action((name: string) =>
      run({ command: 'create-organization', name }, (result) => {
        const org = result as { organization_id: string; organization_name: string };
        io.out(`created organization "${org.organization_name}": ${org.organization_id}`);
      }),
    );
  program
    .command('invite')
    .description('invite a user: Cognito mails a temporary password, changed at the first sign-in')
    .requiredOption('--email <email>', "the user's email (their sign-in name)")
    .option('--organization <id-or-name>', "the investigator's organization (not for --role admin)")
    .addOption(
      new Option('--role <role>', 'investigator, or admin for an operator of the whole service')
        .choices(['investigator', 'admin'])
        .default('investigator'),
    )
    .option('--name <display-name>', 'display name (default: the part of the email before @)')
    .action((opts: { email: string; organization?: string; role: string; name?: string }) =>
      run(
        {
          command: 'invite',
          email: opts.email,
          role: opts.role,
          ...(opts.organization && { organization: opts.organization }),
          ...(opts.name && { display_name: opts.name }),
        },
        (result) => {
          const user = result as InvitedUser;
          const where = user.organization_name ? `an investigator of "${user.organization_name}"` : 'an operator (administrator)';
          io.out(`invited ${user.email} as ${where}; status ${user.status}: the invitation mail carries a temporary password`);
        },
      ),
    );
  program
    .command('list')
    .description('organizations and their users, operators first')
    .action(() => run({ command: 'list' }, (result) => printListing(io, result as OrganizationListing)));

  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    const code = (error as { exitCode?: number }).exitCode;
    return code === 0 ? 0 : 1; // --help exits 0; commander has already printed why
  }
  return exitCode;
};

if (require.main === module)
  void runUsersCli(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
