import type { NextAction } from '@palimpsest/core/errors/error-model';
import { OP } from '@palimpsest/core/errors/operation-names.generated';
import { recentSessions, sessionEntries, type SessionEntryRow } from '@palimpsest/projections/command-runs/session-activity.queries';
import type { Admitted, Success } from '@palimpsest/protocol/catalog/operation-types';
import { AUDIT_LIMITS } from '@palimpsest/protocol/catalog/operations/audit.operations';
import type { AppContext } from '../app-context';
import { toIso } from '../shared/sql-values';

/**
 * The audit reads of client sessions (palimpsest_list_sessions, palimpsest_session_activity): what one
 * session's edits and command runs were, in log order, read from the log itself (no read model: the
 * events are the record), so an answer is never behind the writes it reports.
 */

type Entry = Success<typeof OP.palimpsest_session_activity>['entries'][number];
type RunStatus = Extract<Entry['status'], 'exited' | 'refused' | 'killed' | 'running' | 'awaiting_approval' | 'requested'>;

const RUN_STATES: Record<string, RunStatus> = {
  CommandExited: 'exited',
  CommandRefused: 'refused',
  CommandKilled: 'killed',
  CommandStarted: 'running',
  CommandInputSent: 'running',
  CommandApprovalRequested: 'awaiting_approval',
  CommandApproved: 'requested',
};

function entryOf(r: SessionEntryRow): Entry {
  const common = { position: Number(r.position), tool: r.tool, recorded_at: toIso(r.recorded_at) };
  if (r.run_id !== null) {
    const status = RUN_STATES[r.run_state ?? ''] ?? 'requested';
    const reason = r.refusal_code === null ? null : `${r.refusal_code}: ${r.refusal_reason ?? ''}`.trimEnd();
    return {
      ...common, kind: 'command', what: r.command ?? '', path: null, target_file_id: null, attempt_id: null, run_id: r.run_id,
      status, version: null, exit_code: r.exit_code, signal: r.signal, reason, duration_ms: r.duration_ms, ended_at: toIso(r.ended_at),
    };
  }
  const accepted = r.event_type === 'ProposalAccepted';
  return {
    ...common, kind: 'edit', what: r.intent ?? '', path: r.path, target_file_id: r.target_id, attempt_id: r.attempt_id, run_id: null,
    status: accepted ? 'accepted' : 'rejected', version: accepted ? r.after_version : null, exit_code: null, signal: null,
    reason: accepted ? null : r.failure_reason, duration_ms: null, ended_at: null,
  };
}

/** palimpsest_session_activity: one page of a session's entries, and the call that reads the next. */
export async function sessionActivity(ctx: AppContext, input: Admitted<typeof OP.palimpsest_session_activity>) {
  const limit = input.limit ?? AUDIT_LIMITS.SESSION_ACTIVITY_DEFAULT_LIMIT;
  const rows = await sessionEntries(ctx.db, { correlationId: input.correlation_id, afterPosition: input.after_position ?? 0, limit });
  const entries = rows.slice(0, limit).map(entryOf);
  const next = rows.length > limit ? entries[entries.length - 1].position : null;
  const nextActions: NextAction<typeof OP.palimpsest_session_activity>[] =
    next === null ? [] : [{ operation: OP.palimpsest_session_activity, reason: 'The session has more entries.', params: { correlation_id: input.correlation_id, after_position: next, limit } }];
  return {
    status: 'ok' as const,
    correlation_id: input.correlation_id,
    entries,
    next_after_position: next,
    ...(nextActions.length ? { next_actions: nextActions } : {}),
  };
}

/** palimpsest_list_sessions: the most recently active sessions, and the calls that read on. */
export async function listSessions(ctx: AppContext, input: Admitted<typeof OP.palimpsest_list_sessions>) {
  const limit = input.limit ?? AUDIT_LIMITS.SESSIONS_DEFAULT_LIMIT;
  const rows = await recentSessions(ctx.db, { beforePosition: input.before_position ?? null, limit });
  const sessions = rows.slice(0, limit).map((r) => ({
    correlation_id: r.correlation_id,
    edits: r.edits,
    command_runs: r.command_runs,
    first_at: toIso(r.first_at),
    last_at: toIso(r.last_at),
    first_position: Number(r.first_position),
    last_position: Number(r.last_position),
  }));
  const next = rows.length > limit ? sessions[sessions.length - 1].last_position : null;
  const nextActions: NextAction<typeof OP.palimpsest_session_activity | typeof OP.palimpsest_list_sessions>[] = [];
  if (sessions.length) nextActions.push({ operation: OP.palimpsest_session_activity, reason: 'What the most recent session did.', params: { correlation_id: sessions[0].correlation_id } });
  if (next !== null) nextActions.push({ operation: OP.palimpsest_list_sessions, reason: 'More sessions, less recently active.', params: { before_position: next, limit } });
  return { status: 'ok' as const, sessions, next_before_position: next, ...(nextActions.length ? { next_actions: nextActions } : {}) };
}
