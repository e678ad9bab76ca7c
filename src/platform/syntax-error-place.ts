// Where a person's code stops parsing, for a "does not load" message. The engines say what the
// syntax error is but not where: Chromium's and Node's SyntaxError from import() carry no line.
// So the code is parsed again, with the editor's JavaScript parser (Lezer, error-tolerant, never
// running anything), and its first error named. It may differ from the engine's place by a token
// or a line (an unclosed string is found where the next line begins), hence "near"; an error the
// grammar does not see (a name declared twice) has no place.

/** 1-based line and column of the first syntax error in `code`, or null where the parser sees none. */
export async function syntaxErrorPlace(
  code: string,
): Promise<{ line: number; column: number } | null> {
  // Loaded only when code does not load: the parser stays out of the workers until then.
  const { javascriptLanguage } = await import('@codemirror/lang-javascript');
  let at: number | null = null;
  javascriptLanguage.parser.parse(code).iterate({
    enter: (node) => {
      if (at === null && node.type.isError) at = node.from;
      return at === null;
    },
  });
  if (at === null) return null;
  const before = code.slice(0, at).split('\n');
  return { line: before.length, column: (before.at(-1) ?? '').length + 1 };
}

/** A syntax error's message with the place the parser finds it: "Unexpected token '}' (near line 2, column 36)". */
export async function placedSyntaxError(message: string, code: string): Promise<string> {
  const place = await syntaxErrorPlace(code);
  return place ? `${message} (near line ${place.line}, column ${place.column})` : message;
}
