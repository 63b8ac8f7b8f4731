import { parentPort, workerData } from 'node:worker_threads';
import type { SliceContext } from '@palimpsest/core/audit/verify-slice';
import { verifyFileSlice, type ByteRange } from './bundle-file-slice.reader';

/** A worker thread of `palimpsest verify`: one byte range of a bundle file, its result posted back. */
const { file, range, context } = workerData as { file: string; range: ByteRange; context: SliceContext };
parentPort!.postMessage(verifyFileSlice(file, range, context));
