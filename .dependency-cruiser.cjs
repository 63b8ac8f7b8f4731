/** Architecture rules: the core stays pure, dependencies point inward, no cycles. */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'Import cycles make initialization order fragile.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-is-pure',
      severity: 'error',
      comment: 'libs/core has no Nest, no database drivers and no I/O (node:crypto hashing only).',
      from: { path: '^libs/core/src' },
      to: {
        path: '(^node_modules/(@nestjs|pg|pg-listen|@electric-sql|pino|commander|ajv)|^libs/(store|projections|protocol|application|workspace|structure)/)',
      },
    },
    {
      name: 'core-no-node-io',
      severity: 'error',
      comment: 'Only node:crypto is allowed in libs/core.',
      from: { path: '^libs/core/src', pathNot: '\\.spec\\.ts$' },
      to: { dependencyTypes: ['core'], pathNot: '^(node:)?crypto$' },
    },
    {
      name: 'libs-do-not-import-apps',
      severity: 'error',
      from: { path: '^libs/' },
      to: { path: '^apps/' },
    },
    {
      name: 'store-below-domain-services',
      severity: 'error',
      comment: 'The store knows nothing of projections, protocol or application.',
      from: { path: '^libs/store/src' },
      to: { path: '^libs/(projections|protocol|application)/' },
    },
    {
      name: 'store-knows-nothing-of-the-workspace',
      severity: 'error',
      comment:
        'The lease port and the kept-path shape the store implements are libs/core\'s (core/src/workspace); the workspace adapter is not the store\'s to import.',
      from: { path: '^libs/store/src', pathNot: '(\\.spec\\.ts$|/test-support/)' },
      to: { path: '^libs/workspace/' },
    },
    {
      name: 'store-internals-private',
      severity: 'error',
      comment: 'How appends become statement text (slots, CTE names, parameter numbering) is the store\'s alone.',
      from: { pathNot: '^libs/store/src' },
      to: { path: '^libs/store/src/internal/' },
    },
    {
      name: 'application-does-not-write-sql',
      severity: 'error',
      comment:
        'Use cases decide; appends and their projections are built in libs/projections and run by the store (the unit of work). No SQL text either: no-sql.unit.spec.ts.',
      from: { path: '^libs/application/src', pathNot: '(\\.spec\\.ts$|/test-support/)' },
      to: { path: '^libs/(store/src/(append-to-stream|append-guarded-batch|append-spec|internal/)|projections/src/sql-params)' },
    },
    {
      name: 'gateways-use-the-store-for-their-own-concerns',
      severity: 'error',
      comment:
        'Transports open, migrate, observe, listen to and stream from the store; they never write events or read models themselves, nor query them: that goes through dispatch.',
      from: { path: '^apps/', pathNot: '\\.spec\\.ts$' },
      to: { path: '^libs/(store/src/(append-to-stream|append-guarded-batch|append-spec|internal/)|projections/src/(target-append|inline-projections|.*\\.queries))' },
    },
    {
      name: 'workspace-is-a-filesystem-adapter',
      comment:
        'libs/workspace does file IO under the workspace root for the rules of libs/core; it knows nothing of the database, the catalog or the use cases.',
      severity: 'error',
      from: { path: '^libs/workspace/src' },
      to: { path: '^libs/(store|projections|protocol|application)/' },
    },
    {
      name: 'structure-is-a-parser-adapter',
      comment:
        'libs/structure runs the pinned parsers behind the port of libs/core (core/src/structure); it knows nothing of the database, the catalog, the use cases or the workspace.',
      severity: 'error',
      from: { path: '^libs/structure/src' },
      to: { path: '^libs/(store|projections|protocol|application|workspace)/' },
    },
    {
      name: 'application-is-handed-its-adapters',
      severity: 'error',
      comment:
        'Use cases see ports (AppContext); the composition roots fill them (libs/composition, apps/*). So no use case pulls in the parsers, the workspace lease adapters or the configuration parsing.',
      from: { path: '^libs/application/src', pathNot: '(\\.spec\\.ts$|/test-support/)' },
      to: { path: '^libs/(composition|structure)/' },
    },
    {
      name: 'composition-is-for-roots',
      severity: 'error',
      comment: 'libs/composition builds the app context from the configuration: only the roots (apps/*), benchmarks and tests use it.',
      from: { path: '^libs/(core|store|projections|protocol|application|workspace|structure|testing)/src', pathNot: '(\\.spec\\.ts$|/test-support/)' },
      to: { path: '^libs/composition/' },
    },
    {
      name: 'testing-hooks-are-a-leaf',
      severity: 'error',
      comment: 'libs/testing holds the hooks production code calls for the crash tests (inert unless a root arms them); it depends on nothing of ours, so the store, the workspace and the consumers may all call it.',
      from: { path: '^libs/testing/src', pathNot: '\\.spec\\.ts$' },
      to: { path: '^(libs|apps)/' },
    },
    {
      name: 'protocol-is-contract-only',
      severity: 'error',
      comment: 'The catalog describes operations; it does not call handlers or the database.',
      from: { path: '^libs/protocol/src' },
      to: { path: '^libs/(store|projections|application)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^dist/|node_modules)' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
