import { ContentCache } from '@palimpsest/projections/content/content-cache';

/**
 * Diagnostic only: a content cache that never offers a head, so every submit takes the locked path
 * (BEGIN, SELECT … FOR UPDATE, append + projections, COMMIT), as before the one-statement commit.
 */
export class LockedOnlyCache extends ContentCache {
  override optimisticHead(): null {
    return null;
  }
}
