import { exportTarget, type ExportFormat } from '@palimpsest/core/reads/export-target';
import { invalidArgument, type InvalidArgument } from '@palimpsest/core/errors/invalid-argument';
import { decide } from '@palimpsest/core/target/target.decider';
import { workspaceFileOf } from '@palimpsest/projections/workspace-files.queries';
import { lockTargetRow, readTargetRow, type TargetRow } from '@palimpsest/projections/content/target-row.queries';
import type { AppContext } from '../app-context';
import { commitDecided } from '../shared/target-pipeline/target-pipeline';
import { refusalAnswer } from '../shared/target-refusals';
import { notFound, targetIdOf } from '../shared/target-lookup';
import { publishFiles } from '../workspace-publication/publish-files';
import { publicationAnswer } from './publication-answer';
import { savedAnswer, type SaveAnswer, type SaveCheckpointInput } from './saved-answer';
import { workspaceNotConfigured } from '../shared/workspace-not-configured';

/**
 * palimpsest_save with sync_workspace: the checkpoint and the publication of the target's text to its
 * bound file, through the journal (workspace-publication/publish-files.ts). The guards are checked
 * before any IO; the checkpoint commits with PublicationCompleted, after the file is installed.
 */

export const WORKSPACE_EOL_FORMATS = ['original_eol', 'canonical_lf', 'crlf'] as const;
export type WorkspaceEolFormat = (typeof WORKSPACE_EOL_FORMATS)[number];

export const SYNC_ON_SAVE_ENV = 'PALIMPSEST_WORKSPACE_SYNC_ON_SAVE';

/** PALIMPSEST_WORKSPACE_SYNC_ON_SAVE: 1, true, yes or on (any case) turn it on; anything else leaves it off. */
export function syncOnSaveFromEnv(env: Readonly<Record<string, string | undefined>>): boolean {
  return ['1', 'true', 'yes', 'on'].includes((env[SYNC_ON_SAVE_ENV] ?? '').trim().toLowerCase());
}

/** sync_workspace: true and false decide; omitted or null follow the setting (`onSave`, read once at start; default false). */
export function syncRequested(value: unknown, onSave: boolean): boolean {
  if (typeof value === 'boolean') return value;
  return onSave;
}

export function eolFormatOf(value: unknown): { format: WorkspaceEolFormat } | { error: InvalidArgument } {
  if (value === undefined || value === null) return { format: 'original_eol' };
  if (typeof value === 'string' && (WORKSPACE_EOL_FORMATS as readonly string[]).includes(value)) return { format: value as WorkspaceEolFormat };
  return {
    error: invalidArgument('unsupported_workspace_eol_format', `workspace_eol_format must be one of ${WORKSPACE_EOL_FORMATS.join(', ')}; got ${JSON.stringify(value)}.`, {
      argument: 'workspace_eol_format',
      allowed_formats: [...WORKSPACE_EOL_FORMATS],
    }),
  };
}

type Prepared = { ok: true; row: TargetRow; path: string; baseline: string; bytes: Buffer; eol: ReturnType<typeof exportTarget> & { ok: true } } | { ok: false; answer: SaveAnswer };

async function prepare(ctx: AppContext, targetId: string, input: SaveCheckpointInput, format: ExportFormat): Promise<Prepared> {
  const root = ctx.workspace;
  if (!root) {
    return { ok: false, answer: workspaceNotConfigured('sync_workspace writes the file under the workspace root', { argument: 'sync_workspace' }) };
  }
  const [row, binding] = await Promise.all([readTargetRow(ctx.db, targetId, ctx.contents), workspaceFileOf(ctx.db, targetId)]);
  if (!row) return { ok: false, answer: notFound(targetId) };
  if (!binding) {
    const detail = `target ${targetId} is not bound to a workspace file: create it with palimpsest_initialize_target and from_workspace to publish it.`;
    return { ok: false, answer: invalidArgument('target_not_bound_to_workspace', detail, { argument: 'sync_workspace' }) };
  }
  if (binding.root_dev !== root.dev || binding.root_ino !== root.ino) {
    const detail = `target ${targetId} is bound to the workspace root ${binding.root_dev}:${binding.root_ino}, and the configured root is ${root.dev}:${root.ino}: a file under another root needs a new target.`;
    return { ok: false, answer: invalidArgument('workspace_root_mismatch', detail, { argument: 'sync_workspace', bound_root: { dev: binding.root_dev, ino: binding.root_ino }, configured_root: { dev: root.dev, ino: root.ino } }) };
  }
  const guards = checkpointDecision(ctx, row, input);
  if (guards.kind === 'refused') return { ok: false, answer: refusalAnswer(guards.refusal) };
  const exported = exportTarget(row.content, { format }, { source_line_endings: row.source_line_endings });
  if (!exported.ok) return { ok: false, answer: { ...exported.error, argument: 'workspace_eol_format' } };
  return { ok: true, row, path: binding.path, baseline: binding.disk_sha256, bytes: Buffer.from(exported.value.content, 'utf8'), eol: exported };
}

/** The SaveCheckpoint command (built here only), decided on `row`. */
export function checkpointDecision(ctx: AppContext, row: TargetRow, input: SaveCheckpointInput, ids?: { snapshotId: string; newCycleId: string }, now = ctx.clock.now()) {
  return decide(
    {
      type: 'SaveCheckpoint',
      now,
      target_id: row.target_id,
      snapshot_id: ids?.snapshotId ?? ctx.ids.next(),
      new_editing_cycle_id: ids?.newCycleId ?? ctx.ids.next(),
      expected_target_version: input.expected_target_version,
      expected_current_hash: input.expected_current_hash,
    },
    row,
  );
}

export async function saveToWorkspace(ctx: AppContext, input: SaveCheckpointInput): Promise<SaveAnswer> {
  const { id: targetId, error } = targetIdOf(input.target_file_id);
  if (error) return error;
  const eol = eolFormatOf(input.workspace_eol_format);
  if ('error' in eol) return eol.error;
  const prepared = await prepare(ctx, targetId, input, eol.format);
  if (!prepared.ok) return prepared.answer;
  const { row, path, bytes } = prepared;
  const ids = { snapshotId: ctx.ids.next(), newCycleId: ctx.ids.next() };
  const result = await publishFiles<SaveAnswer>(ctx, {
    kind: 'save',
    request_id: null,
    candidate_id: null,
    files: [{ target_id: targetId, path, target_version: row.version, bytes, content_eol: prepared.eol.value.content_eol, replaced_sha256: prepared.baseline, backup: false }],
    outcome: async (tx, commit) => {
      const locked = await lockTargetRow(tx, targetId, ctx.contents);
      if (!locked) return { go: false, answer: notFound(targetId), detail: `target ${targetId} is gone` };
      if (locked.version !== row.version) {
        const moved = checkpointDecision(ctx, locked, { ...input, expected_target_version: row.version });
        const answer = moved.kind === 'refused' ? refusalAnswer(moved.refusal) : notFound(targetId);
        return { go: false, answer, detail: `target ${targetId} moved from version ${row.version} to ${locked.version} before its file was installed` };
      }
      return {
        go: true,
        finish: async () => {
          const now = ctx.clock.now();
          const outcome = checkpointDecision(ctx, locked, input, ids, now);
          if (outcome.kind === 'refused') throw new Error(`save: the checkpoint was refused under the lock after its guards held: ${outcome.refusal.kind}`);
          await commitDecided({ commit }, locked, outcome, now, { command: 'SaveCheckpoint', sync_workspace: true });
          return savedAnswer(locked, input, ids);
        },
      };
    },
  });
  return publicationAnswer(result, { targetId, path, input, eol: prepared.eol.value.content_eol });
}
