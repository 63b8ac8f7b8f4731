import { sourceFiles } from '@palimpsest/testing/source-files';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

/**
 * The gateway reads the event log through libs/store (read-stream, read-all, stream-lookups), never by
 * querying the events table itself: how the log is laid out is the store's alone.
 */
const ROOT = __dirname;

describe('apps/api', () => {
  it('queries no events table: its reads of the log go through the store', () => {
    const offenders = sourceFiles(ROOT).filter((file) => /\b(FROM|JOIN)\s+events\b/i.test(readFileSync(file, 'utf8')));
    expect(offenders.map((file) => relative(ROOT, file))).toEqual([]);
  });
});
