import { Presets, SingleBar } from 'cli-progress';
import {
  rebuildOnline, UnknownProjectionError, type OnlineRebuildProgress, type OnlineRebuildReport,
} from '@palimpsest/projections/rebuild/online/online-rebuild';
import { printJson } from '../runtime';
import { withStore } from '../store-access';

/**
 * `palimpsest projections rebuild --online [name]`: every read model (or one) rebuilt beside the live
 * one while the service goes on. On a terminal a bar per model with rate and ETA; otherwise one plain
 * line per model and phase on stderr. The report (JSON) goes to stdout; exit 1 when a live model differed.
 */
export async function rebuildOnlineCommand(name: string | undefined, opts: { progress: boolean }): Promise<void> {
  const progress = opts.progress ? progressReporter(Boolean(process.stderr.isTTY)) : null;
  try {
    const report = await withStore({
      local: (ctx) => rebuildOnline(ctx.db, { name, onProgress: progress?.update }),
      gateway: async (gw) => {
        if (progress) process.stderr.write(`rebuilding online through ${gw.label} (no progress bar)\n`);
        const { status: _ok, ...rebuilt } = await gw.send<{ equal: boolean; rebuilt: OnlineRebuildReport[]; status: string }>(
          'POST', '/v1/projections/rebuild-online', name === undefined ? {} : { name },
        );
        return rebuilt;
      },
    });
    progress?.stop();
    printJson(report);
    if (!report.equal) process.exitCode = 1;
  } catch (error) {
    progress?.stop();
    if (!(error instanceof UnknownProjectionError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exitCode = 2;
  }
}

interface Reporter {
  update(p: OnlineRebuildProgress): void;
  stop(): void;
}

function progressReporter(tty: boolean): Reporter {
  let bar: SingleBar | null = null;
  let current = '';
  let phase = '';
  let started = Date.now();
  return {
    update(p) {
      if (!tty) {
        if (p.name !== current || p.phase !== phase) process.stderr.write(`${p.name}: ${p.phase} (${p.done}/${p.total} events)\n`);
      } else {
        if (p.name !== current) {
          bar?.stop();
          started = Date.now();
          bar = new SingleBar(
            { stream: process.stderr, format: `${p.name} [{bar}] {percentage}% | {value}/{total} events | {rate} ev/s | ETA {eta_formatted} | {phase}` },
            Presets.shades_classic,
          );
          bar.start(p.total, 0, { rate: 0, phase: p.phase });
        }
        const rate = Math.round(p.done / Math.max(0.001, (Date.now() - started) / 1000));
        bar!.setTotal(p.total);
        bar!.update(p.done, { rate, phase: p.phase });
      }
      current = p.name;
      phase = p.phase;
    },
    stop() {
      bar?.stop();
      bar = null;
    },
  };
}
