import { randomUUID } from 'node:crypto';
import { CORRELATION_ID_ENV, isCorrelationId } from '@palimpsest/protocol/catalog/operations/audit.operations';
import { UsageError } from './cli-errors';

/**
 * The client session a CLI process speaks for: PALIMPSEST_CORRELATION_ID when the caller names one (a
 * script that runs several `palimpsest call`s as one session sets it once), else a fresh id for this
 * invocation. Its edits and command runs record it; palimpsest_session_activity reads them back.
 */
export function cliCorrelationId(env: NodeJS.ProcessEnv = process.env): string {
  const given = env[CORRELATION_ID_ENV];
  if (given === undefined || given === '') return randomUUID();
  if (!isCorrelationId(given)) throw new UsageError(`${CORRELATION_ID_ENV} must be 1 to 128 of A-Z a-z 0-9 . _ : -`);
  return given;
}

/** Tells the caller the id on stderr (stdout carries the answer only). */
export function reportCorrelationId(command: string, id: string): void {
  process.stderr.write(`palimpsest ${command}: correlation id ${id}\n`);
}
