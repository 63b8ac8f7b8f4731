import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import type { InvalidArgument } from '@palimpsest/core/errors/invalid-argument';
import type { RefusalDetails } from '@palimpsest/core/errors/refusal-details';
import type { JsonSchema, OperationSpec } from './catalog/operation-spec';
import { admitText } from './text-admission';

const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
const compiled = new Map<string, ValidateFunction>();

/** Audited operations enforce only argument names and their edge fields before the handler. */
export function admissionSchema(spec: OperationSpec): JsonSchema {
  if (spec.admission === 'schema') return spec.params;
  const props = spec.params.properties as Record<string, JsonSchema>;
  const edge = new Set(spec.edgeFields ?? []);
  return {
    type: 'object',
    additionalProperties: false,
    required: spec.params.required,
    properties: Object.fromEntries(Object.keys(props).map((k) => [k, edge.has(k) ? props[k] : {}])),
  };
}

function validatorFor(spec: OperationSpec): ValidateFunction {
  let v = compiled.get(spec.name);
  if (!v) {
    v = ajv.compile(admissionSchema(spec));
    compiled.set(spec.name, v);
  }
  return v;
}

function refusal(spec: OperationSpec, code: string, detail: string, extra: RefusalDetails = {}): InvalidArgument {
  return { status: 'invalid_argument', code, tool: spec.name, failure_detail: detail, ...extra };
}

function describe(e: ErrorObject): { path: string; message: string } {
  const path = e.instancePath ? e.instancePath.slice(1).replace(/\//g, '.') : '(arguments)';
  return { path, message: e.message ?? 'is invalid' };
}

/**
 * Check arguments against the catalog before any work is done. Unknown and missing names are
 * reported first (seed: such calls never reach the tool), then type and range violations, then
 * text PostgreSQL cannot hold (see text-admission).
 */
export function admit(spec: OperationSpec, args: unknown): InvalidArgument | null {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) {
    return refusal(spec, 'invalid_params', 'Arguments must be a JSON object.');
  }
  const known = Object.keys((spec.params.properties as object) ?? {});
  const unknown = Object.keys(args).filter((k) => !known.includes(k));
  if (unknown.length) {
    return refusal(spec, 'unknown_argument', `Unknown argument(s): ${unknown.join(', ')}. Allowed: ${known.join(', ')}.`, {
      unknown_arguments: unknown,
    });
  }
  const required = (spec.params.required as string[] | undefined) ?? [];
  const missing = required.filter((k) => !(k in args));
  if (missing.length) {
    return refusal(spec, 'missing_argument', `Missing required argument(s): ${missing.join(', ')}.`, {
      missing_arguments: missing,
    });
  }
  const validate = validatorFor(spec);
  if (validate(args)) return admitText(spec, args as Record<string, unknown>);
  const errors = (validate.errors ?? []).map(describe);
  const first = errors[0];
  const argument = first.path.split('.')[0];
  const code = argument === 'include_correlation_id' ? 'invalid_include_correlation_id' : 'invalid_argument_value';
  return refusal(spec, code, `${first.path} ${first.message}.`, { argument, errors: errors.slice(0, 10) });
}
