import js from '@eslint/js';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import ts from 'typescript-eslint';

// The layers of docs/architecture.md#layers, enforced: for each folder, the folders of src/ it must
// not import from (relative imports, so a path climbs with ../ before it names one). Tests and test
// helpers may reach across, to build what they check.
const LAYERS = [
  'platform',
  'engine',
  'model',
  'tasks',
  'rl',
  'interventions',
  'research',
  'run',
  'app',
  'ui',
];
const FORBIDDEN = {
  platform: LAYERS.filter((l) => l !== 'platform'),
  engine: ['model', 'tasks', 'rl', 'interventions', 'research', 'run', 'app', 'ui'],
  model: ['tasks', 'rl', 'interventions', 'research', 'run', 'app', 'ui'],
  tasks: ['engine', 'model', 'rl', 'interventions', 'research', 'run', 'app', 'ui'],
  rl: ['interventions', 'research', 'run', 'app', 'ui'],
  interventions: ['engine', 'model', 'research', 'run', 'app', 'ui'],
  research: ['engine', 'interventions', 'run', 'app', 'ui'],
  run: ['research', 'app', 'ui'],
  app: ['research', 'ui'],
  ui: ['engine', 'model', 'tasks', 'rl', 'interventions', 'research', 'run'],
};
const climbTo = (folders) => `^(\\.\\./)+(${folders.join('|')})(/|$)`;
const layerRule = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
const layerMessage = (layer) =>
  `${layer} may not import this layer: see docs/architecture.md#layers (move the code down to where both may use it).`;
const layerBlocks = Object.entries(FORBIDDEN).map(([layer, folders]) => {
  const patterns = [{ regex: climbTo(folders), message: layerMessage(layer) }];
  // Of rl, the interventions see only the Intervention interface; the page's starters are the
  // documented examples, taken as text (never run on the page).
  if (layer === 'interventions')
    patterns.push({ regex: '^(\\.\\./)+rl/(?!intervention\\.ts$)', message: layerMessage(layer) });
  if (layer === 'app')
    patterns.push({
      regex: '^(\\.\\./)+docs/(?!examples/[a-z-]+\\.js\\?raw$)',
      message: layerMessage(layer),
    });
  return {
    files: [`src/${layer}/**/*.ts`, `src/${layer}/**/*.svelte`],
    ignores: ['**/*.test.ts', '**/testing/**'],
    rules: layerRule(patterns),
  };
});

export default ts.config(
  { ignores: ['dist/', 'node_modules/', 'test-results/', 'playwright-report/', 'runs/'] },
  js.configs.recommended,
  ...ts.configs.recommended,
  ...svelte.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node, ...globals.worker } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: { parserOptions: { parser: ts.parser, extraFileExtensions: ['.svelte'] } },
  },
  ...layerBlocks,
  {
    files: ['cli/**/*.ts'],
    ignores: ['**/*.test.ts', '**/testing/**'],
    rules: layerRule([{ regex: '^(\\.\\./)+src/(app|ui)/', message: layerMessage('cli') }]),
  },
);
