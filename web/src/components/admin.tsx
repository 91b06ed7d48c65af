/** Pieces the admin screens share: their navigation and the queue table. */
import type { components } from '../../api/schema';
import { onLink } from '../router';
import { Table } from './ui';

type Queue = components['schemas']['AdminQueueStatsResponse']['queues']['generation'];

const SECTIONS = [
  ['/admin', 'Prompt types'],
  ['/admin/queue', 'Queue stats'],
  ['/admin/audit-health', 'Audit health'],
  ['/admin/users', 'Users'],
  ['/admin/jobs', 'Jobs'],
] as const;

export type AdminSection = (typeof SECTIONS)[number][0];

export const AdminNav = ({ current }: { current: AdminSection }) => (
  <nav aria-label="Administration" class="subnav">
    {SECTIONS.map(([href, label]) => (
      <a key={href} href={href} onClick={onLink} aria-current={href === current ? 'page' : undefined}>
        {label}
      </a>
    ))}
  </nav>
);

const count = (value: number | null) => (value === null ? '—' : String(value));

export const QueueTable = ({ queues, caption }: { queues: Record<'generation' | 'quality', Queue>; caption: string }) => (
  <Table label={caption} caption={caption} columns={['Queue', 'Waiting', 'In flight', 'Delayed', 'Dead-letter']}>
    {(['generation', 'quality'] as const).map((name) => {
      const q = queues[name];
      return (
        <tr key={name}>
          <th scope="row">
            {name === 'generation' ? 'Generation' : 'Quality checks'}
            {q.error && <p class="problem">Not all figures could be read: {q.error}</p>}
          </th>
          <td>{count(q.visible)}</td>
          <td>{count(q.in_flight)}</td>
          <td>{count(q.delayed)}</td>
          <td>{count(q.dlq_depth)}</td>
        </tr>
      );
    })}
  </Table>
);
