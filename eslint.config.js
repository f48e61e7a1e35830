import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'public/vendor/', 'coverage/', 'data/', 'docs/screenshots/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
      'no-console': 'off',
    },
  },
  {
    // Migrations are frozen in time and typed Kysely<any> on purpose (STYLE.md habit 6).
    files: ['src/db/migrations/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['public/js/**/*.js'],
    languageOptions: { globals: { window: 'readonly', document: 'readonly', WebSocket: 'readonly', fetch: 'readonly', console: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', location: 'readonly', URL: 'readonly', URLSearchParams: 'readonly', FormData: 'readonly', DOMParser: 'readonly', CSS: 'readonly', HTMLFormElement: 'readonly', Element: 'readonly', queueMicrotask: 'readonly' } },
  },
  {
    files: ['src/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly' } },
  },
  {
    files: ['.dependency-cruiser.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable' } },
  },
  {
    files: ['scripts/**/*.mjs'],
    languageOptions: { globals: { console: 'readonly', process: 'readonly', URL: 'readonly' } },
  },
);
