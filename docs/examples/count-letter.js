// Count a letter: the text is the letter, `>`, then a word; the answer is how often the letter
// occurs in the word. The level is the word's length. A verify of its own gives half a point for
// a count one off, to show a partial reward (anything in [0, 1]). The fields: docs/tasks.md.

const LETTERS = 'abcdef';

/** @type {import('../../src/tasks/custom/task-api.ts').TaskModule} */
export default {
  id: 'count-letter',
  label: 'Count a letter',
  levels: { min: 2, max: 9 },
  describeLevel: (level) => `in ${level}-letter words`,
  answerUnit: ['digit', 'digits'],
  // Counts up to 9 are rare in the check's draws: say which characters an answer may hold.
  answerChars: '0123456789',
  collapse: { easy: 4, hard: 7 },
  sample(level, rng) {
    const letter = rng.pick([...LETTERS]);
    const word = Array.from({ length: level }, () => rng.pick([...LETTERS])).join('');
    const count = [...word].filter((c) => c === letter).length;
    return { text: `${letter}>${word}`, answer: String(count) };
  },
  verify(problem, answer) {
    if (!/^[0-9]+$/.test(answer)) return 0;
    const off = Math.abs(Number(answer) - Number(problem.answer));
    return off === 0 ? 1 : off === 1 ? 0.5 : 0;
  },
};
