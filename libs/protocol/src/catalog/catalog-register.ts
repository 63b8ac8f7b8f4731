import type { OperationParams } from './operation-params.generated';

/** The catalog's operations and params, for the core's names of them (CatalogOperation, NextAction of core/errors/error-model.ts). */
declare module '@palimpsest/core/errors/error-model' {
  interface CatalogRegister {
    operations: OperationParams;
  }
}
