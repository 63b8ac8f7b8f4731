import { InlineProjections } from '@palimpsest/store/inline-projection';
import { candidateProjection } from './candidates/candidate.projection';
import { targetProjection } from './inline-projections';
import { publicationProjection } from './publications/publication.projection';

/** Every inline projection of the three aggregates, registered by event type for the store (at composition). */
export function inlineProjections(): InlineProjections {
  return new InlineProjections().register(targetProjection).register(publicationProjection).register(candidateProjection);
}
