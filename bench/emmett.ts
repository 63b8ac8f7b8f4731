import { isExpectedVersionConflictError, projections, STREAM_DOES_NOT_EXIST, type Event, type ReadEvent } from '@event-driven-io/emmett';
import {
  getPostgreSQLEventStore,
  pongoSingleStreamProjection,
  type PostgresEventStore,
  type PostgresReadEventMetadata,
} from '@event-driven-io/emmett-postgresql';
import { pongoClient, type PongoClient, type PongoCollection } from '@event-driven-io/pongo';
import pg from 'pg';
import { marker, targetPicker, type ThroughputResult, type Timing } from './scenarios';
import { nowMs, runClosedLoop, summarize, type LatencySummary } from './stats';

/**
 * The same guarded 1-edit submits through Emmett's PostgreSQL event store (@event-driven-io/emmett-postgresql),
 * the event store a TypeScript user would pick instead, on a database of its own. Per submit, as its user
 * would write it: read the stream's document (the inline projection's Pongo document: the text, the marker
 * version, the stream position it reflects), decide the edit (its match must occur once), append one
 * EditApplied event with expectedStreamVersion = that position. The inline Pongo projection applies the
 * edit to the document inside the append's transaction, so the document keeps the same text as our target.
 * A stale decision (another client appended first) fails with ExpectedVersionConflictError, writes
 * nothing, and the next try reads the document again.
 */

type TargetInitialized = Event<'TargetInitialized', { content: string; recorded: string }>;
type EditApplied = Event<
  'EditApplied',
  { before_version: number; after_version: number; edits: { match: string; replace: string }[]; recorded: string }
>;
type TargetEvent = TargetInitialized | EditApplied;

/** The inline projection's document: the target's text, its marker version, and the stream position it reflects. */
type TargetDocument = { content: string; version: number; streamPosition: number };

const COLLECTION = 'bench_targets';

function evolve(document: TargetDocument | null, event: ReadEvent<TargetEvent, PostgresReadEventMetadata>): TargetDocument | null {
  const streamPosition = Number(event.metadata.streamPosition);
  switch (event.type) {
    case 'TargetInitialized':
      return { content: event.data.content, version: 0, streamPosition };
    case 'EditApplied': {
      if (!document) throw new Error(`EditApplied on ${event.metadata.streamName} before TargetInitialized`);
      let content = document.content;
      for (const edit of event.data.edits) content = content.replace(edit.match, () => edit.replace);
      return { content, version: event.data.after_version, streamPosition };
    }
  }
}

const targetDocuments = pongoSingleStreamProjection<TargetDocument, TargetEvent>({
  collectionName: COLLECTION,
  canHandle: ['TargetInitialized', 'EditApplied'],
  evolve,
});

/**
 * Emmett's dependency dumbo sets process-wide pg type parsers the first time it opens a pool (int8 as
 * BigInt, json/jsonb with its own reviver), which would change what the other rows' `pg` pools parse.
 * These are saved before each Emmett block and put back after it; Emmett's own are put back before its
 * next block.
 */
const GLOBAL_TYPES = [20, 114, 3802] as const;
type Parser = (value: string) => unknown;
let emmettParsers: Parser[] | undefined;

async function withEmmettTypes<T>(fn: () => Promise<T>): Promise<T> {
  const ours = GLOBAL_TYPES.map((oid) => pg.types.getTypeParser(oid, 'text') as Parser);
  if (emmettParsers) GLOBAL_TYPES.forEach((oid, i) => pg.types.setTypeParser(oid, emmettParsers![i]!));
  try {
    return await fn();
  } finally {
    emmettParsers ??= GLOBAL_TYPES.map((oid) => pg.types.getTypeParser(oid, 'text') as Parser);
    GLOBAL_TYPES.forEach((oid, i) => pg.types.setTypeParser(oid, ours[i]!));
  }
}

export interface EmmettBench {
  store: PostgresEventStore;
  documents: PongoCollection<TargetDocument>;
  close(): Promise<void>;
}

/** The event store with its inline projection on `url` (schema auto-migrated), pool of `poolMax` connections. */
export async function openEmmett(url: string, poolMax: number, onError: (error: Error) => void): Promise<EmmettBench> {
  const pool = new pg.Pool({ connectionString: url, max: poolMax, application_name: 'palimpsest-bench-emmett' });
  pool.on('error', onError);
  return withEmmettTypes(async () => {
    const store = getPostgreSQLEventStore(url, {
      projections: projections.inline([targetDocuments]),
      connectionOptions: { pool },
    });
    await store.schema.migrate();
    const pongo: PongoClient = pongoClient(url, { connectionOptions: { pool } });
    const documents = pongo.db().collection<TargetDocument>(COLLECTION);
    return {
      store,
      documents,
      async close() {
        await pongo.close();
        await store.close();
        await pool.end();
      },
    };
  });
}

/** Streams `prefix-0…count-1`, each initialized with `content` (the projection makes its document). */
export async function createEmmettStreams(bench: EmmettBench, prefix: string, count: number, content: string): Promise<string[]> {
  return withEmmettTypes(async () => {
    const streams: string[] = [];
    for (let i = 0; i < count; i++) {
      const stream = `target-${prefix}-${i}`;
      await bench.store.appendToStream<TargetEvent>(
        stream,
        [{ type: 'TargetInitialized', data: { content, recorded: new Date().toISOString() } }],
        { expectedStreamVersion: STREAM_DOES_NOT_EXIST },
      );
      streams.push(stream);
    }
    return streams;
  });
}

/** One submit: read the document, decide the 1-edit change, append it at the version read. False on a version conflict. */
async function emmettSubmit(bench: EmmettBench, stream: string): Promise<boolean> {
  const document = await bench.documents.findOne({ _id: stream });
  if (!document) throw new Error(`no document for ${stream}`);
  const v = document.version;
  const match = marker(v);
  const at = document.content.indexOf(match);
  if (at < 0 || document.content.indexOf(match, at + 1) >= 0) throw new Error(`${stream}: ${match} does not occur exactly once`);
  try {
    await bench.store.appendToStream<TargetEvent>(
      stream,
      [
        {
          type: 'EditApplied',
          data: { before_version: v, after_version: v + 1, edits: [{ match, replace: marker(v + 1) }], recorded: new Date().toISOString() },
        },
      ],
      { expectedStreamVersion: BigInt(document.streamPosition) },
    );
    return true;
  } catch (error) {
    if (isExpectedVersionConflictError(error)) return false;
    throw error;
  }
}

export interface EmmettResult extends ThroughputResult {
  /** Attempts (appends tried, conflicts included) per second. */
  attemptsPerSecond: number;
}

/**
 * `clients` loops, same assignment as the other rows. perSecond counts committed appends: a conflicting
 * append rolls back and writes nothing (unlike a rejected dispatch() submit, which is recorded).
 */
export async function emmettThroughput(bench: EmmettBench, streams: string[], clients: number, t: Timing): Promise<EmmettResult> {
  return withEmmettTypes(async () => {
    const pick = targetPicker(streams, clients);
    let committed = 0;
    const result = await runClosedLoop(
      clients,
      t.warmupMs,
      t.durationMs,
      async (c) => emmettSubmit(bench, pick(c)),
      (ok, inWindow) => {
        if (inWindow && ok) committed++;
      },
    );
    return {
      perSecond: committed / result.seconds,
      acceptedPerSecond: committed / result.seconds,
      acceptedShare: result.ops ? committed / result.ops : 0,
      attemptsPerSecond: result.perSecond,
      clientCpuMsPerOp: committed ? result.clientCpuMsPerOp * (result.ops / committed) : NaN,
      machineBusy: result.machineBusy,
    };
  });
}

/** One client, sequential submits on one stream. */
export async function emmettLatency(bench: EmmettBench, stream: string, t: Timing): Promise<LatencySummary> {
  return withEmmettTypes(async () => {
    const samples: number[] = [];
    const start = nowMs();
    while (nowMs() - start < t.warmupMs + t.durationMs) {
      const t0 = nowMs();
      if (!(await emmettSubmit(bench, stream))) throw new Error(`${stream}: version conflict with one client`);
      if (t0 - start >= t.warmupMs) samples.push(nowMs() - t0);
    }
    return summarize(samples);
  });
}
