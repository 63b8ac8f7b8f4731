import type { ExampleRuns } from './example-scenario';
import recorded from './openapi-examples.generated.json';

/**
 * The answers the OpenAPI document shows: recorded from a real run of the examples (data, not code) by
 * `UPDATE_OPENAPI_EXAMPLES=1 npx jest apps/api/src/openapi/openapi-examples.int.spec.ts`, which also
 * reruns them and fails while they are stale.
 */
export const OPENAPI_EXAMPLES: ExampleRuns = recorded as ExampleRuns;
