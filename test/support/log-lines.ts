/**
 * The JSON log lines a test's code writes (Powertools Logger writes one JSON object per line to stdout
 * or stderr), captured per test: `lines()` holds this test's lines, oldest first.
 */
export const captureLogLines = (): { lines: () => Record<string, unknown>[] } => {
  let captured: Record<string, unknown>[] = [];
  beforeEach(() => {
    captured = [];
    for (const stream of [process.stdout, process.stderr]) {
      jest.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
        captured.push(JSON.parse(String(chunk)) as Record<string, unknown>);
        return true;
      });
    }
  });
  afterEach(() => jest.restoreAllMocks());
  return { lines: () => captured };
};
