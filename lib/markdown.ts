/** A markdown table, its first row the header, with its columns padded to one width as the formatter (Biome) writes it. */
export const markdownTable = ([head, ...rows]: string[][]): string[] => {
  const widths = head!.map((_, c) => Math.max(3, ...[head!, ...rows].map((row) => row[c]!.length)));
  const line = (cells: string[]) => `| ${cells.map((cell, c) => cell.padEnd(widths[c]!)).join(' | ')} |`;
  return [line(head!), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
};
