// The mentor's note for the log, when the LLM agent's hint was rejected: the rules' sentence with
// the reason appended. One place writes and reads the form, so the log can show the two apart.
const MARK = ' (LLM hint rejected — ';

/** The rules' note with why the LLM agent's hint was not used. */
export function withLlmRejection(note: string, reason: string): string {
  return `${note}${MARK}${reason})`;
}

/** A note split into the sentence and, when the LLM agent's hint was rejected, why. */
export function splitNote(note: string): { text: string; llmRejected: string | null } {
  const at = note.lastIndexOf(MARK);
  if (at < 0 || !note.endsWith(')')) return { text: note, llmRejected: null };
  return { text: note.slice(0, at), llmRejected: note.slice(at + MARK.length, -1) };
}
