import type { JsonSchema } from './operation-spec';
import { array, int, object, str } from './answer-schema-parts';

/** What an acceptance may leave out stays optional in the observed one. */
const optionalOf = (schema: JsonSchema): string[] =>
  Object.keys(schema.properties as Record<string, JsonSchema>).filter((key) => !(schema.required as string[]).includes(key));

/** An observed submission's acceptance; a batch's also says its bundle, versions and groups. */
export function observedAcceptance(accepted: JsonSchema): JsonSchema {
  return object(
    {
      ...(accepted.properties as Record<string, JsonSchema>),
      before_version: int('Batch: the version the batch applied to (one step).'),
      observation_bundle_id: str('Batch: the bundle its groups observed.'),
      group_count: int(),
      change_count: int('Batch: operations in all groups.'),
      groups: array(
        object({
          group_index: int('0-based, as sent.'),
          observation_id: str(),
          ordinal: int('The observation\'s place in its bundle (1-based).'),
          symbol_name: str(),
          scope_start: int('Code points, in the text before the batch.'),
          scope_end: int(),
          change_count: int(),
        }),
        'Batch: one summary per group, in the order sent.',
      ),
    },
    [...optionalOf(accepted), 'before_version', 'observation_bundle_id', 'group_count', 'change_count', 'groups'],
  );
}
