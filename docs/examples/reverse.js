// A task family in 20 lines: reverse a word. The level is the word's length; the collapse
// scenario jumps from four letters to six. Check it and warm a base up for it:
//   npm run pretrain -- --task docs/examples/reverse.js --out runs/reverse.safetensors
// The fields and what they mean: docs/tasks.md (task API v1).

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** @type {import('../../src/tasks/custom/task-api.ts').TaskModule} */
export default {
  id: 'reverse',
  label: 'Reverse a word',
  levels: { min: 2, max: 9 },
  describeLevel: (level) => `${level}-letter words`,
  answerUnit: ['letter', 'letters'],
  collapse: { easy: 4, hard: 6 },
  sample(level, rng) {
    const word = Array.from({ length: level }, () => rng.pick([...LETTERS])).join('');
    return { text: word, answer: [...word].reverse().join('') };
  },
};
