/** The operational admin screens: queue statistics with the shedder, audit health, users with their AI usage, background jobs. */
import { client, unwrap } from '../api';
import { AdminNav, QueueTable } from '../components/admin';
import { Badge, Loading, Table, useLoad, when } from '../components/ui';

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

/** A duration in seconds, as people say it. */
const age = (seconds: number | null): string => {
  if (seconds === null) return '—';
  if (seconds < 90) return `${Math.round(seconds)} s`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
};

const number = (value: number) => value.toLocaleString();

export const QueueStats = () => {
  const stats = useLoad(() => unwrap(client.GET('/api/admin/queue-stats')), []);
  return (
    <main>
      <AdminNav current="/admin/queue" />
      <h1>Queue stats</h1>
      <Loading state={stats} label="the queue statistics">
        {({ queues, shedder, time }) => (
          <>
            <p class="meta">As of {when(time)}</p>
            <QueueTable queues={queues} caption="Messages in the work queues" />
            <section class="panel" aria-labelledby="shedder-heading">
              <h2 id="shedder-heading">Throttle shedder</h2>
              <p>
                {shedder.disabled ? (
                  <Badge color="gray">Disabled</Badge>
                ) : shedder.hot ? (
                  <Badge color="amber">Shedding quality checks</Badge>
                ) : (
                  <Badge color="green">Not shedding</Badge>
                )}
              </p>
              <dl class="figures">
                <div>
                  <dt>Quality checks shed</dt>
                  <dd>{yesNo(shedder.hot)}</dd>
                </div>
                <div>
                  <dt>Model throttles, last 60 s</dt>
                  <dd>{shedder.recentThrottles}</dd>
                </div>
                <div>
                  <dt>Fallback region</dt>
                  <dd>{shedder.fallbackRegion}</dd>
                </div>
                <div>
                  <dt>Shedder switched off</dt>
                  <dd>{yesNo(shedder.disabled)}</dd>
                </div>
              </dl>
            </section>
          </>
        )}
      </Loading>
    </main>
  );
};

export const AuditHealth = () => {
  const health = useLoad(() => unwrap(client.GET('/api/admin/audit-health')), []);
  return (
    <main>
      <AdminNav current="/admin/audit-health" />
      <h1>Audit health</h1>
      <Loading state={health} label="the audit health">
        {(h) => (
          <>
            <p>
              {h.status === 'healthy' ? <Badge color="green">Healthy</Badge> : <Badge color="red">Degraded</Badge>}{' '}
              <span class="meta">
                {h.total_failures} failed audit writes in the last {h.window_hours} hours (since {when(h.since)}); checked{' '}
                {when(h.checked_at)}
              </span>
            </p>
            {h.failing_actions.length === 0 ? (
              <p>No audit action failed to be written in this window.</p>
            ) : (
              <Table
                label="Failing audit actions"
                caption="Failing audit actions, most recently failing first"
                columns={['Action', 'Failures', 'Written', 'Last failure', 'Last error']}
              >
                {h.failing_actions.map((a) => (
                  <tr key={a.action}>
                    <th scope="row">
                      <code>{a.action}</code>
                    </th>
                    <td>{a.failures}</td>
                    <td>{a.written}</td>
                    <td>{when(a.last_failed_at)}</td>
                    <td>{a.last_error_message}</td>
                  </tr>
                ))}
              </Table>
            )}
          </>
        )}
      </Loading>
    </main>
  );
};

export const Users = () => {
  const users = useLoad(() => unwrap(client.GET('/api/admin/users', { params: { query: { limit: 200 } } })), []);
  return (
    <main>
      <AdminNav current="/admin/users" />
      <h1>Users</h1>
      <Loading state={users} label="the users">
        {({ organizations, next_cursor }) => (
          <>
            {organizations.map((org) => (
              <section key={org.organization_id ?? 'operators'} class="panel">
                <Table
                  label={`Users of ${org.organization_name ?? 'the operators'}`}
                  caption={<h2>{org.organization_name ?? 'Operators (no organization)'}</h2>}
                  columns={['User', 'Role', 'AI calls', 'Successful', 'Tokens in / out', 'Last AI call']}
                >
                  {org.users.map((u) => (
                    <tr key={u.user_id}>
                      <th scope="row">
                        {u.display_name || u.email}
                        <br />
                        <span class="meta">{u.email}</span>
                      </th>
                      <td>{u.role === 'admin' ? 'Administrator' : 'Investigator'}</td>
                      <td>{number(u.ai_usage.calls)}</td>
                      <td>{number(u.ai_usage.successful_calls)}</td>
                      <td>
                        {number(u.ai_usage.input_tokens)} / {number(u.ai_usage.output_tokens)}
                      </td>
                      <td>{when(u.ai_usage.last_call_at)}</td>
                    </tr>
                  ))}
                </Table>
              </section>
            ))}
            {next_cursor && <p class="meta">Showing the first 200 users.</p>}
          </>
        )}
      </Loading>
    </main>
  );
};

const RUN_COLOR = { running: 'blue', succeeded: 'green', failed: 'red' } as const;

export const Jobs = () => {
  const jobs = useLoad(() => unwrap(client.GET('/api/admin/jobs/status')), []);
  return (
    <main>
      <AdminNav current="/admin/jobs" />
      <h1>Jobs</h1>
      <Loading state={jobs} label="the job status">
        {(s) => (
          <>
            <p class="meta">As of {when(s.time)}</p>
            <Table
              label="Scheduled jobs"
              caption="Scheduled jobs and their newest run"
              columns={['Job', 'Schedule', 'Newest run', 'Started', 'Last success']}
            >
              {s.jobs.map((j) => (
                <tr key={j.job}>
                  <th scope="row">
                    <code>{j.job}</code>
                  </th>
                  <td>{j.schedule ?? '—'}</td>
                  <td>
                    {j.last_run ? (
                      <>
                        <Badge color={RUN_COLOR[j.last_run.status]}>{j.last_run.status}</Badge>{' '}
                        <span class="meta">by {j.last_run.trigger === 'schedule' ? 'schedule' : 'request'}</span>
                        {j.last_run.error_message && <p class="problem">{j.last_run.error_message}</p>}
                      </>
                    ) : (
                      'Never ran'
                    )}
                  </td>
                  <td>{when(j.last_run?.started_at)}</td>
                  <td>{when(j.last_succeeded_at)}</td>
                </tr>
              ))}
            </Table>
            <QueueTable queues={s.queues} caption="Messages in the work queues" />
            <h2>Analyses in progress</h2>
            <dl class="figures">
              {(['queued', 'generating', 'checking'] as const).map((status) => (
                <div key={status}>
                  <dt>{status[0]!.toUpperCase() + status.slice(1)}</dt>
                  <dd>
                    {s.analyses_in_flight[status].count}
                    {s.analyses_in_flight[status].oldest_age_seconds !== null &&
                      `, oldest ${age(s.analyses_in_flight[status].oldest_age_seconds)}`}
                  </dd>
                </div>
              ))}
            </dl>
          </>
        )}
      </Loading>
    </main>
  );
};
