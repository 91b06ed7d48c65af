/**
 * Evidence coming in, on the investigation's page: how far it has come (the readiness summary beside the evidence
 * check), the list with each entry's readiness and an item's detail (its files' states and errors, a file sent again,
 * delete), adding an item with several files at once, background documents (given to the AI or not), and bulk
 * imports with their progress and their errors by line.
 */
import { useEffect, useState } from 'preact/hooks';
import { client, messageOf, unwrap } from '../api';
import type { components } from '../../api/schema';
import { DropZone, FileRow, inTurn, openFile, ReadinessBadge, type Transfer, useTransfers } from '../components/files';
import {
  Badge,
  Busy,
  Confirm,
  day,
  FoldingPanel,
  type Loaded,
  Loading,
  type Page,
  plural,
  Problem,
  ShowMore,
  Table,
  useAction,
  useWatched,
  when,
  withDetails,
} from '../components/ui';
import { importInProgress, ingestionBusy } from '../poll';
import { ACCEPTED_FILES, declare } from '../file-types';
import { newKey, type PresignedUpload } from '../upload';

type Ingestion = components['schemas']['IngestionStatusResponse'];
type InvestigationDetail = components['schemas']['InvestigationGetResponse'];
type EvidencePage = components['schemas']['InvestigationEvidenceResponse'];
type EvidenceItem = components['schemas']['EvidenceGetResponse'];
type BackgroundEntry = Extract<EvidencePage['items'][number], { kind: 'background_document' }>;
type ImportFormat = components['schemas']['ImportCreateRequest']['format'];
type Watched<T> = Loaded<T> & { timedOut: boolean };
/** The page's uploads (one store, so an item's detail shows an upload the form started) */
export type Uploads = ReturnType<typeof useTransfers>;

const StoppedWatching = ({ what, onAgain }: { what: string; onAgain: () => void }) => (
  <p class="note" role="note">
    {what} still in progress after 30 minutes; this page stopped checking.{' '}
    <button type="button" class="link" onClick={onAgain}>
      Check again
    </button>
  </p>
);

/** "12 of 40 items ready, 230 passages waiting to be embedded": whether an analysis now would wait, and what could not be taken in. */
export const IngestionSummary = ({ state }: { state: Watched<Ingestion> }) => (
  <Loading state={state} label="how far the evidence has come in">
    {(s) =>
      s.items_total === 0 && s.imports_in_progress === 0 ? (
        <p class="ingestion">No evidence yet: add an item, a background document or an import under Evidence.</p>
      ) : (
        <div class="ingestion">
          <p aria-live="polite">
            <strong>
              {s.items_ready} of {plural(s.items_total, 'item')} ready
            </strong>
            {s.chunks_pending > 0 && `, ${plural(s.chunks_pending, 'passage')} waiting to be embedded`}
            {s.imports_in_progress > 0 && `, ${plural(s.imports_in_progress, 'import')} in progress`}
            {s.items_failed > 0 && `, ${s.items_failed} failed`}.
          </p>
          {ingestionBusy(s) && (
            <p class="meta">An analysis started now waits for them, up to about two minutes, then works with what is ready.</p>
          )}
          {state.timedOut && <StoppedWatching what="Evidence is" onAgain={state.reload} />}
          {s.failed.length > 0 && (
            <>
              <p>
                Not taken in (the rest of the evidence is analysed without it; open the item under Evidence to send a file again or delete
                it):
              </p>
              <ul class="failed">
                {s.failed.map((f, i) => (
                  <li key={i}>
                    <strong>{f.title}</strong>
                    {f.file_name && ` (${f.file_name})`}: {f.message}
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )
    }
  </Loading>
);

const evidencePath = (investigationId: string, evidenceId: string) => ({
  path: { investigation_id: investigationId, evidence_id: evidenceId },
});

/** A new upload URL for an attachment whose file has not arrived. */
const reissue = (investigationId: string, evidenceId: string, attachmentId: string) => () =>
  unwrap(
    client.POST('/api/investigations/{investigation_id}/evidence/{evidence_id}/attachments/{attachment_id}/upload', {
      params: { path: { investigation_id: investigationId, evidence_id: evidenceId, attachment_id: attachmentId } },
    }),
  );

const watchItem = (investigationId: string, evidenceId: string) => () =>
  unwrap(
    client.GET('/api/investigations/{investigation_id}/evidence/{evidence_id}', { params: evidencePath(investigationId, evidenceId) }),
  );

const itemBusy = (item: EvidenceItem) => item.readiness === 'processing';

/** An item's detail in the list: its text, its files with their states (a missing one chosen again), and delete. */
const EvidenceDetail = ({
  investigationId,
  evidenceId,
  uploads: { transfers, send },
  onChanged,
}: {
  investigationId: string;
  evidenceId: string;
  uploads: Uploads;
  onChanged: () => void;
}) => {
  const item = useWatched(watchItem(investigationId, evidenceId), itemBusy, [investigationId, evidenceId]);
  const { working, problem, setProblem, run } = useAction();
  const remove = () =>
    run(async () => {
      await unwrap(
        client.DELETE('/api/investigations/{investigation_id}/evidence/{evidence_id}', {
          params: evidencePath(investigationId, evidenceId),
        }),
      );
      onChanged();
    });
  const sendAgain = async (attachment: EvidenceItem['attachments'][number], file: File) => {
    if (file.size !== attachment.size_bytes) {
      setProblem(
        `${file.name} is ${file.size} bytes, and ${attachment.file_name} was declared as ${attachment.size_bytes}: choose the same file, or delete the item and add it again.`,
      );
      return;
    }
    setProblem(undefined);
    if (await send(attachment.attachment_id, reissue(investigationId, evidenceId, attachment.attachment_id), file)) {
      item.reload();
      onChanged();
    }
  };
  return (
    <div class="detail">
      <Loading state={item} label="the item">
        {(e) => (
          <>
            {e.content && <p class="preview">{e.content.length > 400 ? `${e.content.slice(0, 400)}…` : e.content}</p>}
            <p class="meta">
              {e.chunks.embedded} of {plural(e.chunks.total, 'passage')} embedded ·{' '}
              {plural(e.linked_question_ids.length, 'linked question')} · added {when(e.created_at)}
            </p>
            {e.attachments.length > 0 && (
              <ul class="files" aria-label={`Files of ${e.title}`}>
                {e.attachments.map((a) => (
                  <FileRow
                    key={a.attachment_id}
                    name={a.file_name}
                    size={a.size_bytes}
                    transfer={transfers[a.attachment_id]}
                    state={a.state}
                    error={a.error}
                    itemReady={e.readiness === 'ready'}
                    onOpen={() => run(() => openFile({ attachment_id: a.attachment_id }))}
                  />
                ))}
              </ul>
            )}
            {e.attachments
              // a file not sent from this page, or whose sending failed: it may be chosen again
              .filter((a) => (a.state === 'upload_missing' || a.state === 'awaiting_upload') && !transfers[a.attachment_id]?.sending)
              .filter((a) => transfers[a.attachment_id]?.fraction !== 1)
              .map((a) => (
                <DropZone
                  key={a.attachment_id}
                  id={`again-${a.attachment_id}`}
                  label={`Choose ${a.file_name} again`}
                  hint="Send the file that has not arrived: the same file, of the same size."
                  onFiles={([file]) => void sendAgain(a, file!)}
                />
              ))}
            {item.timedOut && <StoppedWatching what="This item is" onAgain={item.reload} />}
            <Confirm
              label="Delete this item"
              question={`Delete “${e.title}” with its ${plural(e.attachments.length, 'file')} and ${plural(e.chunks.total, 'passage')}? This cannot be undone.`}
              confirm="Yes, delete it"
              disabled={working}
              onConfirm={() => void remove()}
            />
          </>
        )}
      </Loading>
      <Problem message={problem} />
    </div>
  );
};

const BackgroundRow = ({
  investigationId,
  doc,
  open,
  onToggle,
  onChanged,
}: {
  investigationId: string;
  doc: BackgroundEntry;
  open: boolean;
  onToggle: () => void;
  onChanged: () => void;
}) => {
  const { working, problem, run } = useAction();
  // the box shows the choice at once; the list read again confirms it (a refusal puts it back, with the reason)
  const [chosen, setChosen] = useState<boolean>();
  useEffect(() => setChosen(undefined), [doc.included]);
  const params = { path: { investigation_id: investigationId, background_document_id: doc.background_document_id } };
  const toggle = (included: boolean) => {
    setChosen(included);
    return run(async () => {
      try {
        await unwrap(
          client.PATCH('/api/investigations/{investigation_id}/background-documents/{background_document_id}', {
            params,
            body: { included_for_ai: included },
          }),
        );
      } catch (error) {
        setChosen(undefined);
        throw error;
      }
      onChanged();
    });
  };
  const remove = () =>
    run(async () => {
      await unwrap(client.DELETE('/api/investigations/{investigation_id}/background-documents/{background_document_id}', { params }));
      onChanged();
    });
  const id = `ai-${doc.background_document_id}`;
  return (
    <li>
      <div class="row-head">
        <span>{doc.title}</span>
        <Badge color="gray">Background</Badge>
        <ReadinessBadge readiness={doc.readiness} />
        <span class="check">
          <input
            id={id}
            type="checkbox"
            checked={chosen ?? doc.included}
            disabled={working}
            onChange={(e) => void toggle(e.currentTarget.checked)}
          />
          <label for={id}>
            Given to the AI<span class="visually-hidden"> ({doc.title})</span>
          </label>
        </span>
        <DetailsButton title={doc.title} open={open} onToggle={onToggle} />
      </div>
      {open && (
        <div class="detail">
          <ul class="files" aria-label={`File of ${doc.title}`}>
            <FileRow
              name={doc.file_name}
              size={doc.size_bytes}
              onOpen={() => run(() => openFile({ background_document_id: doc.background_document_id }))}
            />
          </ul>
          <Confirm
            label="Delete this document"
            question={`Delete the background document “${doc.title}”? This cannot be undone.`}
            confirm="Yes, delete it"
            disabled={working}
            onConfirm={() => void remove()}
          />
        </div>
      )}
      <Problem message={problem} />
    </li>
  );
};

/** Shows or hides an entry's detail; its name says whose. */
const DetailsButton = ({ title, open, onToggle }: { title: string; open: boolean; onToggle: () => void }) => (
  <button type="button" class="link" aria-expanded={open} onClick={onToggle}>
    {open ? 'Hide' : 'Details'}
    <span class="visually-hidden"> of {title}</span>
  </button>
);

/** The investigation's evidence: items with their readiness (and detail on demand), then background documents. */
export const EvidenceList = ({
  investigationId,
  evidence,
  uploads,
  onChanged,
}: {
  investigationId: string;
  evidence: Loaded<Page<EvidencePage['items'][number]>> & { more: () => void };
  uploads: Uploads;
  onChanged: () => void;
}) => {
  const [open, setOpen] = useState<string>();
  const toggle = (id: string) => setOpen(open === id ? undefined : id);
  return (
    <Loading state={evidence} label="evidence">
      {({ items, next_cursor }) =>
        items.length === 0 ? (
          <p>
            Nothing here yet: the forms below add an item with its text and files, a background document, or many items at once from a file.
          </p>
        ) : (
          <>
            <ul class="rows evidence">
              {items.map((item) =>
                item.kind === 'evidence_item' ? (
                  <li key={item.evidence_item_id}>
                    <div class="row-head">
                      <span>{item.title}</span>
                      <ReadinessBadge readiness={item.readiness} />
                      {item.collected_at && <span class="meta">collected {day(item.collected_at)}</span>}
                      {item.attachments.length > 0 && <span class="meta">{plural(item.attachments.length, 'file')}</span>}
                      <DetailsButton
                        title={item.title}
                        open={open === item.evidence_item_id}
                        onToggle={() => toggle(item.evidence_item_id)}
                      />
                    </div>
                    {open === item.evidence_item_id && (
                      <EvidenceDetail
                        investigationId={investigationId}
                        evidenceId={item.evidence_item_id}
                        uploads={uploads}
                        onChanged={onChanged}
                      />
                    )}
                  </li>
                ) : (
                  <BackgroundRow
                    key={item.background_document_id}
                    investigationId={investigationId}
                    doc={item}
                    open={open === item.background_document_id}
                    onToggle={() => toggle(item.background_document_id)}
                    onChanged={onChanged}
                  />
                ),
              )}
            </ul>
            <ShowMore
              shown={plural(items.length, 'entry', 'entries')}
              next={next_cursor}
              loading={evidence.loading}
              onMore={evidence.more}
            />
          </>
        )
      }
    </Loading>
  );
};

/** Files dropped or chosen more than once are taken once. */
const addFiles = (have: File[], more: File[]): File[] => [
  ...have,
  ...more.filter((f) => !have.some((h) => h.name === f.name && h.size === f.size && h.lastModified === f.lastModified)),
];

/** The files a refusal names (details `attachments.<i>.…`), by their place in the list. */
const refusedFiles = (error: unknown): Record<number, string> => {
  const details = (error as { details?: unknown }).details;
  const refused: Record<number, string> = {};
  if (Array.isArray(details))
    for (const d of details as { path?: string; message?: string }[]) {
      const at = /^attachments\.(\d+)/.exec(d.path ?? '');
      if (at) refused[Number(at[1])] = d.message ?? 'this file is refused';
    }
  return refused;
};

/** The fields a refusal names, in the forms' words. */
const FIELD_NAMES: Record<string, string> = {
  title: 'Title',
  content: 'Text',
  collected_at: 'Collected on',
  file_name: 'The file’s name',
  content_type: 'The file',
  size_bytes: 'The file’s size',
};

const describe = (error: unknown): string => withDetails(error, (path) => FIELD_NAMES[path] ?? path);

interface AddedItem {
  evidenceId: string;
  title: string;
  files: File[];
}

/** A just-added item: its files' uploads, then their states as the service reads them, until the item is ready. */
const Added = ({
  investigationId,
  added,
  uploads: { transfers, send },
  onChanged,
}: {
  investigationId: string;
  added: AddedItem;
  uploads: Uploads;
  onChanged: () => void;
}) => {
  const item = useWatched(watchItem(investigationId, added.evidenceId), itemBusy, [investigationId, added.evidenceId]);
  const retry = async (attachmentId: string, file: File) => {
    if (await send(attachmentId, reissue(investigationId, added.evidenceId, attachmentId), file)) {
      item.reload();
      onChanged();
    }
  };
  return (
    <li>
      <div class="row-head">
        <strong>{added.title}</strong>
        {item.data && <ReadinessBadge readiness={item.data.readiness} />}
      </div>
      {item.data && item.data.attachments.length > 0 && (
        <ul class="files" aria-label={`Files of ${added.title}`}>
          {item.data.attachments.map((a, i) => {
            const file = added.files[i];
            const transfer = transfers[a.attachment_id];
            const stuck = transfer?.problem !== undefined || a.state === 'upload_missing';
            return (
              <FileRow
                key={a.attachment_id}
                name={a.file_name}
                size={a.size_bytes}
                transfer={transfer}
                state={a.state}
                error={a.error}
                itemReady={item.data!.readiness === 'ready'}
                onRetry={file && stuck ? () => void retry(a.attachment_id, file) : undefined}
              />
            );
          })}
        </ul>
      )}
      {item.data?.readiness === 'ready' && <p class="meta">Ready: analyses find its passages.</p>}
      {item.timedOut && <StoppedWatching what="This item is" onAgain={item.reload} />}
      <Problem message={item.error} />
    </li>
  );
};

/** The "Add evidence" form: title, text, collected date, linked questions, and files dropped or chosen several at once. */
export const AddEvidence = ({
  investigation,
  uploads,
  open,
  onAdded,
}: {
  investigation: InvestigationDetail;
  uploads: Uploads;
  open: boolean;
  onAdded: () => void;
}) => {
  const investigationId = investigation.investigation_id;
  const [title, setTitle] = useState('');
  const [content, setContent] = useState('');
  const [collected, setCollected] = useState('');
  const [linked, setLinked] = useState<string[]>([]);
  const [files, setFiles] = useState<File[]>([]);
  const [refused, setRefused] = useState<Record<number, string>>({});
  // one key per form as submitted: sending the same form twice (a double click, a retry after a lost answer) makes one item
  const [key, setKey] = useState(newKey);
  const [added, setAdded] = useState<AddedItem[]>([]);
  const { send } = uploads;
  const { working, problem, run } = useAction(describe);
  const edit =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setKey(newKey());
    };
  const setFileList = edit((next: File[]) => {
    setFiles(next);
    setRefused({});
  });

  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      let created;
      try {
        created = await unwrap(
          client.POST('/api/investigations/{investigation_id}/evidence', {
            params: { path: { investigation_id: investigationId } },
            body: {
              title,
              ...(content.trim() && { content }),
              ...(collected && { collected_at: collected }),
              ...(linked.length > 0 && { linked_question_ids: linked }),
              ...(files.length > 0 && { attachments: files.map(declare) }),
              idempotency_key: key,
            },
          }),
        );
      } catch (error) {
        const byFile = refusedFiles(error);
        if (Object.keys(byFile).length === 0) throw error;
        setRefused(byFile);
        throw new Error(`${messageOf(error)} Remove the files marked below, then add the evidence again.`, { cause: error });
      }
      const sent = files;
      setAdded((earlier) => [{ evidenceId: created.evidence_id, title: created.title, files: sent }, ...earlier]);
      setTitle('');
      setContent('');
      setCollected('');
      setLinked([]);
      setFiles([]);
      setKey(newKey());
      onAdded();
      const uploads = new Map(created.uploads.map((u) => [u.attachment_id, u]));
      void inTurn(
        created.attachments.map((a, i) => async () => {
          const upload = uploads.get(a.attachment_id);
          if (upload && sent[i]) await send(a.attachment_id, upload, sent[i]);
        }),
      ).then(onAdded);
    });
  };

  return (
    <FoldingPanel id="add-evidence-heading" title="Add evidence" open={open}>
      <form onSubmit={submit}>
        <label for="evidence-title">Title</label>
        <input id="evidence-title" required maxLength={300} value={title} onInput={(e) => edit(setTitle)(e.currentTarget.value)} />
        <label for="evidence-content">Text</label>
        <textarea id="evidence-content" value={content} onInput={(e) => edit(setContent)(e.currentTarget.value)} />
        <label for="evidence-collected">Collected on</label>
        <input id="evidence-collected" type="date" value={collected} onInput={(e) => edit(setCollected)(e.currentTarget.value)} />
        {investigation.questions.length > 0 && (
          <fieldset>
            <legend>Evidence for the questions</legend>
            {investigation.questions.map((q) => (
              <span class="check" key={q.question_id}>
                <input
                  id={`link-${q.question_id}`}
                  type="checkbox"
                  checked={linked.includes(q.question_id)}
                  onChange={(e) =>
                    edit(setLinked)(e.currentTarget.checked ? [...linked, q.question_id] : linked.filter((id) => id !== q.question_id))
                  }
                />
                <label for={`link-${q.question_id}`}>{q.text}</label>
              </span>
            ))}
          </fieldset>
        )}
        <DropZone
          id="evidence-files"
          label="Choose files"
          multiple
          accept={ACCEPTED_FILES}
          hint="PDF, Word (.docx), e-mail (.eml) and plain text (.txt, .md, .csv), up to 50 files."
          onFiles={(more) => setFileList(addFiles(files, more))}
        />
        {files.length > 0 && (
          <ul class="files" aria-label="Files to add">
            {files.map((f, i) => (
              <li key={`${f.name}-${f.size}-${f.lastModified}`} class="file">
                <span class="file-name">{f.name}</span>
                {refused[i] && (
                  <>
                    <Badge color="red">Cannot be read</Badge>
                    <span class="file-problem">{refused[i]}</span>
                  </>
                )}
                <button type="button" class="secondary small" onClick={() => setFileList(files.filter((_, j) => j !== i))}>
                  Remove<span class="visually-hidden"> {f.name}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
        <div class="actions">
          <button type="submit" disabled={working}>
            Add evidence
          </button>
        </div>
      </form>
      {working && <Busy label="Adding the evidence…" />}
      <Problem message={problem} />
      {added.length > 0 && (
        <>
          <h3>Added</h3>
          <ul class="rows added">
            {added.map((a) => (
              <Added key={a.evidenceId} investigationId={investigationId} added={a} uploads={uploads} onChanged={onAdded} />
            ))}
          </ul>
        </>
      )}
    </FoldingPanel>
  );
};

/** Whether a presigned upload may still be used. */
const fresh = (upload: PresignedUpload & { expires_at: string }): boolean => Date.parse(upload.expires_at) > Date.now() + 5_000;

/** A background document: a file, whether the AI is given it, and its upload's progress. */
export const AddBackgroundDocument = ({
  investigationId,
  open,
  onAdded,
}: {
  investigationId: string;
  open: boolean;
  onAdded: () => void;
}) => {
  const [title, setTitle] = useState('');
  const [file, setFile] = useState<File>();
  const [forAi, setForAi] = useState(true);
  const [sent, setSent] = useState<{ id: string; file: File; upload: PresignedUpload & { expires_at: string } }>();
  const { transfers, send } = useTransfers();
  const { working, problem, run } = useAction(describe);
  const upload = async (to: NonNullable<typeof sent>) => {
    const arrived = await send(
      to.id,
      async () => {
        if (fresh(to.upload)) return to.upload;
        throw new Error('The upload link expired. Delete the document from the evidence list and upload it again.');
      },
      to.file,
    );
    if (arrived) onAdded();
  };
  const submit = (event: Event) => {
    event.preventDefault();
    if (!file) return;
    void run(async () => {
      const created = await unwrap(
        client.POST('/api/investigations/{investigation_id}/background-documents', {
          params: { path: { investigation_id: investigationId } },
          body: { title: title.trim() || file.name, ...declare(file), included_for_ai: forAi },
        }),
      );
      const next = { id: created.background_document_id, file, upload: created.upload };
      setSent(next);
      setTitle('');
      setFile(undefined);
      onAdded();
      void upload(next);
    });
  };
  const transfer = sent && transfers[sent.id];
  return (
    <FoldingPanel id="background-heading" title="Add a background document" open={open}>
      <p class="meta">Policies, procedures, organisation charts: context for the AI, not evidence itself.</p>
      <form onSubmit={submit}>
        <label for="background-title">Title (the file’s name if left empty)</label>
        <input id="background-title" maxLength={300} value={title} onInput={(e) => setTitle(e.currentTarget.value)} />
        <DropZone id="background-file" label="Choose a file" accept={ACCEPTED_FILES} onFiles={([f]) => setFile(f)} />
        {file && <p>Chosen: {file.name}</p>}
        <span class="check">
          <input id="background-for-ai" type="checkbox" checked={forAi} onChange={(e) => setForAi(e.currentTarget.checked)} />
          <label for="background-for-ai">Give this document to the AI</label>
        </span>
        <div class="actions">
          <button type="submit" disabled={working || !file}>
            Upload the document
          </button>
        </div>
      </form>
      {!file && !sent && <p class="meta">Choose a file to upload.</p>}
      <Problem message={problem} />
      {sent && (
        <ul class="files" aria-label="Uploaded background document">
          <FileRow
            name={sent.file.name}
            size={sent.file.size}
            transfer={transfer}
            onRetry={transfer?.problem ? () => void upload(sent) : undefined}
          />
          {transfer?.fraction === 1 && !transfer.sending && <li class="meta">Uploaded: the evidence list shows it as it is read.</li>}
        </ul>
      )}
    </FoldingPanel>
  );
};

const IMPORT_FORMATS: Record<ImportFormat, string> = {
  ndjson: 'NDJSON: one evidence item a line',
  seed: 'Seed file: one investigation (JSON)',
};

const NDJSON_EXAMPLE =
  '{"title": "Invoice 1041", "content": "USD 24,900, approved by R. Diaz.", "collected_at": "2024-03-15", ' +
  '"attachments": [{"file_name": "invoice-1041.txt", "content_type": "text/plain", "text": "…"}]}';

/** One import's progress: lines read of the total, then the errors by line. */
const ImportProgress = ({
  investigationId,
  importId,
  transfer,
  onSettled,
}: {
  investigationId: string;
  importId: string;
  transfer: Transfer | undefined;
  onSettled: () => void;
}) => {
  const state = useWatched(
    () =>
      unwrap(
        client.GET('/api/investigations/{investigation_id}/imports/{import_id}', {
          params: { path: { investigation_id: investigationId, import_id: importId } },
        }),
      ),
    (i) => importInProgress(i.status),
    [investigationId, importId],
  );
  const status = state.data?.status;
  useEffect(() => {
    if (status === 'complete' || status === 'failed') onSettled();
    // biome-ignore lint: once a settled status is seen
  }, [status]);
  // the file arrived: look again now rather than at the next turn of the schedule
  useEffect(() => {
    if (transfer?.fraction === 1 && !transfer.sending) state.reload();
    // biome-ignore lint: when the upload ends
  }, [transfer?.sending]);
  return (
    <Loading state={state} label="the import">
      {(i) => (
        <div class="import" aria-live="polite">
          {i.status === 'awaiting_upload' && !transfer?.sending && !transfer?.problem && <p>Waiting for the file to arrive…</p>}
          {i.status === 'queued' && <p>The file arrived; the import starts shortly.</p>}
          {(i.status === 'processing' || i.status === 'complete') && (
            <p>
              {i.status === 'complete' ? <Badge color="green">Complete</Badge> : <Badge color="blue">Importing</Badge>}{' '}
              {i.lines_total === null ? `${plural(i.lines_done, 'line')} read` : `${i.lines_done} of ${plural(i.lines_total, 'line')} read`}
              {i.lines_failed > 0 ? `, ${plural(i.lines_failed, 'line')} with errors (they added nothing)` : ''}.
              {i.lines_total !== null && i.status === 'processing' && (
                <progress max={i.lines_total} value={i.lines_done} aria-label="Lines read" />
              )}
            </p>
          )}
          {i.status === 'failed' && (
            <p class="problem" role="alert">
              The import failed: {i.error ?? 'the file could not be read'}. Correct the file and import it again.
            </p>
          )}
          {i.errors.length > 0 && (
            <Table
              label="Lines with errors"
              caption={`Lines with errors${i.lines_failed > i.errors.length ? ` (the first ${i.errors.length} of ${i.lines_failed})` : ''}: correct them and import those lines again`}
              columns={['Line', 'Field', 'Problem']}
            >
              {i.errors.map((e, n) => (
                <tr key={n}>
                  <td>{e.line}</td>
                  <td>{e.field}</td>
                  <td>{e.message}</td>
                </tr>
              ))}
            </Table>
          )}
          {state.timedOut && <StoppedWatching what="The import is" onAgain={state.reload} />}
        </div>
      )}
    </Loading>
  );
};

/** A bulk import: an NDJSON or seed file uploaded, then read in the background. */
export const ImportEvidence = ({ investigationId, open, onChanged }: { investigationId: string; open: boolean; onChanged: () => void }) => {
  const [file, setFile] = useState<File>();
  const [format, setFormat] = useState<ImportFormat>('ndjson');
  const [current, setCurrent] = useState<{ id: string; file: File; upload: PresignedUpload & { expires_at: string } }>();
  const { transfers, send } = useTransfers();
  const { working, problem, run } = useAction(describe);
  const upload = (to: NonNullable<typeof current>) =>
    send(
      to.id,
      async () => {
        if (fresh(to.upload)) return to.upload;
        throw new Error('The upload link expired. Choose the file and import it again.');
      },
      to.file,
    );
  const choose = ([f]: File[]) => {
    setFile(f);
    if (f) setFormat(/\.json$/i.test(f.name) ? 'seed' : 'ndjson');
  };
  const submit = (event: Event) => {
    event.preventDefault();
    if (!file) return;
    void run(async () => {
      const created = await unwrap(
        client.POST('/api/investigations/{investigation_id}/imports', {
          params: { path: { investigation_id: investigationId } },
          body: { format, size_bytes: file.size },
        }),
      );
      const next = { id: created.import_id, file, upload: created.upload };
      setCurrent(next);
      setFile(undefined);
      onChanged();
      void upload(next);
    });
  };
  const transfer = current && transfers[current.id];
  return (
    <FoldingPanel id="import-heading" title="Import evidence from a file" open={open}>
      <details>
        <summary>What the file holds</summary>
        <p>
          <strong>NDJSON</strong> (.ndjson): one evidence item a line, a JSON object with its <code>title</code> and, if you have them,{' '}
          <code>content</code>, <code>collected_at</code>, <code>linked_question_ids</code> and <code>attachments</code> given as text:
        </p>
        <pre class="prompt">{NDJSON_EXAMPLE}</pre>
        <p>
          <strong>Seed file</strong> (.json): one investigation in the seed format (the service’s docs/seed-format.md): its questions,
          topics, evidence and background documents, added to this investigation.
        </p>
        <p>
          A line with a problem adds nothing and is listed with why; the other lines go in. Both formats are described in the service’s
          documentation (docs/ingestion.md, docs/seed-format.md).
        </p>
      </details>
      <form onSubmit={submit}>
        <DropZone id="import-file" label="Choose a file to import" accept=".ndjson,.jsonl,.json" onFiles={choose} />
        {file && <p>Chosen: {file.name}</p>}
        <label for="import-format">Format</label>
        <select id="import-format" value={format} onChange={(e) => setFormat(e.currentTarget.value as ImportFormat)}>
          {Object.entries(IMPORT_FORMATS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        <div class="actions">
          <button type="submit" disabled={working || !file}>
            Import
          </button>
        </div>
      </form>
      <Problem message={problem} />
      {current && (
        <>
          <ul class="files" aria-label="Import file">
            <FileRow
              name={current.file.name}
              size={current.file.size}
              transfer={transfer}
              onRetry={transfer?.problem ? () => void upload(current) : undefined}
            />
          </ul>
          <ImportProgress
            key={current.id}
            investigationId={investigationId}
            importId={current.id}
            transfer={transfer}
            onSettled={onChanged}
          />
        </>
      )}
    </FoldingPanel>
  );
};
