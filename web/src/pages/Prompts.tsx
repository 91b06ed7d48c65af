/**
 * The prompt editor for administrators (SPEC part 7): every prompt type with its state, a type's versions
 * (up to 20, newest first), one version in full with its side-by-side line diff against the current
 * version, rollback (a new version holding the old content), a new version, and switching a type off and on.
 */
import { useState } from 'preact/hooks';
import { client, messageOf, unwrap } from '../api';
import { onLink } from '../router';
import type { components } from '../../api/schema';
import { AdminNav } from '../components/admin';
import { Badge, Busy, Confirm, Loading, plural, Problem, ShowMore, Table, useAction, useLoad, when, withDetails } from '../components/ui';

type PromptType = components['schemas']['AdminPromptCreateRequest']['prompt_type'];
type History = components['schemas']['AdminPromptHistoryResponse'];
type HistoryList = Extract<History, { versions: unknown }>;
type VersionDetail = Exclude<History, HistoryList>;
type DiffRow = VersionDetail['diff']['system_prompt'][number];

const PROMPT_TYPES: Record<PromptType, string> = {
  analysis_question: 'Analysis: answer a question',
  analysis_topic: 'Analysis: a topic',
  analysis_summary: 'Analysis: summary',
  analysis_gap: 'Analysis: evidence gaps',
  analysis_error_check: 'Analysis: errors and inconsistencies',
  quality_faithfulness: 'Quality check: faithfulness',
  quality_coverage: 'Quality check: coverage',
};

const isPromptType = (value: string): value is PromptType => Object.hasOwn(PROMPT_TYPES, value);

const historyOf = async (type: PromptType, limit = 20, cursor?: string): Promise<HistoryList> => {
  const data = await unwrap(
    client.GET('/api/admin/prompts/history', { params: { query: { prompt_type: type, limit, ...(cursor && { cursor }) } } }),
  );
  if (!('versions' in data)) throw new Error('The service answered a version where the list was asked for.');
  return data;
};

const versionOf = async (type: PromptType, version: number): Promise<VersionDetail> => {
  const data = await unwrap(
    client.GET('/api/admin/prompts/history', { params: { query: { prompt_type: type, version: String(version) } } }),
  );
  if ('versions' in data) throw new Error('The service answered the list where a version was asked for.');
  return data;
};

const StateBadge = ({ active }: { active: boolean }) =>
  active ? <Badge color="green">Active</Badge> : <Badge color="red">Deactivated</Badge>;

const NotAType = ({ type }: { type: string }) => (
  <main>
    <AdminNav current="/admin" />
    <h1>Not found</h1>
    <p>
      There is no prompt type “{type}”.{' '}
      <a href="/admin" onClick={onLink}>
        See the prompt types
      </a>
      .
    </p>
  </main>
);

export const PromptTypes = () => {
  const all = useLoad(() => Promise.all((Object.keys(PROMPT_TYPES) as PromptType[]).map((type) => historyOf(type, 1))), []);
  return (
    <main>
      <AdminNav current="/admin" />
      <h1>Prompt types</h1>
      <p>Each type's current version is what generation and the quality checks use. A deactivated type's analyses are refused.</p>
      <Loading state={all} label="the prompt types">
        {(types) => (
          <Table label="Prompt types" columns={['Prompt type', 'State', 'Current version', 'Versions', 'Last change']}>
            {types.map((t) => (
              <tr key={t.prompt_type}>
                <th scope="row">
                  <a href={`/admin/prompts/${t.prompt_type}`} onClick={onLink}>
                    {PROMPT_TYPES[t.prompt_type as PromptType] ?? t.prompt_type}
                  </a>
                  <br />
                  <code class="meta">{t.prompt_type}</code>
                </th>
                <td>
                  <StateBadge active={t.is_active} />
                </td>
                <td>{t.current_version ?? '—'}</td>
                <td>{t.total_versions}</td>
                <td>{when(t.versions[0]?.created_at)}</td>
              </tr>
            ))}
          </Table>
        )}
      </Loading>
    </main>
  );
};

const NewVersion = ({ type, current, onCreated }: { type: PromptType; current: number | null; onCreated: (note: string) => void }) => {
  const [open, setOpen] = useState(false);
  const [systemPrompt, setSystemPrompt] = useState('');
  const [template, setTemplate] = useState('');
  const [changeNote, setChangeNote] = useState('');
  const { working, problem, run } = useAction<string>(withDetails);
  const start = () =>
    current === null
      ? setOpen(true)
      : run(async () => {
          const version = await versionOf(type, current);
          setSystemPrompt(version.system_prompt);
          setTemplate(version.user_prompt_template);
          // the form opens with the current content in it, never empty first
          setOpen(true);
        }, 'Loading the current version…');
  const save = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const created = await unwrap(
        client.POST('/api/admin/prompts', {
          body: {
            prompt_type: type,
            system_prompt: systemPrompt,
            user_prompt_template: template,
            ...(changeNote.trim() && { change_note: changeNote }),
          },
        }),
      );
      setOpen(false);
      setChangeNote('');
      onCreated(
        `Version ${created.version} was created${created.is_current ? ' and is the current version' : ''}${created.is_active ? '' : ' (stored deactivated, as the type is)'}.`,
      );
    }, 'Saving the new version…');
  };
  if (!open)
    return (
      <>
        <div class="actions">
          <button type="button" disabled={working !== undefined} onClick={start}>
            Create a new version
          </button>
        </div>
        {working && <Busy label={working} />}
        <Problem message={problem} />
      </>
    );
  return (
    <form onSubmit={save} class="panel" aria-labelledby="new-version-heading">
      <h2 id="new-version-heading">New version</h2>
      <p class="meta">Starts from the current version's content. Saving makes it the current version; no version is overwritten.</p>
      <label for="new-system-prompt">System prompt</label>
      <textarea id="new-system-prompt" rows={8} required value={systemPrompt} onInput={(e) => setSystemPrompt(e.currentTarget.value)} />
      <label for="new-user-template">User prompt template</label>
      <textarea id="new-user-template" rows={12} required value={template} onInput={(e) => setTemplate(e.currentTarget.value)} />
      <label for="new-change-note">What this version changes (optional, shown on its card)</label>
      <input id="new-change-note" maxLength={500} value={changeNote} onInput={(e) => setChangeNote(e.currentTarget.value)} />
      <div class="actions">
        <button type="submit" disabled={working !== undefined}>
          Save the new version
        </button>
        <button type="button" class="secondary" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
      {working && <Busy label={working} />}
      <Problem message={problem} />
    </form>
  );
};

export const PromptTypePage = ({ type }: { type: string }) => (isPromptType(type) ? <TypeScreen type={type} /> : <NotAType type={type} />);

const TypeScreen = ({ type }: { type: PromptType }) => {
  const loaded = useLoad(() => historyOf(type), [type]);
  // after a change, the list is read again and shown together with the notice, never the notice beside the old list
  const [latest, setLatest] = useState<HistoryList>();
  const history = { ...loaded, data: latest ?? loaded.data };
  const [notice, setNotice] = useState<string>();
  const { working, problem, setProblem, run } = useAction();
  // versions past the newest page, read on demand (a change reads the list again from its newest)
  const [older, setOlder] = useState<Pick<HistoryList, 'versions' | 'next_cursor'>>();
  const showOlder = (from: string) =>
    run(async () => {
      const page = await historyOf(type, 20, from);
      setOlder((o) => ({ versions: [...(o?.versions ?? []), ...page.versions], next_cursor: page.next_cursor }));
    });
  const changed = async (note: string) => {
    try {
      setOlder(undefined);
      setLatest(await historyOf(type));
      setNotice(note);
    } catch (error) {
      setProblem(`${note} The list could not be read again: ${messageOf(error)}`);
    }
  };
  const setActive = (is_active: boolean) => {
    setNotice(undefined);
    return run(async () => {
      const answer = await unwrap(
        client.PATCH('/api/admin/prompts/{prompt_type}', { params: { path: { prompt_type: type } }, body: { is_active } }),
      );
      await changed(answer.is_active ? `${type} is active: its analyses run again.` : `${type} is deactivated: its analyses are refused.`);
    });
  };
  return (
    <main>
      <AdminNav current="/admin" />
      <p class="crumbs">
        <a href="/admin" onClick={onLink}>
          Prompt types
        </a>
      </p>
      <h1>
        {PROMPT_TYPES[type]} <code class="meta">{type}</code>
      </h1>
      {notice && (
        <p class="note" role="status">
          {notice}
        </p>
      )}
      <Problem message={problem} />
      <Loading state={history} label="the versions">
        {(h) => (
          <>
            <dl class="figures">
              <div>
                <dt>State</dt>
                <dd>
                  <StateBadge active={h.is_active} />
                </dd>
              </div>
              <div>
                <dt>Current version</dt>
                <dd>{h.current_version ?? '—'}</dd>
              </div>
              <div>
                <dt>Versions</dt>
                <dd>{h.total_versions}</dd>
              </div>
            </dl>
            <div class="actions">
              {h.is_active ? (
                <Confirm
                  label="Deactivate"
                  question={`Deactivate ${type}? Analyses that need it are refused until it is activated again.`}
                  confirm="Yes, deactivate"
                  disabled={working || h.total_versions === 0}
                  onConfirm={() => void setActive(false)}
                />
              ) : (
                <button type="button" class="secondary" disabled={working} onClick={() => void setActive(true)}>
                  Activate
                </button>
              )}
            </div>
            <NewVersion key={h.current_version} type={type} current={h.current_version} onCreated={(note) => void changed(note)} />
            <h2 id="versions-heading">Versions</h2>
            {h.versions.length === 0 ? (
              <p>No versions yet.</p>
            ) : (
              <ol class="cards" aria-labelledby="versions-heading">
                {[...h.versions, ...(older?.versions ?? [])].map((v) => (
                  <li key={v.version}>
                    <p>
                      <a href={`/admin/prompts/${type}/versions/${v.version}`} onClick={onLink}>
                        <strong>Version {v.version}</strong>
                      </a>{' '}
                      {v.is_current && <Badge color="blue">Current</Badge>}{' '}
                      {v.restored_from_version !== null && <Badge color="purple">Restored from version {v.restored_from_version}</Badge>}
                    </p>
                    {v.change_note && <p class="change-note">“{v.change_note}”</p>}
                    <p class="preview">
                      {v.change === null
                        ? `First version: ${v.preview}`
                        : v.change.lines_changed === 0
                          ? `Same text as version ${v.change.from_version}.`
                          : `${plural(v.change.lines_changed, 'line')} changed from version ${v.change.from_version}, first: “${v.change.first_change}”`}
                    </p>
                    <p class="meta">
                      {v.created_by ? v.created_by.display_name || v.created_by.email : 'Seeded'} · {when(v.created_at)} · system prompt{' '}
                      {v.system_prompt_chars} characters, template {v.user_prompt_template_chars}
                    </p>
                  </li>
                ))}
              </ol>
            )}
            <ShowMore
              shown={`${h.versions.length + (older?.versions.length ?? 0)} of ${h.total_versions} versions`}
              next={older ? older.next_cursor : h.next_cursor}
              loading={working === true}
              onMore={() => {
                const from = older ? older.next_cursor : h.next_cursor;
                if (from) void showOlder(from);
              }}
            />
          </>
        )}
      </Loading>
    </main>
  );
};

const MARKS: Record<DiffRow['kind'], [string, string]> = {
  same: ['', 'unchanged'],
  changed: ['~', 'changed'],
  removed: ['−', 'removed'],
  added: ['+', 'added'],
};

const DiffTable = ({ caption, rows, left, right }: { caption: string; rows: DiffRow[]; left: number; right: number }) => (
  <Table
    label={caption}
    caption={caption}
    class="diff"
    columns={[
      <>
        <span aria-hidden="true">±</span> <span class="visually-hidden">Change</span>
      </>,
      'Line',
      `Version ${left}`,
      'Line',
      `Version ${right} (current)`,
    ]}
  >
    {rows.map((row, i) => {
      const [mark, meaning] = MARKS[row.kind];
      return (
        <tr key={i} class={`diff-${row.kind}`}>
          <td class="mark">
            {mark && <span aria-hidden="true">{mark}</span>}
            {row.kind !== 'same' && <span class="visually-hidden">{meaning}</span>}
          </td>
          <td class="line-no">{row.left_line_no ?? ''}</td>
          <td class="text">{row.left ?? ''}</td>
          <td class="line-no">{row.right_line_no ?? ''}</td>
          <td class="text">{row.right ?? ''}</td>
        </tr>
      );
    })}
  </Table>
);

const countsText = ({ changed, removed, added }: { changed: number; removed: number; added: number }) =>
  changed + removed + added === 0 ? 'no differences' : `${changed} changed, ${removed} removed, ${added} added`;

export const PromptVersionPage = ({ type, version }: { type: string; version: string }) =>
  isPromptType(type) && /^[1-9]\d*$/.test(version) ? (
    <VersionScreen type={type} number={Number(version)} />
  ) : (
    <NotAType type={`${type} version ${version}`} />
  );

const VersionScreen = ({ type, number }: { type: PromptType; number: number }) => {
  const loaded = useLoad(() => versionOf(type, number), [type, number]);
  const [latest, setLatest] = useState<VersionDetail>();
  const detail = { ...loaded, data: latest ?? loaded.data };
  const [notice, setNotice] = useState<{ version: number }>();
  const { working, problem, run } = useAction();
  const rollback = () =>
    run(async () => {
      const created = await unwrap(client.POST('/api/admin/prompts/history', { body: { prompt_type: type, version: number } }));
      setLatest(await versionOf(type, number));
      setNotice({ version: created.version });
    });
  return (
    <main>
      <AdminNav current="/admin" />
      <p class="crumbs">
        <a href="/admin" onClick={onLink}>
          Prompt types
        </a>{' '}
        ›{' '}
        <a href={`/admin/prompts/${type}`} onClick={onLink}>
          {PROMPT_TYPES[type]}
        </a>
      </p>
      <h1>
        {PROMPT_TYPES[type]}: version {number}
      </h1>
      {notice && (
        <p class="note" role="status">
          Version {notice.version} restores the content of version {number} and is now the current version.{' '}
          <a href={`/admin/prompts/${type}`} onClick={onLink}>
            See the versions
          </a>
        </p>
      )}
      <Problem message={problem} />
      <Loading state={detail} label="the version">
        {(v) => (
          <>
            <p>
              {v.is_current ? (
                <Badge color="blue">Current</Badge>
              ) : (
                <Badge color="gray">Not current (current: version {v.current_version})</Badge>
              )}{' '}
              {v.restored_from_version !== null && <Badge color="purple">Restored from version {v.restored_from_version}</Badge>}{' '}
              <span class="meta">
                {v.created_by ? v.created_by.display_name || v.created_by.email : 'Seeded'} · {when(v.created_at)}
              </span>
            </p>
            {!v.is_current && (
              <div class="actions">
                <Confirm
                  label={`Roll back to version ${number}`}
                  question={`Restore version ${number}'s content as a new version of ${type}? It becomes the current version; every version stays in the history.`}
                  confirm="Yes, roll back"
                  disabled={working}
                  onConfirm={() => void rollback()}
                />
              </div>
            )}
            {working && <Busy label="Rolling back…" />}
            <section class="panel" aria-labelledby="content-heading">
              <h2 id="content-heading">Content</h2>
              <h3>System prompt</h3>
              <pre class="prompt">{v.system_prompt}</pre>
              <h3>User prompt template</h3>
              <pre class="prompt">{v.user_prompt_template}</pre>
            </section>
            <section class="panel" aria-labelledby="diff-heading">
              <h2 id="diff-heading">Compared with the current version ({v.diff.right_version})</h2>
              {v.diff.identical ? (
                <p>Version {number} has the same content as the current version.</p>
              ) : (
                <>
                  <p class="meta">
                    Rows marked ~ changed, − removed, + added. System prompt: {countsText(v.diff.counts.system_prompt)}. User prompt
                    template: {countsText(v.diff.counts.user_prompt_template)}.
                  </p>
                  <DiffTable caption="System prompt" rows={v.diff.system_prompt} left={v.diff.left_version} right={v.diff.right_version} />
                  <DiffTable
                    caption="User prompt template"
                    rows={v.diff.user_prompt_template}
                    left={v.diff.left_version}
                    right={v.diff.right_version}
                  />
                </>
              )}
            </section>
          </>
        )}
      </Loading>
    </main>
  );
};
