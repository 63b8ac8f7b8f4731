import { contentLink, LINK_FIELDS, OBSERVED_PROFILE, pickLink, type ObservationLink } from '../transaction/observed-scope';
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
  private readonly consumed = new Set<string>();

  /** Note an observation event; throws ReplayDivergence when an observed acceptance does not check. */
  check(event: TargetEvent, before: TargetState): void {
    if (event.type === 'ScopeObserved') this.note(event.data);
    if (event.type === 'BundleObserved') for (const scope of event.data.scopes) this.note({ ...event.data, ...scope });
    if (event.type === 'ProposalAccepted' && event.data.runtime_version === OBSERVED_PROFILE.runtime) this.checkAccepted(event.data, before);
  }

  private note(d: ObservationLink): void {
    this.observations.set(d.observation_id, [...(this.observations.get(d.observation_id) ?? []), pickLink(d)]);
  }

  private checkAccepted(data: ProposalAcceptedData, before: TargetState): void {
    const fail = (detail: string) => new ReplayDivergence(data.attempt_id, `protocol_invalid: observed evidence ${detail}`);
    const link = contentLink(data.content);
    if (!link) throw fail('is missing: the record carries no complete observation link');
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
    this.consumed.add(link.observation_id);
  }
}
