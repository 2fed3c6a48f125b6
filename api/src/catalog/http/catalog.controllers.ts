import type { Readable } from 'node:stream';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Req, Res, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { AvailableModel } from '../../../../contracts/src/billing/billing.contract';
import { uuid } from '../../../../contracts/src/common/fields';
import {
  AccessMatrix,
  AccessUpdate,
  AdminModel,
  AdminModelList,
  CatalogAuditEntry,
  DesktopAppInfo,
  DesktopRelease,
  DownloadHistory,
  DownloadLink,
  fileName as fileNameSchema,
  InstallationGuide,
  ModelManifest,
  modelName,
  ModelStatusUpdate,
  PartUrl,
  PartUrlRequest,
  ReleaseFields,
  releaseVersion,
  ReleaseUpdate,
  ResumableUploadStart,
  ResumableUpload,
  UploadAborted,
  UploadFields,
  UploadResponse,
} from '../../../../contracts/src/catalog/catalog.contract';
import { AuthGuard, type Caller, CurrentCaller, StaffGuard } from '../../identity/http/auth.guard';
import { notFound } from '../../platform/domain/errors';
import { DeletedAnswer } from '../../../../contracts/src/http/http.contract';
import { Route, Tag } from '../../platform/http/openapi/route-contract';
import { ZodPipe } from '../../platform/http/validation';
import { ChangeModelAccess } from '../application/change-model-access.handler';
import { ChangeRelease } from '../application/change-release.handler';
import { DeleteModel } from '../application/delete-model.handler';
import { SetAccessMatrix } from '../application/set-access-matrix.handler';
import { SetModelStatus } from '../application/set-model-status.handler';
import { UploadRelease } from '../application/upload-release.handler';
import { allowedModel } from '../application/allowed-model';
import { CatalogQueries, type ReleaseRow } from '../application/catalog-queries';
import { DownloadDesktopApp } from '../application/download-desktop-app.handler';
import { DownloadModelFile } from '../application/download-model-file.handler';
import { ResumableUploads } from '../application/resumable-uploads';
import { StartResumableUpload } from '../application/start-resumable-upload.handler';
import { UploadModel } from '../application/upload-model.handler';
import { AbortResumableUpload } from '../application/abort-resumable-upload.handler';
import { CompleteResumableUpload } from '../application/complete-resumable-upload.handler';

const uploadIdPipe = new ZodPipe(uuid('Upload id'));
const modelIdPipe = new ZodPipe(uuid('Model id'));

/** The console's AI Model Management calls and desktop releases (staff only). */
@Tag('models')
@Controller('models/admin')
@UseGuards(StaffGuard)
export class AdminModelsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly uploads: ResumableUploads,
    private readonly queries: CatalogQueries,
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
    summary: 'Text fields first, then repeated `files`; streamed to storage, checked against `checksums`.',
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
  @Route({ response: z.array(DesktopRelease) })
  releases(): Promise<DesktopRelease[]> {
    return this.queries.releases();
  }

  @Post('releases')
  @Route({
    summary: 'Upload a desktop installer: version, release_notes, then file.',
    multipart: { fields: ReleaseFields, file: { name: 'file', repeated: false } },
    response: DesktopRelease,
    errors: [503],
  })
  uploadRelease(@Req() request: Request): Promise<DesktopRelease> {
    return this.commands.execute(new UploadRelease(request, new Date()));
  }

  @Patch('releases/:version')
  @Route({ response: DesktopRelease })
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

/** Models for the signed-in user: only what their plan allows. */
@Tag('models')
@Controller('models')
@UseGuards(AuthGuard)
export class ModelsController {
  constructor(
    private readonly queries: CatalogQueries,
    private readonly commands: CommandBus,
  ) {}

  @Get()
  @Route({ summary: 'The models the plan allows.', response: z.array(AvailableModel) })
  available(@CurrentCaller() caller: Caller): Promise<AvailableModel[]> {
    return this.queries.availableTo(caller.user.plan_id);
  }

  @Get(':name/manifest')
  @Route({ summary: 'Every file of the model with its size and SHA-256, if the plan allows it.', response: ModelManifest, errors: [403] })
  async manifest(@CurrentCaller() caller: Caller, @Param('name', new ZodPipe(modelName)) name: string): Promise<ModelManifest> {
    const model = await allowedModel(this.queries, caller.user.plan_id, name);
    return {
      model_id: model.id,
      name: model.name,
      display_name: model.display_name,
      version: model.version,
      total_size: model.fileSize,
      files: model.files.map((f) => ({
        ...f,
        download_path: `/api/v1/models/${encodeURIComponent(model.name)}/files/${encodeURIComponent(f.name)}/download/`,
      })),
    };
  }

  @Get(':name/files/:file/download')
  @Route({
    summary: 'A short-lived URL for one file (HTTP Range supported); the download is recorded.',
    response: DownloadLink,
    errors: [403, 503],
  })
  download(
    @CurrentCaller() caller: Caller,
    @Param('name', new ZodPipe(modelName)) name: string,
    @Param('file', new ZodPipe(fileNameSchema)) fileName: string,
  ): Promise<DownloadLink> {
    return this.commands.execute(new DownloadModelFile(caller.userId, caller.user.plan_id, name, fileName, new Date()));
  }
}

/**
 * The desktop installer and the user's downloads (spec section 7, "Plan and downloads").
 * Which version is current, and how to install it, are public (the site's /download page
 * shows them to visitors); the installer and the history need a signed-in user.
 */
@Tag('downloads')
@Controller('downloads')
export class DownloadsController {
  constructor(
    private readonly queries: CatalogQueries,
    private readonly commands: CommandBus,
  ) {}

  @Get('desktop-app-info')
  @Route({ summary: 'The current desktop version (public).', response: DesktopAppInfo, errors: [404] })
  async desktopAppInfo(): Promise<DesktopAppInfo> {
    const release = await this.queries.currentRelease();
    if (!release) throw notFound('No version available for download');
    return { version: release.version, download_url: `/api/v1/downloads/desktop-app/${encodeURIComponent(release.file_name)}` };
  }

  @Get('desktop-app/:name')
  @UseGuards(AuthGuard)
  @Route({
    summary: 'Streams the current installer as Meshwork-Desktop-v{version}.exe, when the plan allows downloads.',
    file: 'application/octet-stream',
    errors: [403, 503],
  })
  async desktopApp(@CurrentCaller() caller: Caller, @Res() response: Response): Promise<void> {
    const { release, body } = await this.commands.execute<DownloadDesktopApp, { release: ReleaseRow; body: Readable }>(
      new DownloadDesktopApp(caller.userId, new Date()),
    );
    response.attachment(`Meshwork-Desktop-v${release.version}.exe`);
    response.setHeader('Content-Type', 'application/octet-stream');
    response.setHeader('Content-Length', release.size);
    body.on('error', () => response.destroy());
    body.pipe(response);
  }

  @Get('installation-guide')
  @Route({ response: InstallationGuide })
  installationGuide(): InstallationGuide {
    return {
      title: 'Installing the Meshwork desktop host',
      steps: [
        'Download the installer from the Download page (/download) or your dashboard.',
        'Run it on the machine that will host your network and sign in with your Meshwork account.',
        'Download the models your plan allows from the Models tab.',
        'Create a network and share its join code with the devices on your local network.',
        'On each client device, install Meshwork and join with the code.',
      ],
    };
  }

  @Get('history')
  @UseGuards(AuthGuard)
  @Route({ response: DownloadHistory })
  history(@CurrentCaller() caller: Caller): Promise<DownloadHistory> {
    return this.queries.downloadHistory(caller.userId, new Date());
  }
}
