import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { SliceContext, SliceResult } from '@palimpsest/core/audit/verify-slice';
import type { ByteRange } from './bundle-file-slice.reader';

/**
 * Worker threads that verify slices of a bundle file, each taking the next slice when it is done: with more
 * slices than threads, a thread the machine gives less time to takes fewer of them instead of holding the
 * others up at the end.
 */
export class SlicePool {
  private readonly idle: Worker[] = [];
  private readonly all: Worker[] = [];
  private readonly waiting: ((worker: Worker) => void)[] = [];

  constructor(size: number) {
    for (let i = 0; i < size; i++) {
      const worker = new Worker(join(__dirname, 'bundle-slice.worker.js'));
      this.all.push(worker);
      this.idle.push(worker);
    }
  }

  async run(file: string, range: ByteRange, context: SliceContext): Promise<SliceResult> {
    const worker = this.idle.pop() ?? (await new Promise<Worker>((resolve) => this.waiting.push(resolve)));
    try {
      return await sliceOn(worker, { file, range, context });
    } finally {
      const next = this.waiting.shift();
      if (next) next(worker);
      else this.idle.push(worker);
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.all.map((w) => w.terminate()));
  }
}

function sliceOn(worker: Worker, job: { file: string; range: ByteRange; context: SliceContext }): Promise<SliceResult> {
  return new Promise((resolve, reject) => {
    const done = (result: SliceResult) => {
      worker.off('error', failed);
      worker.off('exit', exited);
      resolve(result);
    };
    const failed = (error: Error) => {
      worker.off('message', done);
      reject(error);
    };
    const exited = (code: number) => failed(new Error(`a verify worker exited with code ${code}`));
    worker.once('message', done);
    worker.once('error', failed);
    worker.once('exit', exited);
    worker.postMessage(job);
  });
}
