import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Req, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Request } from 'express';
import { z } from 'zod';
import {
  AccessMatrix,
  AccessUpdate,
  AdminModel,
  AdminModelList,
  CatalogAuditEntry,
  DeletedAnswer,
  DesktopRelease,
  ModelStatusUpdate,
  PartUrl,
  PartUrlRequest,
  ReleaseFields,
  ReleaseUpdate,
  releaseVersion,
  ResumableUpload,
  ResumableUploadStart,
  UploadAborted,
  UploadFields,
  UploadResponse,
  uuid,
} from '@meshwork/contracts';
import { StaffGuard } from '../../identity';
import { notFound } from '../../platform/domain/errors';
import { Route, Tag } from '../../platform/http/openapi/route-contract';
import { ZodPipe } from '../../platform/http/validation';
import { AbortResumableUpload } from '../application/abort-resumable-upload.handler';
import { CatalogQueries } from '../application/catalog.query';
import { ChangeModelAccess } from '../application/change-model-access.handler';
import { ChangeRelease } from '../application/change-release.handler';
import { CompleteResumableUpload } from '../application/complete-resumable-upload.handler';
import { DeleteModel } from '../application/delete-model.handler';
import { DesktopReleases } from '../application/desktop-releases';
import { ResumableUploads } from '../application/resumable-uploads';
import { SetAccessMatrix } from '../application/set-access-matrix.handler';
import { SetModelStatus } from '../application/set-model-status.handler';
import { StartResumableUpload } from '../application/start-resumable-upload.handler';
import { UploadModel } from '../application/upload-model.handler';
import { UploadRelease } from '../application/upload-release.handler';

const uploadIdPipe = new ZodPipe(uuid('Upload id'));
const modelIdPipe = new ZodPipe(uuid('Model id'));

/**
 * The console's AI Model Management calls and desktop releases (staff only). The first path is
 * canonical (the console's `admin-panel/` prefix); `models/admin` stays as an alias because the
 * spec names `POST /api/v1/models/admin/upload/` and scripts and tests call it.
 */
@Tag('models')
@Controller(['admin-panel/models', 'models/admin'])
@UseGuards(StaffGuard)
export class AdminModelsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly uploads: ResumableUploads,
    private readonly queries: CatalogQueries,
    private readonly desktopReleases: DesktopReleases,
  ) {}

  @Get()
  @Route({ response: AdminModelList })
  async list(): Promise<AdminModelList> {
    return { models: await this.queries.adminModels() };
  }

  @Get('audit')
  @Route({
    summary: 'Staff actions on models and releases, from the event log (UPLOAD, ACCESS, BULK_UPDATE_ACCESS, DELETE, STATUS).',
    response: z.array(CatalogAuditEntry),
  })
  audit(): Promise<CatalogAuditEntry[]> {
    return this.queries.audit();
  }

  @Post('upload')
  @Route({
    summary: 'Text fields and repeated `files` in any order; streamed to storage, checked against `checksums` once the body ends.',
    multipart: { fields: UploadFields, json: ['allowed_plans', 'checksums'], file: { name: 'files', repeated: true } },
    response: UploadResponse,
    errors: [503],
  })
  upload(@Req() request: Request): Promise<UploadResponse> {
    return this.commands.execute(new UploadModel(request, new Date()));
  }

  @Post('uploads')
  @Route({
    summary: 'Start a resumable upload: one multipart upload per file, in parts of part_size.',
    response: ResumableUpload,
    errors: [503],
  })
  startResumable(@Body(new ZodPipe(ResumableUploadStart)) body: z.output<typeof ResumableUploadStart>): Promise<ResumableUpload> {
    return this.commands.execute(new StartResumableUpload(body, new Date()));
  }

  @Get('uploads/:uploadId')
  @Route({ response: ResumableUpload })
  resumable(@Param('uploadId', uploadIdPipe) uploadId: string): Promise<ResumableUpload> {
    return this.uploads.status(uploadId);
  }

  @Post('uploads/:uploadId/parts')
  @HttpCode(200)
  @Route({ summary: 'A presigned PUT url for one part of one file.', response: PartUrl, errors: [503] })
  partUrl(@Param('uploadId', uploadIdPipe) uploadId: string, @Body(new ZodPipe(PartUrlRequest)) body: z.output<typeof PartUrlRequest>) {
    return this.uploads.partUrl(uploadId, body.file, body.part);
  }

  @Post('uploads/:uploadId/complete')
  @Route({ summary: 'Check every part arrived and publish the model.', response: UploadResponse, errors: [503] })
  complete(@Param('uploadId', uploadIdPipe) uploadId: string): Promise<UploadResponse> {
    return this.commands.execute(new CompleteResumableUpload(uploadId, new Date()));
  }

  @Delete('uploads/:uploadId')
  @Route({ summary: 'Cancel the upload; its parts are removed.', response: UploadAborted })
  async abort(@Param('uploadId', uploadIdPipe) uploadId: string): Promise<{ upload_id: string }> {
    await this.commands.execute(new AbortResumableUpload(uploadId, 'cancelled', new Date()));
    return { upload_id: uploadId };
  }

  @Post('access')
  @HttpCode(200)
  @Route({
    summary:
      'The access matrix: keys "<model id>:<plan slug>", each plan an existing one that is not archived; each model named is open to the plans checked and closed to those unchecked, other plans unchanged.',
    response: AdminModelList,
    errors: [404],
  })
  async matrix(@Body(new ZodPipe(AccessMatrix)) body: z.output<typeof AccessMatrix>): Promise<AdminModelList> {
    await this.commands.execute(new SetAccessMatrix(body.matrix, new Date()));
    return { models: await this.queries.adminModels() };
  }

  @Get('releases')
  @Route({
    summary:
      'The desktop releases: the one this installation built (id "built-in", read-only) first, then staff releases, newest first; each file says whether customers get it now.',
    response: z.array(DesktopRelease),
  })
  releases(): Promise<DesktopRelease[]> {
    return this.desktopReleases.list();
  }

  @Post('releases')
  @Route({
    summary:
      'Upload one file of a desktop release: version, release_notes, platform (windows: .exe or .zip; linux: .deb or .tar.gz; absent: the extension says it) and publish ("true": stable and active at once), then file. A version holds one file per platform and format.',
    multipart: { fields: ReleaseFields, file: { name: 'file', repeated: false } },
    response: DesktopRelease,
    errors: [503],
  })
  uploadRelease(@Req() request: Request): Promise<DesktopRelease> {
    return this.commands.execute(new UploadRelease(request, new Date()));
  }

  @Patch('releases/:version')
  @Route({
    summary: 'Publish a release ({"is_stable": true, "is_active": true}), withdraw it ({"is_active": false}), or set either flag.',
    response: DesktopRelease,
  })
  updateRelease(
    @Param('version', new ZodPipe(releaseVersion)) version: string,
    @Body(new ZodPipe(ReleaseUpdate)) body: z.output<typeof ReleaseUpdate>,
  ): Promise<DesktopRelease> {
    return this.commands.execute(new ChangeRelease(version, body, new Date()));
  }

  @Get(':id')
  @Route({ response: AdminModel })
  async one(@Param('id', modelIdPipe) id: string): Promise<AdminModel> {
    const model = await this.queries.adminModel(id);
    if (!model) throw notFound();
    return model;
  }

  @Put(':id/access')
  @Route({
    summary: 'Which plans may use the model: plan slugs, each an existing plan that is not archived (or one the model already allows).',
    response: AdminModel,
  })
  async access(
    @Param('id', modelIdPipe) id: string,
    @Body(new ZodPipe(AccessUpdate)) body: z.output<typeof AccessUpdate>,
  ): Promise<AdminModel> {
    await this.commands.execute(new ChangeModelAccess(id, body.allowed_plans, new Date()));
    return this.one(id);
  }

  @Patch(':id')
  @Route({ summary: 'Activate or deactivate the model.', response: AdminModel })
  async status(
    @Param('id', modelIdPipe) id: string,
    @Body(new ZodPipe(ModelStatusUpdate)) body: z.output<typeof ModelStatusUpdate>,
  ): Promise<AdminModel> {
    await this.commands.execute(new SetModelStatus(id, body.status === 'active', new Date()));
    return this.one(id);
  }

  @Delete(':id')
  @Route({ summary: 'Delete the model and its files.', response: DeletedAnswer, errors: [503] })
  async remove(@Param('id', modelIdPipe) id: string): Promise<{ id: string }> {
    await this.commands.execute(new DeleteModel(id, new Date()));
    return { id };
  }
}
