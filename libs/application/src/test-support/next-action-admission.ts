import Ajv2020 from 'ajv/dist/2020';
import type { NextAction } from '@palimpsest/core/errors/error-model';
import { admit } from '@palimpsest/protocol/admission';
import { findOperation } from '@palimpsest/protocol/catalog/catalog';

const ajv = new Ajv2020({ strict: false, allowUnionTypes: true, allErrors: true });

/**
 * Why a next action could not be sent as it is, or null: its operation must be in the catalog and
 * its params must pass that operation's admission and its whole published params schema (audited
 * operations admit only names at the edge; the schema is the shape their decider then holds them to).
 */
export function inadmissible(action: NextAction): string | null {
  const spec = findOperation(action.operation);
  if (!spec) return `${action.operation} is not an operation`;
  if (action.params === undefined) return `${action.operation} has no params`;
  const refused = admit(spec, action.params);
  if (refused) return `${action.operation}: ${refused.code} ${refused.failure_detail}`;
  const validate = ajv.compile(spec.params);
  if (!validate(action.params)) return `${action.operation}: ${ajv.errorsText(validate.errors)}`;
  return null;
}

/** Every action of every answer, with the reasons any is not admissible (empty when all are). */
export function inadmissibleActions(answers: readonly { next_actions?: unknown }[]): string[] {
  return answers.flatMap((a) => ((a.next_actions as NextAction[] | undefined) ?? []).map(inadmissible)).filter((e): e is string => e !== null);
}

type Answer = Record<string, any>;

/** Calls through the harness `of()` gives, keeping every answer for inadmissibleActions afterwards. */
export function recordingCalls(of: () => { call(name: string, args: unknown): Promise<Answer> }): {
  answers: Answer[];
  call: (name: string, args: Record<string, unknown>) => Promise<Answer>;
} {
  const answers: Answer[] = [];
  return {
    answers,
    call: async (name, args) => {
      const r = await of().call(name, args);
      answers.push(r);
      return r;
    },
  };
}
