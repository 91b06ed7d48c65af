/**
 * The embedded database (PGlite) must never be opened by two processes at once. A running twin writes
 * its process id to `twin.pid` beside its data folder (the default data folder `.twin/pgdata` gives
 * `.twin/twin.pid`); tools that open the same data folder (the seed CLI) call runningTwin() first.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const TWIN_PID_FILE = 'twin.pid';

/** Where the twin that uses this data folder records its process id. */
export const twinPidPath = (dataDir: string): string => join(dirname(resolve(dataDir)), TWIN_PID_FILE);

/** Whether a process with this id exists (EPERM: it exists but belongs to another user). */
export const processAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * The twin process holding this data folder, if one is alive. A missing, unreadable or stale pid file
 * (its process has ended), or one naming this very process, means no other process holds it.
 * In-memory and browser data folders (`memory://`, `idb://`) are never shared.
 */
export const runningTwin = (dataDir: string): { pid: number; pidFile: string } | undefined => {
  if (dataDir.includes('://')) return undefined;
  const pidFile = twinPidPath(dataDir);
  let raw: string;
  try {
    raw = readFileSync(pidFile, 'utf8');
  } catch {
    return undefined;
  }
  const pid = Number.parseInt(raw.trim(), 10);
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return undefined;
  return processAlive(pid) ? { pid, pidFile } : undefined;
};
