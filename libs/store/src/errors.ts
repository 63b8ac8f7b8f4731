/** Errors the store throws on purpose. Everything else is a driver error, rethrown as is. */

/** Another writer appended to the stream first (or expectedVersion was not the stream's last version). */
export class StreamVersionConflictError extends Error {
  override readonly name = 'StreamVersionConflictError';
  constructor(
    readonly streamId: string,
    readonly expectedVersion: number,
    options?: { cause?: unknown },
  ) {
    super(`stream ${JSON.stringify(streamId)} is not at version ${expectedVersion}: another writer appended first`, options);
  }
}

/** An applied migration's file no longer matches what was applied (forward-only: add a new file instead). */
export class MigrationChecksumError extends Error {
  override readonly name = 'MigrationChecksumError';
  constructor(
    readonly migration: string,
    readonly appliedChecksum: string,
    readonly fileChecksum: string,
  ) {
    super(
      `migration ${migration} was changed after it was applied (checksum ${appliedChecksum} in schema_migrations, ` +
        `${fileChecksum} on disk); migrations are forward-only: restore the file and add a new migration`,
    );
  }
}

/** Another live process holds the PGlite data directory. */
export class DataDirInUseError extends Error {
  override readonly name = 'DataDirInUseError';
  constructor(
    readonly dataDir: string,
    readonly pid: number,
    readonly lockPath: string,
  ) {
    super(`data directory is in use by pid ${pid} (${dataDir}; lock file ${lockPath})`);
  }
}
