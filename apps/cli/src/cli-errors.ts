/**
 * The CLI's exit codes: 0 done, 1 the work failed (a divergent replay, the store unreachable), 2 the
 * request itself was wrong (an unknown id, a bad option value, invalid arguments) — nothing was done.
 */
export class UsageError extends Error {
  readonly exitCode = 2;
}

/** The package version, one place (the gateway's banner and `palimpsest --version`). */
export const VERSION = '0.1.0';

/** What `--help` adds after the command list. */
export const HELP_FOOTER = `
Environment:
  DATABASE_URL                 PostgreSQL connection string; unset: embedded PGlite
  PALIMPSEST_DATA_DIR          the embedded store's data directory (default ./.palimpsest/data);
                               while \`palimpsest api\` holds it, store commands go through that gateway
  PORT, HOST                   where \`palimpsest api\` listens (default 127.0.0.1:3000)
  LOG_LEVEL                    gateway log level (default info)
  PALIMPSEST_POLICY_FILE       owner policy profiles and command checks (YAML or JSON)
  PALIMPSEST_WORKSPACE_ROOT    an absolute directory whose files agents work on (api and mcp: --workspace <dir> wins)
  PALIMPSEST_PG_*_MS           PostgreSQL timeouts (README: "When the database misbehaves")
  PALIMPSEST_PGLITE_SHARED_BUFFERS  the embedded store's shared_buffers (default 32MB)
  PALIMPSEST_PGLITE_IMAGE      off: a fresh data directory runs initdb instead of copying the prepared image
  PALIMPSEST_PGLITE_WASM       baseline (default: less memory) or optimized: the tier V8 compiles the embedded PostgreSQL at
  PALIMPSEST_MCP_STATELESS     1: /mcp without sessions (load-balanced gateways); PALIMPSEST_MCP_* in the README
  PALIMPSEST_CORRELATION_ID    the client session a call, serve or mcp process records its edits and runs under

Examples:
  palimpsest tour                                         a guided guarded edit
  palimpsest api                                          the HTTP gateway (prints a local token), MCP at /mcp
  palimpsest mcp --workspace . --profile files            MCP over stdio on this directory's files (relayed to a running gateway)
  echo '{"filename":"a.md","content":"hi\\n"}' | palimpsest call palimpsest_initialize_target
  palimpsest replay <target_file_id>                      verify a target against its events
  palimpsest tokens create --scopes read,write --json
`;
