import { describe, expect, it } from 'vitest';
import { placedSyntaxError, syntaxErrorPlace } from './syntax-error-place.ts';

describe('syntaxErrorPlace', () => {
  it('finds the line and column where the code stops parsing', async () => {
    expect(await syntaxErrorPlace('export default {')).toEqual({ line: 1, column: 17 });
    const code = 'const a = 1;\nexport default { plan() { return [ }; };';
    expect(await syntaxErrorPlace(code)).toEqual({ line: 2, column: 36 });
    expect(
      await syntaxErrorPlace('export default {\n  plan() {\n    const x = ;\n  },\n};'),
    ).toEqual({
      line: 3,
      column: 15,
    });
  });

  it('has none where the parser sees no error, and the message stays as it was', async () => {
    expect(await syntaxErrorPlace('export default { plan: async () => [] };')).toBeNull();
    // A name declared twice is an error of the engine's, not of the grammar's.
    const twice = 'let x = 1;\nlet x = 2;';
    expect(await syntaxErrorPlace(twice)).toBeNull();
    expect(await placedSyntaxError("Identifier 'x' has already been declared", twice)).toBe(
      "Identifier 'x' has already been declared",
    );
  });

  it("adds the place to the engine's message", async () => {
    expect(await placedSyntaxError('Unexpected end of input', 'export default {')).toBe(
      'Unexpected end of input (near line 1, column 17)',
    );
  });
});
