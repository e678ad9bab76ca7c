// Sections of the docs that are made from the code (the URL parameter table, the step metric
// table): a Markdown table laid out as Prettier lays it out, written between two markers of a
// document, so that a unit test can check the document is current.

/** Where a made section sits: its document and the HTML comments that enclose it. */
export interface DocSection {
  path: string;
  begin: string;
  end: string;
}

/** A Markdown table laid out as Prettier lays it out, so `prettier --check` stays clean. */
export function markdownTable(header: readonly string[], rows: readonly string[][]): string {
  const widths = header.map((h, i) => Math.max(3, h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** The document with `body` between the section's markers; an error when a marker is missing. */
export function withSection(doc: string, section: DocSection, body: string): string {
  const begin = doc.indexOf(section.begin);
  const end = doc.indexOf(section.end);
  if (begin < 0 || end < begin)
    throw new Error(`${section.path}: the ${section.begin} … ${section.end} markers are missing`);
  return `${doc.slice(0, begin + section.begin.length)}\n\n${body}\n\n${doc.slice(end)}`;
}
