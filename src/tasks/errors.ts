/** A misuse of the tasks layer (bad level, unencodable text, bad hint request), meant for a person. */
export class TaskError extends Error {
  override name = 'TaskError';
}

/** Text holds a character the shared vocabulary does not have. */
export class VocabularyError extends TaskError {
  override name = 'VocabularyError';
  constructor(
    readonly char: string,
    readonly position: number,
    text: string,
  ) {
    const shown = JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
    const code = `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
    super(
      `cannot encode ${JSON.stringify(char)} (${code}) at position ${position} of ${shown}: not in the vocabulary`,
    );
  }
}
