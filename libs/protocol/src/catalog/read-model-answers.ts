import type { OperationName } from './catalog';
import type { JsonSchema } from './operation-spec';
import { array, bool, int, nullable, object, str, targetId, version } from './answer-schema-parts';

/** The answers of the asynchronous read models' operations (beside answer-schemas.ts). */

const rate = (description: string): JsonSchema => ({ type: ['number', 'null'], description });

const projection = object({
  name: str('The read model (search, activity).'),
  checkpoint_position: int('Global position of the last event it has handled.'),
  caught_up: bool('True when no committed event is left for it to handle.'),
  behind_by_events: int('Committed events it has not handled yet (counted up to 100,000).'),
  min_position: nullable(int('The min_position asked for.')),
  min_position_reached: nullable(bool('Whether the answer includes min_position; false: the wait ran out (max_wait_ms).')),
  waited_ms: int(),
});

const counts = { attempts: int(), accepted: int(), rejected: int(), retries: int('Attempts naming the attempt they retry (parent_attempt_id).') };

type ReadModelOperation = 'palimpsest_search_targets' | 'palimpsest_get_target_activity';

export const READ_MODEL_ANSWERS: { [N in ReadModelOperation & OperationName]: JsonSchema } = {
  palimpsest_search_targets: object({
    status: { const: 'ok' },
    query: str(),
    hits: array(object({
      target_file_id: targetId,
      filename: str(),
      path: nullable(str('Workspace path, when the target is bound to a file.')),
      version,
      rank: { type: 'number', description: 'Higher is better (ts_rank over weighted name, intents, text).' },
      snippet: str('At most 300 code points of the text around the matches, marked [[so]].'),
      text_truncated: bool('True when only the first 200,000 code points of the text are indexed.'),
    })),
    total: int('Targets matching, over every page.'),
    next_offset: nullable(int('Pass as offset for the next page.')),
    projection,
  }),
  palimpsest_get_target_activity: object({
    status: { const: 'ok' },
    target_file_id: nullable(targetId),
    window: object({
      since: str('Inclusive, on a minute.'),
      until: str('Exclusive, on a minute.'),
      granularity: { enum: ['minute', 'hour', 'day'], description: 'Of series.' },
    }),
    ...counts,
    acceptance_rate: rate('accepted / attempts; null without attempts.'),
    retries_per_acceptance: rate('retries / accepted; null without acceptances.'),
    by_failure_reason: array(object({ failure_reason: str(), attempts: int() })),
    by_source: array(object({ source: str(), ...counts })),
    series: array(object({ bucket: str('Bucket start (UTC).'), ...counts }), 'Buckets with attempts, oldest first.'),
    projection,
  }),
};
