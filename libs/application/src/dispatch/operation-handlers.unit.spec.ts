import Ajv2020 from 'ajv/dist/2020';
import { CATALOG } from '@palimpsest/protocol/catalog/catalog';
import { admissionSchema } from '@palimpsest/protocol/admission';
import { OPERATION_HANDLERS, type OperationHandlers } from './operation-handlers';

describe('the operation catalog drives dispatch', () => {
  it('has exactly one handler per operation, and no handler without an operation', () => {
    expect(Object.keys(OPERATION_HANDLERS).sort()).toEqual(CATALOG.map((op) => op.name).sort());
  });

  it('uses unique names with the palimpsest_ prefix (seed 004\'s file tools keep their own names)', () => {
    const names = CATALOG.map((op) => op.name);
    expect(new Set(names).size).toBe(names.length);
    const seed004 = new Set(['read_file', 'list_files', 'grep', 'edit_file', 'write_file', 'run_command', 'start_command', 'get_command_output', 'send_command_input', 'kill_command', 'list_projects', 'get_active_project', 'set_active_project']);
    for (const name of names.filter((n) => !seed004.has(n))) expect(name).toMatch(/^palimpsest_[a-z_]+$/);
  });

  it.each(CATALOG.map((op) => [op.name, op] as const))('%s: schemas compile strictly and every parameter is described', (_n, op) => {
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
    expect(() => ajv.compile(op.params)).not.toThrow();
    expect(() => new Ajv2020({ strict: true, allowUnionTypes: true }).compile(admissionSchema(op))).not.toThrow();
    const props = op.params.properties as Record<string, { description?: string }>;
    for (const [name, schema] of Object.entries(props)) {
      expect({ name, described: typeof schema.description === 'string' && !schema.description.includes('\n') }).toEqual({ name, described: true });
    }
    for (const example of op.examples) expect(ajv.validate(op.params, example.params)).toBe(true);
  });
});

describe('the handler table is typed by the catalog', () => {
  it('refuses a missing, extra or misspelled handler at compile time', () => {
    const { palimpsest_capabilities: _dropped, ...missingOne } = OPERATION_HANDLERS;
    // @ts-expect-error palimpsest_capabilities is missing
    const missing: OperationHandlers = missingOne;
    // @ts-expect-error no operation is called palimpsest_no_such_operation
    const extra: OperationHandlers = { ...OPERATION_HANDLERS, palimpsest_no_such_operation: OPERATION_HANDLERS.palimpsest_get_target };
    // @ts-expect-error a read handler does not answer a submission
    const swapped: OperationHandlers = { ...OPERATION_HANDLERS, palimpsest_submit_edits: OPERATION_HANDLERS.palimpsest_get_target };
    expect([missing, extra, swapped].every((table) => typeof table === 'object')).toBe(true);
  });
});
