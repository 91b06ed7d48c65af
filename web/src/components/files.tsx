/**
 * Files coming in: a drop zone that takes several files at once (with a real file input behind its label, for the
 * keyboard and screen readers), uploads with a progress bar each, and a file's or an item's state after, in words.
 */
import type { components } from '../../api/schema';
import { useState } from 'preact/hooks';
import { client, messageOf, unwrap } from '../api';
import { sizeText } from '../file-types';
import { type PresignedUpload, putFile } from '../upload';
import { Badge } from './ui';

type FileState = components['schemas']['EvidenceGetResponse']['attachments'][number]['state'];
type Readiness = components['schemas']['EvidenceGetResponse']['readiness'];

/** Opens a file of the investigation in a new tab, by the API's short-lived link (a plain link cannot carry the bearer). */
export const openFile = async (query: { attachment_id: string } | { background_document_id: string }, page?: number) => {
  const link = await unwrap(client.GET('/api/storage/view', { params: { query: { ...query, redirect: 'false' } } }));
  // a PDF viewer opens at the page the fragment names (the fragment is not sent, so the signature still holds)
  window.open(`${(link as { url: string }).url}${page === undefined ? '' : `#page=${page}`}`, '_blank', 'noopener');
};

export const DropZone = ({
  id,
  label,
  multiple = false,
  accept,
  hint,
  onFiles,
}: {
  id: string;
  label: string;
  multiple?: boolean;
  accept?: string;
  hint?: string;
  onFiles: (files: File[]) => void;
}) => {
  const [over, setOver] = useState(false);
  const take = (list: FileList | null | undefined) => {
    const files = [...(list ?? [])];
    if (files.length > 0) onFiles(multiple ? files : files.slice(0, 1));
  };
  const hold = (event: DragEvent) => {
    event.preventDefault();
    if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
    setOver(true);
  };
  return (
    <div
      class={over ? 'drop drop-over' : 'drop'}
      onDragEnter={hold}
      onDragOver={hold}
      onDragLeave={(event) => {
        if (!(event.currentTarget as Node).contains(event.relatedTarget as Node | null)) setOver(false);
      }}
      onDrop={(event) => {
        event.preventDefault();
        setOver(false);
        take(event.dataTransfer?.files);
      }}
    >
      <p>{multiple ? 'Drop files here, or' : 'Drop a file here, or'}</p>
      <input
        id={id}
        type="file"
        class="visually-hidden"
        multiple={multiple}
        accept={accept}
        onChange={(event) => {
          take(event.currentTarget.files);
          event.currentTarget.value = '';
        }}
      />
      <label for={id} class="button">
        {label}
      </label>
      {hint && <p class="meta">{hint}</p>}
    </div>
  );
};

export interface Transfer {
  sending: boolean;
  fraction: number;
  problem?: string;
}

/** Uploads by key (an attachment's id, a file's name): each one's progress, and its problem when it failed. */
export const useTransfers = () => {
  const [transfers, setTransfers] = useState<Record<string, Transfer>>({});
  const update = (key: string, transfer: Transfer) => setTransfers((all) => ({ ...all, [key]: transfer }));
  /** Sends `file` by `upload` (or by the upload `upload()` asks for first); whether it arrived in storage. */
  const send = async (key: string, upload: PresignedUpload | (() => Promise<PresignedUpload>), file: Blob): Promise<boolean> => {
    update(key, { sending: true, fraction: 0 });
    try {
      const target = typeof upload === 'function' ? await upload() : upload;
      await putFile(target, file, (fraction) => update(key, { sending: true, fraction }));
      update(key, { sending: false, fraction: 1 });
      return true;
    } catch (error) {
      update(key, { sending: false, fraction: 0, problem: messageOf(error) });
      return false;
    }
  };
  return { transfers, send };
};

/** Runs `tasks` with at most `width` at a time (a few uploads in parallel, not fifty). */
export const inTurn = async (tasks: (() => Promise<unknown>)[], width = 3): Promise<void> => {
  const queue = [...tasks];
  const worker = async () => {
    for (let task = queue.shift(); task; task = queue.shift()) await task();
  };
  await Promise.all(Array.from({ length: Math.min(width, queue.length) }, worker));
};

const READINESS: Record<Readiness, { color: string; label: string }> = {
  ready: { color: 'green', label: 'Ready' },
  processing: { color: 'blue', label: 'Processing' },
  failed: { color: 'red', label: 'Failed' },
};

export const ReadinessBadge = ({ readiness }: { readiness: Readiness }) => (
  <Badge color={READINESS[readiness].color}>{READINESS[readiness].label}</Badge>
);

/** A file's state in words (uploaded → reading → ready), from the service's state and its item's readiness. */
const stateText = (state: FileState, itemReady: boolean, uploaded: boolean): { color: string; label: string; text?: string } => {
  switch (state) {
    case 'awaiting_upload':
      return uploaded
        ? { color: 'blue', label: 'Uploaded', text: 'the service is about to read it' }
        : { color: 'gray', label: 'Not uploaded', text: 'the file has not arrived yet' };
    case 'pending':
      return { color: 'blue', label: 'Reading', text: 'its text is being extracted' };
    case 'extracted':
      return itemReady
        ? { color: 'green', label: 'Ready' }
        : { color: 'blue', label: 'Read', text: 'its passages are being prepared for search' };
    case 'error':
      return { color: 'red', label: 'Failed' };
    case 'upload_missing':
      return { color: 'red', label: 'Never arrived' };
  }
};

/**
 * One file: its name and size, then its upload's progress, the upload's problem, or its state as the service has it
 * (with the service's error). `onRetry` offers to send it again.
 */
export const FileRow = ({
  name,
  size,
  transfer,
  state,
  error,
  itemReady = false,
  onOpen,
  onRetry,
}: {
  name: string;
  size: number;
  transfer?: Transfer | undefined;
  state?: FileState | undefined;
  error?: string | null | undefined;
  itemReady?: boolean;
  onOpen?: (() => void) | undefined;
  onRetry?: (() => void) | undefined;
}) => {
  const shown = state && stateText(state, itemReady, transfer?.fraction === 1);
  return (
    <li class="file">
      {onOpen ? (
        <button type="button" class="link file-name" onClick={onOpen}>
          {name}
        </button>
      ) : (
        <span class="file-name">{name}</span>
      )}
      <span class="meta">{sizeText(size)}</span>
      {transfer?.sending ? (
        <span class="file-progress">
          <progress max={1} value={transfer.fraction} aria-label={`Uploading ${name}`} />
          <span class="meta">Uploading {Math.round(transfer.fraction * 100)}%</span>
        </span>
      ) : transfer?.problem ? (
        <>
          <Badge color="red">Upload failed</Badge>
          <span class="file-problem">{transfer.problem}</span>
        </>
      ) : (
        shown && (
          <>
            <Badge color={shown.color}>{shown.label}</Badge>
            {(error ?? shown.text) && <span class={error ? 'file-problem' : 'meta'}>{error ?? shown.text}</span>}
          </>
        )
      )}
      {onRetry && !transfer?.sending && (
        <button type="button" class="secondary small" onClick={onRetry}>
          Retry<span class="visually-hidden"> the upload of {name}</span>
        </button>
      )}
    </li>
  );
};
