import { progressIntervalFrom } from '@palimpsest/mcp/mcp-server/progress-interval';
import { responseModeFrom, type ResponseMode } from '@palimpsest/mcp/mcp-server/response-mode';
import { readConfig, type PalimpsestConfig } from '@palimpsest/composition/palimpsest-config';
import { lagThresholdFrom } from '@palimpsest/application/queries/projector-status.handler';
import { projectorEnabled } from '@palimpsest/projector/projector-config';

/** Everything the gateway reads from its environment, parsed and checked once at start-up. */
export interface ApiConfig {
  port: number;
  host: string;
  /** false only with --no-auth (local development). */
  auth: boolean;
  /** Largest JSON body accepted, in bytes (413 above it). */
  bodyLimitBytes: number;
  /** Operations running at once; more wait in a bounded queue, and past it the answer is 429. */
  maxConcurrency: number;
  maxQueue: number;
  queueTimeoutMs: number;
  sseHeartbeatMs: number;
  sseMaxStreams: number;
  /** How long shutdown waits for in-flight requests before closing their connections. */
  shutdownGraceMs: number;
  logLevel: string;
  /** json: one JSON object a line (LOG_FORMAT=json, or stdout is not a terminal); pretty: short lines for a person. */
  logFormat: 'json' | 'pretty';
  /** How long a verified token is trusted without a database lookup (revocation also evicts it at once). */
  tokenCacheMs: number;
  /**
   * Browser origins allowed to call the API cross-origin (PALIMPSEST_CORS_ORIGINS, comma-separated,
   * e.g. `https://app.example.com,http://localhost:5173`). Empty, the default: CORS is off, and
   * browsers keep pages of other origins from reading any answer.
   */
  corsOrigins: string[];
  mcp: McpHttpConfig;
  /** Run the projector in-process (PALIMPSEST_PROJECTOR=off: another process runs it, or nobody). */
  projector: boolean;
  /** /health reports degraded when a consumer lags by more than this (PALIMPSEST_PROJECTION_LAG_DEGRADED_S). */
  projectionLagDegradedS: number;
  /** How MCP tool results are rendered (PALIMPSEST_MCP_RESPONSE_MODE). */
  mcpResponseMode: ResponseMode;
  /** The configuration the app context and the store are built from (palimpsest-config.ts). */
  app: PalimpsestConfig;
}

/** MCP over Streamable HTTP at /mcp (apps/api/src/mcp). */
export interface McpHttpConfig {
  /** PALIMPSEST_MCP_STATELESS=1: no sessions; every POST gets a fresh server, GET and DELETE answer 405. */
  stateless: boolean;
  /** A session nobody used (no request, no open stream) for this long is closed (PALIMPSEST_MCP_SESSION_IDLE_MS). */
  sessionIdleMs: number;
  /** Sessions open at once; initializing one more answers 429 (PALIMPSEST_MCP_MAX_SESSIONS). */
  maxSessions: number;
  /** Milliseconds between notifications/progress while a call waits (PALIMPSEST_MCP_PROGRESS_MS). */
  progressMs: number;
}

/**
 * The replacement bound is 1,048,576 UTF-8 bytes of text; JSON escaping can double that (quotes,
 * backslashes, newlines), so the body bound leaves room for a maximal valid replacement and the
 * handler's own replacement_too_large answer stays reachable.
 */
export const DEFAULT_BODY_LIMIT = 4 * 1024 * 1024;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min) {
    throw new RangeError(`${name} must be an integer >= ${min}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

/** Each entry must be exactly an origin: scheme, host and optional port, nothing else (no path, no `*`). */
export function corsOriginsFrom(raw: string | undefined): string[] {
  const entries = (raw ?? '').split(',').map((entry) => entry.trim()).filter(Boolean);
  for (const entry of entries) {
    let origin: string | null = null;
    try {
      origin = new URL(entry).origin;
    } catch {
      // not a URL at all
    }
    if (origin !== entry || !/^https?:/.test(entry)) {
      throw new RangeError(`PALIMPSEST_CORS_ORIGINS: ${JSON.stringify(entry)} is not an origin (scheme://host[:port], e.g. https://app.example.com)`);
    }
  }
  return [...new Set(entries)];
}

export interface ApiFlags {
  port?: string;
  host?: string;
  auth?: boolean;
  /** An `api --mcp-stateless` flag; wins over PALIMPSEST_MCP_STATELESS. */
  mcpStateless?: boolean;
}

function flagFrom(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '' || raw === '0' || raw === 'false') return false;
  if (raw === '1' || raw === 'true') return true;
  throw new RangeError(`${name} must be 1 or 0 (true or false), got ${JSON.stringify(raw)}`);
}

function logFormatFrom(env: NodeJS.ProcessEnv, tty: boolean): 'json' | 'pretty' {
  const raw = env.LOG_FORMAT;
  if (raw === undefined || raw === '') return tty ? 'pretty' : 'json';
  if (raw !== 'json' && raw !== 'pretty') throw new RangeError(`LOG_FORMAT must be json or pretty, got ${JSON.stringify(raw)}`);
  return raw;
}

export function apiConfigFrom(env: NodeJS.ProcessEnv, flags: ApiFlags = {}, stdoutIsTty = process.stdout.isTTY === true, cwd = process.cwd()): ApiConfig {
  const port = flags.port !== undefined ? int({ PORT: flags.port }, 'PORT', 3000, 0) : int(env, 'PORT', 3000, 0);
  if (port > 65535) throw new RangeError(`port must be at most 65535, got ${port}`);
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new RangeError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  return {
    port,
    host: flags.host ?? (env.HOST || '127.0.0.1'),
    auth: flags.auth !== false,
    bodyLimitBytes: int(env, 'PALIMPSEST_API_BODY_LIMIT', DEFAULT_BODY_LIMIT, 1024),
    maxConcurrency: int(env, 'PALIMPSEST_API_MAX_CONCURRENCY', 64, 1),
    maxQueue: int(env, 'PALIMPSEST_API_MAX_QUEUE', 1024, 0),
    queueTimeoutMs: int(env, 'PALIMPSEST_API_QUEUE_TIMEOUT_MS', 10_000, 1),
    sseHeartbeatMs: int(env, 'PALIMPSEST_API_SSE_HEARTBEAT_MS', 15_000, 100),
    sseMaxStreams: int(env, 'PALIMPSEST_API_SSE_MAX_STREAMS', 1000, 1),
    shutdownGraceMs: int(env, 'PALIMPSEST_API_SHUTDOWN_GRACE_MS', 10_000, 0),
    logLevel,
    logFormat: logFormatFrom(env, stdoutIsTty),
    tokenCacheMs: int(env, 'PALIMPSEST_API_TOKEN_CACHE_MS', 30_000, 0),
    corsOrigins: corsOriginsFrom(env.PALIMPSEST_CORS_ORIGINS),
    mcp: {
      stateless: flags.mcpStateless ?? flagFrom(env, 'PALIMPSEST_MCP_STATELESS'),
      sessionIdleMs: int(env, 'PALIMPSEST_MCP_SESSION_IDLE_MS', 30 * 60_000, 100),
      maxSessions: int(env, 'PALIMPSEST_MCP_MAX_SESSIONS', 256, 1),
      progressMs: progressIntervalFrom(env),
    },
    projector: projectorEnabled(env),
    projectionLagDegradedS: lagThresholdFrom(env),
    mcpResponseMode: responseModeFrom(env),
    app: readConfig(env, cwd),
  };
}

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
