/**
 * Caches keyed by source hashes grow with every edit: pruneFolders (lib/twin/assembly/assembly.ts) keeps the newest few
 * of each kind, by last use, in the twin's cache (pruneCache) and among the test templates (test/support/template.ts).
 */
import { mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pruneFolders } from '../../lib/twin/assembly/assembly';
import { useTemporaryFolder } from '../support/temporary-folder';

const root = useTemporaryFolder('ias-cache-pruning-');

/** A folder (or a file) last used `minutesAgo` minutes ago. */
const entry = (name: string, minutesAgo: number, kind: 'folder' | 'file' = 'folder') => {
  const path = join(root.dir, name);
  if (kind === 'folder') mkdirSync(path);
  else writeFileSync(path, '');
  const at = new Date(Date.now() - minutesAgo * 60_000);
  utimesSync(path, at, at);
};

test('keeps the newest of each kind given by last use; leaves folders being written, folders of no kind given and files', async () => {
  for (const [i, name] of ['demo-template-a', 'demo-template-b', 'demo-template-c', 'demo-template-d'].entries()) entry(name, 10 - i);
  entry('demo-template-e.partial-123', 60); // another run still writing it
  entry('runtime-a', 50);
  entry('runtime-b', 40);
  entry('runtime-c', 30);
  entry('3f2a9c', 70); // a source hash: no prefix
  entry('pglite-template-x.tar', 80, 'file');

  await pruneFolders(root.dir, ['demo-template-'], 2);
  expect(readdirSync(root.dir).sort()).toEqual([
    '3f2a9c',
    'demo-template-c',
    'demo-template-d',
    'demo-template-e.partial-123',
    'pglite-template-x.tar',
    'runtime-a',
    'runtime-b',
    'runtime-c',
  ]);

  // '' is the kind of a name with none of the other prefixes given: so the twin's cache keeps its newest source hashes
  entry('9b1d4e', 20);
  await pruneFolders(root.dir, ['', 'runtime-', 'demo-template-'], 1);
  expect(readdirSync(root.dir).sort()).toEqual([
    '9b1d4e',
    'demo-template-d',
    'demo-template-e.partial-123',
    'pglite-template-x.tar',
    'runtime-c',
  ]);
});
