import { Inject, Injectable } from '@nestjs/common';
import type { AuditIntegrity } from '@meshwork/contracts';
import { DATABASE, type Database } from '../../platform/database/database';

/** The log's tamper evidence as the console shows it: chain and seal heads, and the last verification. */
@Injectable()
export class AuditIntegrityQuery {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  async get(): Promise<AuditIntegrity> {
    const { rows } = await this.database.pool.query<{
      chained_to: string | null;
      sealed_to: string | null;
      sealed_at: Date | null;
      verification: {
        verified_to: number;
        events: number;
        first_broken: number | null;
        problem: string | null;
        finished_at: string;
      } | null;
    }>(
      `SELECT (SELECT max(position) FROM es_chain) AS chained_to,
              s.position AS sealed_to, s.sealed_at,
              (SELECT json_build_object('verified_to', v.verified_to, 'events', v.events, 'first_broken', v.first_broken,
                                        'problem', v.problem, 'finished_at', v.finished_at)
                 FROM es_chain_verifications v ORDER BY v.id DESC LIMIT 1) AS verification
         FROM (SELECT 1) one LEFT JOIN LATERAL (SELECT position, sealed_at FROM es_seals ORDER BY position DESC LIMIT 1) s ON true`,
    );
    const row = rows[0]!;
    const verification = row.verification;
    return {
      chained_to: Number(row.chained_to ?? 0),
      sealed_to: Number(row.sealed_to ?? 0),
      sealed_at: row.sealed_at?.toISOString() ?? null,
      last_verification: verification && { ...verification, finished_at: new Date(verification.finished_at).toISOString() },
    };
  }
}
