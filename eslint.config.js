import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'public', 'test-results', 'playwright-report', 'scratch'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/client/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['bin/**/*.js', 'bench/**/*.ts', 'src/cli/**/*.ts', '*.config.{js,ts}'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  // No function in the product over 120 lines (issue 29), counted as written,
  // blank lines and comments included: split a longer one by idea. Left out:
  // tests (a describe block is a list of cases), and the numeric kernels, whose
  // inner loops are kept whole for speed: the engines' losses, gradients and
  // shaders, and the one-pass curvature sweep (src/core/engines), and the
  // DEFLATE decoder (src/core/data/zip.ts).
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/**/*.test.{ts,tsx}', 'src/core/engines/**', 'src/core/data/zip.ts'],
    rules: {
      'max-lines-per-function': [
        'error',
        { max: 120, skipBlankLines: false, skipComments: false, IIFEs: true },
      ],
    },
  },
  // Layers: core ← charts, report ← worker, cli ← client, with boundary/ read by both
  // sides of the worker boundary. Each layer may import only the ones below it,
  // and no product code imports e2e/ (test-only code: the parity page, specs).
  layer('src/core/**/*.ts', ['client', 'charts', 'worker', 'cli', 'boundary', 'report', 'e2e'], {
    packages: ['react', 'react-dom', 'd3', 'd3-*', 'comlink'],
    why: 'core is pure TypeScript: no DOM, React, d3 or worker; nothing above it',
  }),
  // The core's product code runs in a browser as well: no Node built-in and nothing
  // from the Node layer (src/node). Tests run in Node and may; their shared helpers
  // are in test/support, file reading for the CLI in src/node/files.ts.
  layer('src/core/**/*.ts', ['client', 'charts', 'worker', 'cli', 'boundary', 'report', 'e2e'], {
    packages: ['react', 'react-dom', 'd3', 'd3-*', 'comlink', 'node:*'],
    folders: ['node'],
    ignores: ['src/core/**/*.test.ts'],
    why: 'core is runtime-neutral TypeScript: no Node built-in, DOM, React, d3 or worker; nothing above it',
  }),
  layer('src/charts/**/*.ts', ['client', 'worker', 'cli', 'report', 'e2e'], {
    packages: ['react', 'react-dom', 'comlink'],
    folders: ['node'],
    why: 'charts read core and boundary only',
  }),
  layer('src/worker/**/*.ts', ['client', 'charts', 'cli', 'e2e'], {
    packages: ['react', 'react-dom', 'd3', 'd3-*'],
    folders: ['node'],
    why: 'the worker reads core and boundary only',
  }),
  // The report (src/report) is read by the worker and the CLI: one builder, the same bytes.
  layer('src/report/**/*.ts', ['client', 'charts', 'worker', 'cli', 'e2e'], {
    packages: ['react', 'react-dom', 'd3', 'd3-*', 'comlink', 'jsdom'],
    why: 'the report reads core and boundary only and draws SVG as strings (no DOM), so the CLI and the worker give the same bytes',
  }),
  layer('src/cli/**/*.ts', ['client', 'charts', 'worker', 'e2e'], {
    packages: ['react', 'react-dom', 'd3', 'd3-*', 'comlink'],
    why: 'the CLI reads core and boundary only',
  }),
  layer('src/boundary/**/*.ts', ['client', 'charts', 'worker', 'cli', 'report', 'e2e'], {
    packages: ['react', 'react-dom', 'd3', 'd3-*'],
    typesOnly: ['core'],
    folders: ['node'],
    why: 'boundary holds what crosses the worker boundary: core types, no code above core',
  }),
  // Node-only code above the core (worker threads, tfjs's module hook), for the CLI, tests, benches.
  layer('src/node/**/*.ts', ['client', 'charts', 'worker', 'cli', 'report', 'e2e'], {
    packages: ['react', 'react-dom', 'd3', 'd3-*', 'comlink'],
    why: 'the Node layer reads core and boundary only',
  }),
  layer('src/client/**/*.{ts,tsx}', ['e2e', 'node'], {
    packages: [],
    why: 'the product never imports test-only code (e2e/, the parity page)',
  }),
  layer('e2e/parity/**/*.ts', ['client', 'charts', 'worker', 'cli', 'boundary'], {
    packages: ['react', 'react-dom', 'd3', 'd3-*', 'comlink'],
    why: 'the WebGPU parity page runs the core engines only',
  }),
);

/**
 * One layer's import fence: no relative path through a folder of `banned`
 * (or, for `typesOnly`, only `import type` from it), or into a folder of
 * `folders`, and none of `packages`; for `files` less `ignores`.
 */
function layer(files, banned, { packages, why, typesOnly = [], folders = [], ignores = [] }) {
  const through = (names) => `(^|/)(${names.join('|')})(/|$)`;
  const patterns = [{ regex: through(banned), message: `Layer rule: ${why}.` }];
  // Folders only (a file of the same name, e.g. a node.ts, is not one).
  if (folders.length)
    patterns.push({ regex: `(^|/)(${folders.join('|')})/`, message: `Layer rule: ${why}.` });
  if (packages.length) patterns.push({ group: packages, message: `Layer rule: ${why}.` });
  if (typesOnly.length)
    patterns.push({
      regex: through(typesOnly),
      allowTypeImports: true,
      message: `Layer rule: ${why}.`,
    });
  return {
    files: [files],
    ignores,
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': ['error', { patterns }],
    },
  };
}
