import { contentLink, LINK_FIELDS, OBSERVED_PROFILE, pickLink, type ObservationLink } from '../transaction/observed-scope';
import { batchContentLinks, OBSERVED_BATCH_PROFILE } from '../transaction/observed-batch';
import { ReplayDivergence } from './target.decider';
import type { ProposalAcceptedData, TargetEvent } from './target.events';
import type { TargetState } from './target.state';

/**
 * Replay's check of observed acceptances, without the structural engine: each one's recorded link must
 * name exactly one observation of the same stream, equal to it field by field, made on the state the
 * acceptance applied to (target, editing cycle, version, hash), and not used before. The scope's bounds
 * and hash against the replay buffer are checked where the record is applied (applyProposal).
 */
export class ObservedReplayEvidence {
  private readonly observations = new Map<string, ObservationLink[]>();
  /** The bundle and ordinal of each observation a BundleObserved made. */
  private readonly bundled = new Map<string, { bundle_id: string; ordinal: number }>();
  private readonly consumed = new Set<string>();

  /** Note an observation event; throws ReplayDivergence when an observed acceptance does not check. */
  check(event: TargetEvent, before: TargetState): void {
    if (event.type === 'ScopeObserved') this.note(event.data);
    if (event.type === 'BundleObserved') {
      for (const scope of event.data.scopes) {
        this.note({ ...event.data, ...scope });
        this.bundled.set(scope.observation_id, { bundle_id: event.data.bundle_id, ordinal: scope.ordinal });
      }
    }
    if (event.type === 'ProposalAccepted' && event.data.runtime_version === OBSERVED_PROFILE.runtime) this.checkAccepted(event.data, before);
    if (event.type === 'ProposalAccepted' && event.data.runtime_version === OBSERVED_BATCH_PROFILE.runtime) this.checkBatch(event.data, before);
  }

  private note(d: ObservationLink): void {
    this.observations.set(d.observation_id, [...(this.observations.get(d.observation_id) ?? []), pickLink(d)]);
  }

  private checkAccepted(data: ProposalAcceptedData, before: TargetState): void {
    const link = contentLink(data.content);
    if (!link) throw divergence(data, 'is missing: the record carries no complete observation link');
    this.checkLink(data, before, link);
    this.consumed.add(link.observation_id);
  }

  /**
   * A batch: every group's link checks as a single one does, is of the record's bundle with the ordinal
   * the bundle gave it, and no observation serves two groups; all are consumed together.
   */
  private checkBatch(data: ProposalAcceptedData, before: TargetState): void {
    const batch = batchContentLinks(data.content);
    if (!batch) throw divergence(data, 'is missing: a group of the record carries no complete batch link');
    const ids = new Set<string>();
    for (const [i, link] of batch.links.entries()) {
      if (ids.has(link.observation_id)) throw divergence(data, `reuses observation ${link.observation_id} in group ${i}`);
      ids.add(link.observation_id);
      this.checkLink(data, before, link);
      const bundled = this.bundled.get(link.observation_id);
      if (!bundled || bundled.bundle_id !== batch.bundle_id || bundled.bundle_id !== link.bundle_id || bundled.ordinal !== link.ordinal) {
        throw divergence(data, `of group ${i} does not map to its observation's bundle and ordinal`);
      }
    }
    for (const id of ids) this.consumed.add(id);
  }

  private checkLink(data: ProposalAcceptedData, before: TargetState, link: ObservationLink): void {
    const fail = (detail: string) => divergence(data, detail);
    const found = this.observations.get(link.observation_id) ?? [];
    if (found.length !== 1) throw fail(`names ${found.length} recorded observations of ${link.observation_id}, not exactly one`);
    const altered = LINK_FIELDS.filter((f) => found[0][f] !== link[f]);
    if (altered.length) throw fail(`differs from the recorded observation in ${altered.join(', ')}`);
    if (this.consumed.has(link.observation_id)) throw fail(`reuses observation ${link.observation_id}`);
    const s = before.exists ? before : null;
    const matches =
      s !== null &&
      link.target_id === data.target_id &&
      link.editing_cycle_id === data.editing_cycle_id &&
      link.editing_cycle_id === s.active_editing_cycle_id &&
      link.target_version === data.before_version &&
      link.target_version === s.version &&
      link.target_hash === data.before_hash &&
      link.target_hash === s.current_hash;
    if (!matches) throw fail('does not link the state the acceptance applied to (target, cycle, version, hash)');
  }
}

const divergence = (data: ProposalAcceptedData, detail: string) => new ReplayDivergence(data.attempt_id, `protocol_invalid: observed evidence ${detail}`);
