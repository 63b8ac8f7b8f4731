import type { InvalidArgument } from '@palimpsest/core/errors/invalid-argument';
import { isAdmittedCall } from '@palimpsest/protocol/admitted-call';
import type { OperationSpec } from '@palimpsest/protocol/catalog/operation-spec';

/** `old_string`, `OldString` and `oldstring` are one name to an agent: compared without case, `_` or `-`. */
const loose = (name: string) => name.toLowerCase().replace(/[_-]/g, '');

/**
 * An unknown-argument refusal with the call the caller meant, when one can be told without guessing:
 * each unknown name that is a known argument's spelled another way (snake_case for camelCase, another
 * case) is renamed, and a read drops the rest (a read changes nothing, so what it did not know cannot
 * have held a write back). The call is offered only when it is admitted as it stands.
 */
export function withMeantCall(spec: OperationSpec, args: Record<string, unknown>, refused: InvalidArgument): InvalidArgument {
  if (refused.code !== 'unknown_argument') return refused;
  const known = Object.keys((spec.params.properties as object) ?? {});
  const params: Record<string, unknown> = {};
  const changes: string[] = [];
  for (const [name, value] of Object.entries(args)) {
    const meant = known.includes(name) ? name : known.find((k) => loose(k) === loose(name) && !(k in args));
    if (meant) params[meant] = value;
    else if (!spec.readOnly) return refused;
    if (meant !== name) changes.push(meant ? `${name} as ${meant}` : `without ${name}`);
  }
  const call = { operation: spec.name, reason: `The same call, ${changes.join(', ')}`, params };
  return isAdmittedCall(call) ? { ...refused, next_actions: [call] } : refused;
}
