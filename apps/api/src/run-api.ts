import type { Db } from '@palimpsest/store/db';
import { migrate } from '@palimpsest/store/migrate';
import { assertPortFree } from './lifecycle/port-check';
import { openDb, openReadReplica, type OpenedReplica } from '@palimpsest/store/open-db';
import { createToken, deleteTokensNamed, listTokens, revokeTokensNamed } from './auth/api-tokens';
import { startApiServer } from './api-server';
import { apiConfigFrom, isLoopback, type ApiConfig, type ApiFlags } from './config/api-config';
import { connectableUrl, GATEWAY_CREDENTIAL_NAME, removeGatewayAddress, writeGatewayAddress } from './lifecycle/gateway-address';
import { policyLine, workspaceRootLine } from './lifecycle/start-report';
import { ignoreLostTerminal, STOP_SIGNALS } from './lifecycle/stop-signals';
import { SCOPES } from './routes/route-table';
import { projectorConfigFrom } from '@palimpsest/projector/projector-config';
import { executorLinkConfigFrom } from './executors/executor-link-config';

export interface RunApiOptions extends ApiFlags {
  /** false with --no-local-token. */
  localToken: boolean;
  version: string;
  storeLabel: string;
}

/** The token `npm start` prints on the embedded store: all scopes, replaced at every start. */
export const LOCAL_TOKEN_NAME = 'local (palimpsest api)';

const say = (line: string) => process.stderr.write(`${line}\n`);

async function localToken(db: Db, config: ApiConfig, opts: RunApiOptions): Promise<string | null> {
  if (!config.auth || !opts.localToken || config.app.store.databaseUrl) return null;
  await revokeTokensNamed(db, LOCAL_TOKEN_NAME);
  return (await createToken(db, { name: LOCAL_TOKEN_NAME, scopes: [...SCOPES] })).token;
}

/**
 * On the embedded store, where no other process can open the data directory, publish where this
 * gateway listens and a credential for the CLI (gateway-address.ts). Returns the unpublish step.
 */
async function publishAddress(db: Db, url: string, workspaceRoot: string | null, config: ApiConfig, version: string): Promise<() => Promise<void>> {
  if (config.app.store.databaseUrl) return async () => undefined;
  await deleteTokensNamed(db, GATEWAY_CREDENTIAL_NAME); // a killed gateway's
  const token = config.auth ? (await createToken(db, { name: GATEWAY_CREDENTIAL_NAME, scopes: [...SCOPES] })).token : null;
  const dataDir = config.app.store.dataDir;
  const address = { pid: process.pid, url: connectableUrl(url), version, token, data_dir: dataDir, workspace_root: workspaceRoot, started_at: new Date().toISOString() };
  writeGatewayAddress(dataDir, address);
  return async () => {
    removeGatewayAddress(dataDir);
    await deleteTokensNamed(db, GATEWAY_CREDENTIAL_NAME);
  };
}

/** Written in one piece, so a reader that waits for "listening on" also has the token line. */
async function banner(db: Db, url: string, workspaceRoot: string | null, policy: string, config: ApiConfig, opts: RunApiOptions, token: string | null, replica: OpenedReplica | null): Promise<void> {
  const lines = [
    `palimpsest api ${opts.version}: store ${opts.storeLabel}`,
    ...(replica ? [replicaLine(replica)] : []),
    `palimpsest api ${workspaceRootLine(workspaceRoot, 'palimpsest api')}`,
    `palimpsest api ${policy}`,
    `palimpsest api listening on ${url}  (OpenAPI ${url}/docs, health ${url}/health, metrics ${url}/metrics)`,
  ];
  if (!config.auth) {
    lines.push('WARNING: authentication is OFF (--no-auth): anyone who can reach this port can read and change every target.');
  } else if (token) {
    lines.push(`local token (all scopes, shown once, replaced at the next start; a lasting one: palimpsest tokens create): ${token}`);
    lines.push(`  try: curl -H "Authorization: Bearer ${token}" ${url}/v1/capabilities`);
  } else if ((await listTokens(db)).every((t) => t.name === GATEWAY_CREDENTIAL_NAME)) {
    lines.push('no active API tokens: create one with `palimpsest tokens create --scopes read,write`');
  }
  say(lines.join('\n'));
}

function replicaLine(replica: OpenedReplica): string {
  const reads = 'search, activity, attempt logs, ledgers and history';
  return replica.unreachable === null
    ? `palimpsest api reads ${reads} from the read replica (PALIMPSEST_READ_REPLICA_URL)`
    : `palimpsest api: the read replica (PALIMPSEST_READ_REPLICA_URL) does not answer (${replica.unreachable}): the primary serves ${reads} until it does`;
}

function nextSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const on = (signal: NodeJS.Signals) => {
      for (const s of STOP_SIGNALS) process.off(s, on);
      // A second signal while draining means "now".
      process.once(signal, () => process.exit(130));
      if (signal === 'SIGHUP') ignoreLostTerminal();
      resolve(signal);
    };
    for (const s of STOP_SIGNALS) process.on(s, on);
  });
}

/** `palimpsest api`: open and migrate the store, serve until SIGINT/SIGTERM/SIGHUP, then drain and close. */
export async function runApi(opts: RunApiOptions): Promise<void> {
  const env = process.env; // read here, once: everything below is handed its part of the configuration
  const config = apiConfigFrom(env, opts);
  const executors = executorLinkConfigFrom(env); // a bad heartbeat setting refuses to start, like the rest
  const policy = policyLine(config.app.candidates.policyFile); // an unreadable policy file refuses to start here, before anything listens
  if (!config.auth && !isLoopback(config.host)) {
    throw new Error(`--no-auth is for local development: it is refused on ${config.host}; use a loopback host or tokens`);
  }
  await assertPortFree(config.host, config.port);
  const stop = nextSignal(); // listening before start-up, so an early signal still shuts down cleanly
  const db = await openDb({}, config.app.store);
  let replica: OpenedReplica | null = null;
  try {
    await migrate(db);
    replica = await openReadReplica(config.app.store);
    const token = await localToken(db, config, opts);
    const api = await startApiServer(db, config, opts.version, projectorConfigFrom(env), executors, replica ?? undefined);
    const unpublish = await publishAddress(db, api.url, api.workspaceRoot, config, opts.version);
    await banner(db, api.url, api.workspaceRoot, policy, config, opts, token, replica);
    const signal = await stop;
    say(`palimpsest api: ${signal}: finishing in-flight requests (up to ${config.shutdownGraceMs} ms)`);
    await unpublish(); // new CLI commands wait for the lock instead of reaching a gateway that is going away
    const { drained } = await api.close();
    say(drained ? 'palimpsest api: stopped' : 'palimpsest api: stopped; requests still running at the deadline were cut off');
  } finally {
    await replica?.db.close();
    await db.close();
  }
}
