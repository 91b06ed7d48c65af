/** A child process run to its end, with its output: for tests of CLIs and shell recipes. */
import { spawn } from 'node:child_process';

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `command args` in `cwd` with the test's environment less `unset` (variables that would point the
 * child at another twin or database) plus `env`.
 */
export const runProcess = (
  command: string,
  args: string[],
  options: { cwd: string; unset: readonly string[]; env?: Record<string, string> },
): Promise<Run> =>
  new Promise((resolve, reject) => {
    const clean = { ...process.env };
    for (const name of options.unset) delete clean[name];
    const child = spawn(command, args, { cwd: options.cwd, env: { ...clean, ...options.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
