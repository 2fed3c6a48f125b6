import { Controller, Get, Param, Query, Res, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import { AuditFilter, AuditIntegrity, AuditPage, AuditQuery, ResourceState, ResourceStateQuery, text } from '@meshwork/contracts';
import { StaffGuard } from '../../identity';
import { Route, Tag } from '../../platform/http/openapi/route-contract';
import { ZodPipe } from '../../platform/http/validation';
import { AuditIntegrityQuery } from '../application/audit-integrity.query';
import { AuditTrail } from '../application/audit-trail.query';
import { ResourceHistory } from '../application/resource-history.query';
import { AUDIT_CSV_HEADER, auditCsvLines } from './audit-trail.csv';

/** The most rows one export holds; narrower filters export the rest. */
const EXPORT_LIMIT = 100_000;

const resourceType = new ZodPipe(text('Resource type', { max: 40 }));
const resourceId = new ZodPipe(text('Resource id', { max: 200 }));

/** The event log for staff and auditors: who did what, when, to which resource. */
@Tag('admin-audit')
@Controller('admin-panel/audit')
@UseGuards(StaffGuard)
export class AuditTrailController {
  constructor(
    private readonly trail: AuditTrail,
    private readonly integrity: AuditIntegrityQuery,
    private readonly history: ResourceHistory,
  ) {}

  @Get('state/:type/:id')
  @Route({
    summary:
      'A resource replayed from its stream up to `as_of` (a log position or a time; now when absent), secrets left out, and the fields that changed since `compare_to`.',
    response: ResourceState,
  })
  state(
    @Param('type', resourceType) type: string,
    @Param('id', resourceId) id: string,
    @Query(new ZodPipe(ResourceStateQuery)) query: ResourceStateQuery,
  ): Promise<ResourceState> {
    return this.history.state(type, id, query);
  }

  @Get('integrity')
  @Route({
    summary: 'How far the hash chain and its signed seals reach, and what the last `npm run audit:verify` found.',
    response: AuditIntegrity,
  })
  integrityNow(): Promise<AuditIntegrity> {
    return this.integrity.get();
  }

  @Get()
  @Route({ summary: 'Newest first; filters combine; `cursor` is the previous page’s next_cursor.', response: AuditPage })
  page(@Query(new ZodPipe(AuditQuery)) query: AuditQuery): Promise<AuditPage> {
    return this.trail.page(query);
  }

  /** Streamed in batches, so a long trail costs the api one batch of memory. */
  @Get('export')
  @Route({ summary: `The filtered trail as CSV, newest first, at most ${EXPORT_LIMIT} rows.`, file: 'text/csv' })
  async export(@Query(new ZodPipe(AuditFilter)) filter: AuditFilter, @Res() response: Response): Promise<void> {
    const batches = this.trail.all(filter);
    // The first batch is read before the first byte: a failure then is still an error answer, not a cut-off file.
    let next = await batches.next();
    response.setHeader('Content-Type', 'text/csv; charset=utf-8');
    response.setHeader('Content-Disposition', `attachment; filename="audit-${new Date().toISOString().slice(0, 10)}.csv"`);
    response.write(AUDIT_CSV_HEADER);
    let written = 0;
    for (; !next.done; next = await batches.next()) {
      const kept = next.value.slice(0, EXPORT_LIMIT - written);
      written += kept.length;
      // Waits for the client to take each batch before reading the next.
      if (!response.write(auditCsvLines(kept))) await new Promise((resolve) => response.once('drain', resolve));
      if (written >= EXPORT_LIMIT || response.destroyed) break;
    }
    await batches.return(undefined);
    response.end();
  }
}
