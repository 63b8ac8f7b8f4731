import { parentPort } from 'node:worker_threads';
import type { SliceContext } from '@palimpsest/core/audit/verify-slice';
import { verifyFileSlice, type ByteRange } from './bundle-file-slice.reader';

/** A worker thread of `palimpsest verify` (SlicePool): each byte range of a bundle file it is sent, verified and its result posted back. */
parentPort!.on('message', ({ file, range, context }: { file: string; range: ByteRange; context: SliceContext }) => {
  parentPort!.postMessage(verifyFileSlice(file, range, context));
});
