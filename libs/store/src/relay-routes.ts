import type { Sql } from './db';

/** The executor relay's routes between gateways on one database (migration 0034): presence, and calls handed over. */

export interface ProjectPresence {
  project_id: string;
  slug: string;
  gateway: string;
  device_id: string;
  token_id: string | null;
  /** false while its executor is away (the gateway waits for it to come back). */
  online: boolean;
}

export interface HeldProject {
  id: string;
  slug: string;
  deviceId: string;
  tokenId: string | null;
  online: boolean;
}

/**
 * Makes this gateway's rows exactly `projects` (expiring after `ttlMs`) in one statement: the held ones
 * upserted (taken over from a gateway that held them before), the rest of its rows withdrawn. A project
 * away here never takes the row of a gateway where it is online now (its executor came back there).
 */
export async function syncProjects(sql: Sql, gateway: string, projects: HeldProject[], ttlMs: number): Promise<void> {
  await sql.query(
    `WITH held AS (SELECT p.id, p.slug, p.device_id, p.token_id, p.online FROM jsonb_to_recordset($3::jsonb) AS p(id text, slug text, device_id text, token_id text, online boolean)),
          up AS (INSERT INTO relay_presence (project_id, slug, gateway, device_id, token_id, online, expires_at)
                 SELECT id, slug, $1, device_id, token_id, online, now() + $2 * interval '1 millisecond' FROM held
                 ON CONFLICT (project_id) DO UPDATE SET slug = excluded.slug, gateway = excluded.gateway, device_id = excluded.device_id,
                   token_id = excluded.token_id, online = excluded.online, expires_at = excluded.expires_at
                 WHERE excluded.online OR relay_presence.gateway = excluded.gateway OR NOT relay_presence.online OR relay_presence.expires_at <= now())
     DELETE FROM relay_presence WHERE gateway = $1 AND project_id NOT IN (SELECT id FROM held)`,
    [gateway, ttlMs, JSON.stringify(projects.map((p) => ({ id: p.id, slug: p.slug, device_id: p.deviceId, token_id: p.tokenId, online: p.online })))],
  );
}

/** Handed-over calls to `gateway` not answered yet (a NOTIFY may have been missed). */
export async function pendingHanded(sql: Sql, gateway: string): Promise<string[]> {
  const { rows } = await sql.query<{ id: string }>(`SELECT id FROM relay_forwarded_calls WHERE gateway = $1 AND answer IS NULL ORDER BY created_at`, [gateway]);
  return rows.map((r) => r.id);
}

/** The projects other gateways hold now, online or away (their rows not lapsed). */
export async function projectsElsewhere(sql: Sql, gateway: string): Promise<ProjectPresence[]> {
  const { rows } = await sql.query<ProjectPresence>(`SELECT project_id, slug, gateway, device_id, token_id, online FROM relay_presence WHERE gateway <> $1 AND expires_at > now() ORDER BY project_id`, [gateway]);
  return rows;
}

export async function handOver(sql: Sql, id: string, gateway: string, call: unknown): Promise<void> {
  await sql.query(`INSERT INTO relay_forwarded_calls (id, gateway, call) VALUES ($1, $2, $3::jsonb)`, [id, gateway, JSON.stringify(call)]);
}

/** A call handed to `gateway` and not answered yet. */
export async function handedCall(sql: Sql, id: string, gateway: string): Promise<unknown | null> {
  const { rows } = await sql.query<{ call: unknown }>(`SELECT call FROM relay_forwarded_calls WHERE id = $1 AND gateway = $2 AND answer IS NULL`, [id, gateway]);
  return rows[0]?.call ?? null;
}

export async function answerHanded(sql: Sql, id: string, answer: unknown): Promise<void> {
  await sql.query(`UPDATE relay_forwarded_calls SET answer = $2::jsonb WHERE id = $1`, [id, JSON.stringify(answer)]);
}

export async function handedAnswer(sql: Sql, id: string): Promise<unknown | null> {
  const { rows } = await sql.query<{ answer: unknown }>(`SELECT answer FROM relay_forwarded_calls WHERE id = $1 AND answer IS NOT NULL`, [id]);
  return rows[0]?.answer ?? null;
}

export async function dropHanded(sql: Sql, id: string): Promise<void> {
  await sql.query(`DELETE FROM relay_forwarded_calls WHERE id = $1`, [id]);
}

export async function notifyRelay(sql: Sql, payload: string): Promise<void> {
  await sql.query(`SELECT pg_notify('palimpsest_relay', $1)`, [payload]);
}
