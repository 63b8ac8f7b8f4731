import type { AppliedTarget, CandidateEvent } from '@palimpsest/core/candidate/candidate.events';
import { refusal, type Refusal } from '@palimpsest/core/candidate/candidate-refusal';
import { commitCandidateEvents } from '../shared/candidate-store';
import type { TargetRow } from '@palimpsest/projections/content/target-row.queries';
import { loadJournal } from '@palimpsest/projections/publications/publication-append';
import { workspaceFileOf } from '@palimpsest/projections/workspace-files.queries';
import type { Sql } from '@palimpsest/store/db';
import type { AppContext } from '../../app-context';
import { fileBytesOf } from '../../workspace-publication/file-bytes';
import type { FileToPublish } from '../../workspace-publication/publication-files';
import { publishFiles } from '../../workspace-publication/publish-files';
import { acceptedOf, applyArgs, applyMetadata, recordDecision, type AcceptedApply, type ApplyInput, type ApplyStep, type LockedApply } from './apply-decision';
import { applyPublicationRefusal } from './apply-publication-answer';
import { bindingsOfCreated, fileToCreate, type FileToCreate } from './created-files';
import { appliedRecord } from './receipt';
import { resultText, writeTargets } from './target-writes';
import { OP } from '@palimpsest/core/errors/operation-names.generated';

/**
 * An apply whose written targets include files of the workspace: every bound file is published through
 * one journal (workspace-publication/publish-files.ts, kind 'apply', each replaced file backed up until
 * the journal commits). The result texts are computed before the journal; in the outcome transaction the
 * apply is decided again under its locks and must be the same apply (same targets, versions and result
 * hashes), or nothing is installed. The targets and CandidateApplied commit with PublicationCompleted.
 * A caller that created a target for a new file names it in `creates` (created-files.ts).
 */

export interface PublicationPlan {
  kind: 'publish';
  files: FileToPublish[];
  /** The apply the files were computed for: the outcome transaction must decide exactly this one. */
  targets: Pick<AppliedTarget, 'target_id' | 'base_version' | 'result_version' | 'result_hash'>[];
}

/** Null when no written target is bound to a file of the configured workspace (the one-transaction apply). */
export async function publicationPlan(ctx: AppContext, sql: Sql, a: AcceptedApply, locked: Map<string, TargetRow>, creates: readonly FileToCreate[] = []): Promise<PublicationPlan | { kind: 'refused'; refusal: Refusal } | null> {
  const root = ctx.workspace;
  if (!root) return null;
  const files: FileToPublish[] = [];
  for (const t of a.applied.targets) {
    const binding = await workspaceFileOf(sql, t.target_id);
    const created = binding ? undefined : creates.find((c) => c.target_id === t.target_id);
    if (created) files.push(fileToCreate(created, t));
    if (!binding) continue;
    if (binding.root_dev !== root.dev || binding.root_ino !== root.ino) {
      return { kind: 'refused', refusal: refusal('permission_denied', 'root_not_allowed', `Target ${t.target_id} is bound to ${binding.path} under another workspace root (${binding.root_dev}:${binding.root_ino}) than the configured one (${root.dev}:${root.ino}); nothing was written.`, {
        target: { candidate: a.candidate.candidate_id },
        details: { target_file_id: t.target_id, path: binding.path, bound_root: { dev: binding.root_dev, ino: binding.root_ino }, configured_root: { dev: root.dev, ino: root.ino } },
      }) };
    }
    const row = locked.get(t.target_id) as TargetRow;
    const { bytes, content_eol } = fileBytesOf(resultText(a.candidate, a.applied, t, row), row.source_line_endings, binding.source_line_ending_style);
    files.push({ target_id: t.target_id, path: binding.path, target_version: t.result_version, bytes, content_eol, replaced_sha256: binding.disk_sha256, backup: true });
  }
  if (files.length === 0) return null;
  const targets = a.applied.targets.map(({ target_id, base_version, result_version, result_hash }) => ({ target_id, base_version, result_version, result_hash }));
  return { kind: 'publish', files, targets };
}

const sameApply = (plan: PublicationPlan, a: AcceptedApply | null): a is AcceptedApply =>
  a !== null &&
  a.applied.targets.length === plan.targets.length &&
  a.applied.targets.every((t, i) => {
    const p = plan.targets[i];
    return p.target_id === t.target_id && p.base_version === t.base_version && p.result_version === t.result_version && p.result_hash === t.result_hash;
  });

type Outcome = { kind: 'step'; step: ApplyStep } | { kind: 'applied'; event: CandidateEvent; observed: LockedApply['observed'] };

export async function publishApply(ctx: AppContext, input: ApplyInput, plan: PublicationPlan, decideAgain: (tx: Sql) => Promise<LockedApply>, creates: readonly FileToCreate[] = []): Promise<ApplyStep> {
  const candidate = input.candidate.toLowerCase();
  const result = await publishFiles<Outcome>(ctx, {
    kind: 'apply',
    request_id: input.request_id,
    candidate_id: candidate,
    files: plan.files,
    outcome: async (tx, commit) => {
      const at = await decideAgain(tx);
      const accepted = acceptedOf(at);
      if (!sameApply(plan, accepted)) {
        // Decided otherwise under the locks (replayed, refused, moved): that decision is recorded and answered, no file is installed.
        if (accepted) return { go: false, answer: { kind: 'step', step: diverged(input) }, detail: `candidate ${candidate} no longer applies as planned` };
        return { go: false, answer: { kind: 'step', step: await recordDecision(tx, commit, at, input) }, detail: `candidate ${candidate} was decided again: ${at.d.kind}` };
      }
      return {
        go: true,
        finish: async (_installed, identities) => {
          const created = creates.flatMap((c) => {
            const i = plan.files.findIndex((f) => f.target_id === c.target_id && f.replaced_sha256 === null);
            return i < 0 ? [] : [{ ...c, identity: identities[i]! }];
          });
          await writeTargets(commit, accepted.candidate, accepted.applied, at.locked, bindingsOfCreated(ctx.workspace, created, at.now, ctx.workspacePublish), input.session_id);
          const events = at.d.kind === 'accepted' ? at.d.events : [];
          await commitCandidateEvents(tx, at.id, at.loaded, events, at.now, applyMetadata(input, { request_id: input.request_id }));
          return { kind: 'applied', event: events[0], observed: at.observed };
        },
      };
    },
  });
  if (result.kind === 'published') {
    const value = result.value;
    if (value.kind !== 'applied') return value.step;
    return { kind: 'applied', record: await ctx.db.transaction((tx) => appliedRecord(tx, value.event, false, value.observed)) };
  }
  if (result.kind === 'stopped') return result.answer.kind === 'step' ? result.answer.step : diverged(input);
  const failure = result.kind === 'pending' ? { ...result, journals: await unknownFilesOf(ctx, result.journals) } : result;
  return { kind: 'refused', refusal: applyPublicationRefusal(failure, input, plan.files) };
}

/** Of each pending journal, the files recovery could not tell (neither version): the ones a person must look at. */
async function unknownFilesOf(ctx: AppContext, journals: { journal_id: string; paths: string[] }[]): Promise<{ journal_id: string; paths: string[] }[]> {
  return ctx.db.transaction(async (tx) => {
    const out = [];
    for (const j of journals) {
      const loaded = (await loadJournal(tx, j.journal_id)).state;
      const unknown = loaded.exists ? loaded.failed.filter((f) => f.outcome === 'unknown').map((f) => f.path) : [];
      out.push({ journal_id: j.journal_id, paths: unknown.length ? unknown : j.paths });
    }
    return out;
  });
}

/** The same request decided a different apply between the plan and the lock (it cannot, for one candidate version): resend it. */
function diverged(input: ApplyInput): ApplyStep {
  const r = refusal('internal', 'apply_diverged', `Candidate ${input.candidate} decided differently under its locks than when its files were prepared; nothing was written. Send the same request again.`, {
    target: { candidate: input.candidate, request_id: input.request_id },
    next_actions: [{ operation: OP.palimpsest_change_apply, reason: 'Send the same request again, with the same request_id', params: applyArgs(input) }],
  });
  return { kind: 'refused', refusal: r };
}
