import type { WarningDetail } from '../transaction/transaction.types';
import type { WarningSummary } from './target.events';

export const MAX_WARNING_DETAILS = 16;

/** Accepted attempts store warnings only when there is at least one (seed: otherwise no diagnostic). */
export function summarizeWarnings(details: WarningDetail[]): WarningSummary | null {
  if (details.length === 0) return null;
  const kept = details.slice(0, MAX_WARNING_DETAILS);
  return {
    warnings: kept.map((w) => `${w.code}: ${w.detail}`),
    warning_details: kept,
    warning_count: details.length,
    warnings_truncated: details.length > kept.length,
  };
}
