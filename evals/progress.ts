/**
 * A progress bar on stderr (stdout stays clean for the summary). On a terminal it redraws one line;
 * elsewhere (CI logs, pipes) it prints a line per finished item for long runs and nothing otherwise.
 */
export interface Progress {
  tick: (label: string) => void;
  done: () => void;
}

export interface ProgressStream {
  write: (text: string) => unknown;
  isTTY?: boolean | undefined;
}

const WIDTH = 24;

export const progressBar = (total: number, stream: ProgressStream, options: { lines: boolean }): Progress => {
  let finished = 0;
  const draw = (label: string) => {
    const filled = total === 0 ? WIDTH : Math.round((finished / total) * WIDTH);
    stream.write(`\r[${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${finished}/${total} ${label}`.padEnd(80).slice(0, 100));
  };
  if (stream.isTTY && total > 0) draw('');
  return {
    tick: (label) => {
      finished++;
      if (stream.isTTY) draw(label);
      else if (options.lines) stream.write(`[${finished}/${total}] ${label}\n`);
    },
    done: () => {
      if (stream.isTTY && total > 0) stream.write('\n');
    },
  };
};
