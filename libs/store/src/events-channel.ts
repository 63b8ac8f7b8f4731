/** The channel appendToStream notifies by default; the payload is AppendNotification as JSON. */
export const EVENTS_CHANNEL = 'palimpsest_events';

export interface AppendNotification {
  stream_id: string;
  /** The last (highest) global_position this append wrote. */
  global_position: number;
  stream_version: number;
}
