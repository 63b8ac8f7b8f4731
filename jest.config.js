const os = require('node:os');

/** One Jest config; the same suite runs on PGlite (default) and on PostgreSQL (DATABASE_URL). */
const swc = ['@swc/jest', {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
  },
  module: { type: 'commonjs' },
}];
const moduleNameMapper = {
  '^@palimpsest/(core|store|projections|protocol|application|workspace|structure|testing|composition)/(.*)$': '<rootDir>/libs/$1/src/$2',
  '^@palimpsest/mcp/(.*)$': '<rootDir>/apps/mcp/src/$1',
  '^@palimpsest/api/(.*)$': '<rootDir>/apps/api/src/$1',
  '^@palimpsest/projector/(.*)$': '<rootDir>/apps/projector/src/$1',
};
// The Markdown parser's family (micromark, mdast, unist) ships ESM only: Jest's module system needs it
// compiled to CommonJS (the built CLI loads it with Node's own require of ESM).
const ESM_PACKAGES = [
  'ccount', 'character-entities', 'escape-string-regexp', 'decode-named-character-reference', 'devlop', 'longest-streak', 'markdown-table',
  'mdast-util-[^/]+', 'micromark[^/]*', 'unist-util-[^/]+', 'zwitch',
];
const transformIgnorePatterns = [`/node_modules/(?!(${ESM_PACKAGES.join('|')})/)`];
const common = { transform: { '^.+\\.ts$': swc, '/node_modules/.+\\.js$': swc }, transformIgnorePatterns, moduleNameMapper, testEnvironment: 'node' };
// A suite runs on the backends it can reach. Specs of the PostgreSQL adapter itself (lost sessions, stalled
// networks) belong to the PostgreSQL run only. These suites pin every process they start to an embedded
// data directory (DATABASE_URL=''), whatever the run's DATABASE_URL: with it set they would repeat the
// embedded run on PGlite, so they belong to the embedded run only.
// cli-no-store: its processes answer before they open a store (and it checks they created none).
const EMBEDDED_ONLY = [
  'cli-no-store', 'cli-through-gateway', 'first-start', 'install-from-tarball', 'mcp-through-gateway', 'pglite-wasm-tier', 'reserved-paths-agent',
  'stop-on-hangup', 'workspace-root-relay', 'workspace-status-gateway',
].map((name) => `/test/e2e/${name}\\.e2e\\.spec\\.ts$`);
// These int suites reach no database (parsers, the workspace's files, the command gate, processes), or
// PGlite only (the prepared image, the data directory lock), whatever DATABASE_URL says: they too belong to the embedded run only
// (test/no-database-int-suites.unit.spec.ts holds each to it).
const NO_DATABASE = require('./test/support/no-database-int-suites.json').map((path) => `/${path.replace(/\./g, '\\.')}$`);
const onlyOnBackend = process.env.DATABASE_URL ? [...EMBEDDED_ONLY, ...NO_DATABASE] : ['/libs/store/src/postgres/', '/test/e2e/postgres/'];
module.exports = {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs,test,clients}/**/*.unit.spec.ts'] },
    { ...common, displayName: 'int', testMatch: ['<rootDir>/{apps,libs,test}/**/*.int.spec.ts'], testPathIgnorePatterns: ['/node_modules/', ...onlyOnBackend] },
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/{apps,libs,test}/**/*.e2e.spec.ts'], testPathIgnorePatterns: ['/node_modules/', ...onlyOnBackend] },
  ],
  testTimeout: 60000,
  // e2e suites first, then int, then unit (Jest's own order once it has every suite's duration).
  testSequencer: '<rootDir>/test/support/heavy-first.sequencer.js',
  // Jest's default is one worker per core but one; most e2e time is spent waiting on child processes, so
  // two workers share two cores well (the suite's wall time falls by about half there).
  maxWorkers: Math.max(2, os.availableParallelism() - 1),
};
