import type { OperationParams } from './operation-params.generated';

/** The catalog's operations and params are what a next action names (NextAction of core/errors/error-model.ts). */
declare module '@palimpsest/core/errors/error-model' {
  interface NextActionRegister {
    operations: OperationParams;
  }
}
