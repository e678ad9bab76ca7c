// One row of the mentor log in plain words first — what the mentor saw and did, as its narrator
// says it — and in the hint's notation second (the diagnosis code, the hint as the prompt carries
// it, the scaffold), for readers who want the exact help.
import type { InterventionRecord } from '../rl/metrics.ts';

export interface LogEntry {
  /** The note's sentence: what the mentor (or rival) saw and did. */
  said: string;
  /** The diagnosis's evidence, where the sentence does not already give it. */
  evidence: string | null;
  /** A help proposed and not used (the LLM agent's hint), in words: "LLM hint rejected: why". */
  declined: string | null;
  /**
   * The same in notation, each a word and its code: diagnosis "wrong-digit at 3 (100%)", hint
   * "c01", scaffold "75".
   */
  notation: { label: string; code: string }[];
  /** How the re-attempts did, in words: "3 of 4 right". */
  outcome: string;
}

export function logEntry(r: InterventionRecord): LogEntry {
  const text = r.note;
  const declined = r.declined
    ? `${r.declined.by === 'llm' ? 'LLM' : r.declined.by} hint rejected: ${r.declined.why}`
    : null;
  const d = r.diagnosis;
  const evidence =
    d && d.evidence && !text.toLowerCase().includes(d.evidence.toLowerCase())
      ? d.evidence.charAt(0).toUpperCase() + d.evidence.slice(1)
      : null;
  const notation: LogEntry['notation'] = [];
  if (d)
    notation.push({
      label: 'diagnosis',
      code: `${d.cause}${d.frontier !== undefined ? ` at ${d.frontier}` : ''} (${Math.round(d.confidence * 100)}%)`,
    });
  if (r.hint) notation.push({ label: 'hint', code: r.hint });
  if (r.scaffold) notation.push({ label: 'scaffold', code: r.scaffold });
  const right = r.rewards.filter((x) => x > 0).length;
  return {
    said: text,
    evidence,
    declined,
    notation,
    outcome: `${right} of ${r.rewards.length} right`,
  };
}
