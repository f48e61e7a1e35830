// The floors of the code and who may lean on whom, checked in CI (`npm run lint:deps`):
// no import circles; the platform and the database layer know no feature; a feature, and the
// composition root (app.ts, services.ts, the CLI), reach another feature only through its front
// door, features/<name>/index.ts. Type-only imports count: they are dependencies too.
// Tests build the whole app to try a layer through it: the floors are the production code's.
const TESTS = '\\.test\\.tsx?$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import circle: two modules that cannot be understood (or loaded) one before the other.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'platform-knows-no-feature',
      severity: 'error',
      comment: 'src/platform/ is what every feature stands on: it imports no feature, nor the app that lists them.',
      from: { path: '^src/platform/', pathNot: TESTS },
      to: { path: '^src/(features|cli)/|^src/(app|services|maintenance|server|cluster|cli)\\.ts$' },
    },
    {
      name: 'db-is-the-floor',
      severity: 'error',
      comment: 'src/db/ (the databases, schema, migrations) imports nothing above it.',
      from: { path: '^src/db/', pathNot: TESTS },
      to: { path: '^src/(platform|features|cli)/|^src/(app|services|maintenance|server|cluster|cli)\\.ts$' },
    },
    {
      name: 'feature-front-door',
      severity: 'error',
      comment: "A feature reaches another only through its front door (index.ts), never its internals.",
      from: { path: '^src/features/([^/]+)/', pathNot: TESTS },
      to: { path: '^src/features/', pathNot: ['^src/features/$1/', '^src/features/[^/]+/index\\.ts$'] },
    },
    {
      name: 'composition-root-front-door',
      severity: 'error',
      comment: 'app.ts, services.ts, maintenance.ts and the CLI reach features through their front doors too.',
      from: { path: '^src/(cli/|(app|services|maintenance|server|cluster|cli)\\.ts$)', pathNot: TESTS },
      to: { path: '^src/features/', pathNot: '^src/features/[^/]+/index\\.ts$' },
    },
    {
      name: 'no-tests-in-production',
      severity: 'error',
      comment: 'Production code never imports test code.',
      from: { path: '^src/', pathNot: TESTS },
      to: { path: ['^test/', TESTS] },
    },
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
  },
};
