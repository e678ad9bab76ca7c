// Sort the letters of a word alphabetically; the level is the word's length. Letters come from
// the first twelve of the alphabet, so most words repeat one. No verify: the answer is right when
// it is the reference exactly. The fields: docs/tasks.md (task API v1).

const LETTERS = 'abcdefghijkl';

/** @type {import('../../src/tasks/custom/task-api.ts').TaskModule} */
export default {
  id: 'sort-letters',
  label: 'Sort the letters',
  levels: { min: 2, max: 9 },
  describeLevel: (level) => `${level}-letter words`,
  answerUnit: ['letter', 'letters'],
  collapse: { easy: 4, hard: 6 },
  sample(level, rng) {
    const letters = Array.from({ length: level }, () => rng.pick([...LETTERS]));
    return { text: letters.join(''), answer: [...letters].sort().join('') };
  },
};
