import { randomUUID } from 'node:crypto';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { AvailableModel } from '../../../../contracts/src/billing/billing.contract';
import { uuid } from '../../../../contracts/src/common/fields';
import {
  AccessMatrix,
  AccessUpdate,
  type AdminModel,
  type AdminModelList,
  type CatalogAuditEntry,
  type DesktopAppInfo,
  type DesktopRelease,
  type DownloadHistory,
  type DownloadLink,
  fileName as fileNameSchema,
  type InstallationGuide,
  type ModelManifest,
  modelName,
  ModelStatusUpdate,
  PartUrlRequest,
  releaseVersion,
  ReleaseUpdate,
  ResumableUploadStart,
  type ResumableUpload,
  type UploadResponse,
} from '../../../../contracts/src/catalog/catalog.contract';
import { BillingQueries } from '../../billing/application/billing-queries';
import { AuthGuard, type Caller, CurrentCaller, StaffGuard } from '../../identity/http/auth.guard';
import { DomainError } from '../../platform/domain/domain-error';
import { ZodPipe } from '../../platform/http/validation';
import { CatalogAdmin } from '../application/catalog-admin';
import { CatalogContext, storageUnavailable } from '../application/catalog-context';
import { CatalogQueries } from '../application/catalog-queries';
import { ModelUploads } from '../application/model-uploads';

const uploadIdPipe = new ZodPipe(uuid('Upload id'));
const modelIdPipe = new ZodPipe(uuid('Model id'));

const notFound = () => new DomainError(404, 'The requested resource was not found.');
const LINK_SECONDS = 15 * 60;

/** The console's AI Model Management calls and desktop releases (staff only). */
@ApiTags('models')
@ApiBearerAuth()
@Controller('models/admin')
@UseGuards(StaffGuard)
export class AdminModelsController {
  constructor(
    private readonly uploads: ModelUploads,
    private readonly admin: CatalogAdmin,
    private readonly queries: CatalogQueries,
    private readonly catalog: CatalogContext,
  ) {}

  @Get()
  async list(): Promise<AdminModelList> {
    return { models: await this.queries.adminModels() };
  }

  @Get('audit')
  @ApiOperation({
    summary: 'Staff actions on models and releases, from the event log (UPLOAD, ACCESS, BULK_UPDATE_ACCESS, DELETE, STATUS).',
  })
  audit(): Promise<CatalogAuditEntry[]> {
    return this.queries.audit();
  }

  @Post('upload')
  @ApiConsumes('multipart/form-data')
  @ApiOperation({ summary: 'Text fields first, then repeated `files`; streamed to storage, checked against `checksums`.' })
  upload(@Req() request: Request): Promise<UploadResponse> {
    return this.uploads.fromMultipart(request, new Date());
  }

  @Post('uploads')
  @ApiOperation({ summary: 'Start a resumable upload: one multipart upload per file, in parts of part_size.' })
  startResumable(@Body(new ZodPipe(ResumableUploadStart)) body: z.output<typeof ResumableUploadStart>): Promise<ResumableUpload> {
    return this.uploads.startResumable(body, new Date());
  }

  @Get('uploads/:uploadId')
  resumable(@Param('uploadId', uploadIdPipe) uploadId: string): Promise<ResumableUpload> {
    return this.uploads.resumable(uploadId);
  }

  @Post('uploads/:uploadId/parts')
  @HttpCode(200)
  @ApiOperation({ summary: 'A presigned PUT url for one part of one file.' })
  partUrl(@Param('uploadId', uploadIdPipe) uploadId: string, @Body(new ZodPipe(PartUrlRequest)) body: z.output<typeof PartUrlRequest>) {
    return this.uploads.partUrl(uploadId, body.file, body.part);
  }

  @Post('uploads/:uploadId/complete')
  complete(@Param('uploadId', uploadIdPipe) uploadId: string): Promise<UploadResponse> {
    return this.uploads.completeResumable(uploadId, new Date());
  }

  @Delete('uploads/:uploadId')
  async abort(@Param('uploadId', uploadIdPipe) uploadId: string): Promise<{ upload_id: string }> {
    await this.uploads.abort(uploadId, 'cancelled', new Date());
    return { upload_id: uploadId };
  }

  @Post('access')
  @HttpCode(200)
  @ApiOperation({ summary: 'The access matrix: keys "<model id>:<plan>"; each model named gets exactly the plans checked.' })
  async matrix(@Body(new ZodPipe(AccessMatrix)) body: z.output<typeof AccessMatrix>): Promise<AdminModelList> {
    await this.admin.setMatrix(body.matrix, new Date());
    return { models: await this.queries.adminModels() };
  }

  @Get('releases')
  releases(): Promise<DesktopRelease[]> {
    return this.queries.releases();
  }

  @Post('releases')
  @ApiConsumes('multipart/form-data')
  @ApiOperation({ summary: 'Upload a desktop installer: version, release_notes, then file.' })
  uploadRelease(@Req() request: Request): Promise<DesktopRelease> {
    return this.admin.uploadRelease(request, new Date());
  }

  @Patch('releases/:version')
  updateRelease(
    @Param('version', new ZodPipe(releaseVersion)) version: string,
    @Body(new ZodPipe(ReleaseUpdate)) body: z.output<typeof ReleaseUpdate>,
  ): Promise<DesktopRelease> {
    return this.admin.setRelease(version, body, new Date());
  }

  @Get(':id')
  async one(@Param('id', modelIdPipe) id: string): Promise<AdminModel> {
    const model = await this.queries.adminModel(id);
    if (!model) throw notFound();
    return model;
  }

  @Put(':id/access')
  async access(
    @Param('id', modelIdPipe) id: string,
    @Body(new ZodPipe(AccessUpdate)) body: z.output<typeof AccessUpdate>,
  ): Promise<AdminModel> {
    await this.catalog.caughtUp(await this.admin.setAccess(id, body.allowed_plans, false, new Date()));
    return this.one(id);
  }

  @Patch(':id')
  async status(
    @Param('id', modelIdPipe) id: string,
    @Body(new ZodPipe(ModelStatusUpdate)) body: z.output<typeof ModelStatusUpdate>,
  ): Promise<AdminModel> {
    await this.admin.setStatus(id, body.status === 'active', new Date());
    return this.one(id);
  }

  @Delete(':id')
  async remove(@Param('id', modelIdPipe) id: string): Promise<{ id: string }> {
    await this.admin.delete(id, new Date());
    return { id };
  }
}

/** Models for the signed-in user: only what their plan allows. */
@ApiTags('models')
@ApiBearerAuth()
@Controller('models')
@UseGuards(AuthGuard)
export class ModelsController {
  constructor(
    private readonly queries: CatalogQueries,
    private readonly catalog: CatalogContext,
  ) {}

  @Get()
  available(@CurrentCaller() caller: Caller): Promise<AvailableModel[]> {
    return this.queries.availableTo(caller.user.plan_id);
  }

  @Get(':name/manifest')
  @ApiOperation({ summary: 'Every file of the model with its size and SHA-256, if the plan allows it.' })
  async manifest(@CurrentCaller() caller: Caller, @Param('name', new ZodPipe(modelName)) name: string): Promise<ModelManifest> {
    const model = await this.allowed(caller, name);
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
  @ApiOperation({ summary: 'A short-lived URL for one file (HTTP Range supported); the download is recorded.' })
  async download(
    @CurrentCaller() caller: Caller,
    @Param('name', new ZodPipe(modelName)) name: string,
    @Param('file', new ZodPipe(fileNameSchema)) fileName: string,
  ): Promise<DownloadLink> {
    const model = await this.allowed(caller, name);
    const file = model.files.find((f) => f.name === fileName);
    if (!file) throw notFound();
    const url = await this.catalog.storage.downloadUrl(`models/${model.id}/${file.name}`, LINK_SECONDS, file.name).catch(() => {
      throw storageUnavailable();
    });
    const recorded = await this.catalog.downloads.execute(caller.userId, {
      type: 'RecordDownload',
      at: new Date(),
      downloadId: randomUUID(),
      kind: 'model',
      ref: model.id,
      version: `${model.name}@${model.version}`,
      fileName: file.name,
      size: file.size,
    });
    await this.catalog.caughtUp(recorded.position); // the dashboard's history shows it at once
    return { url, expires_at: new Date(Date.now() + LINK_SECONDS * 1000).toISOString(), size: file.size, sha256: file.sha256 };
  }

  /** The model, if it exists, is active and the caller's plan may use it (403 otherwise). */
  private async allowed(caller: Caller, name: string): Promise<AdminModel> {
    const model = await this.queries.modelByName(name);
    if (!model || model.status !== 'active') throw notFound();
    if (!model.allowedPlans.includes(caller.user.plan_id as never)) throw new DomainError(403, 'Your plan does not include this model.');
    return model;
  }
}

/**
 * The desktop installer and the user's downloads (spec section 7, "Plan and downloads").
 * Which version is current, and how to install it, are public (the site's /download page
 * shows them to visitors); the installer and the history need a signed-in user.
 */
@ApiTags('downloads')
@Controller('downloads')
export class DownloadsController {
  constructor(
    private readonly queries: CatalogQueries,
    private readonly catalog: CatalogContext,
    private readonly billing: BillingQueries,
  ) {}

  @Get('desktop-app-info')
  async desktopAppInfo(): Promise<DesktopAppInfo> {
    const release = await this.queries.currentRelease();
    if (!release) throw new DomainError(404, 'No version available for download');
    return { version: release.version, download_url: `/api/v1/downloads/desktop-app/${encodeURIComponent(release.file_name)}` };
  }

  @Get('desktop-app/:name')
  @UseGuards(AuthGuard)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Streams the current installer as Meshwork-Desktop-v{version}.exe, when the plan allows downloads.' })
  async desktopApp(@CurrentCaller() caller: Caller, @Res() response: Response): Promise<void> {
    const plan = await this.billing.planInfo(caller.userId);
    if (!plan.download_info.download_access)
      throw new DomainError(403, 'Your plan does not include the desktop app. Upgrade to download it.');
    const release = await this.queries.currentRelease();
    if (!release) throw new DomainError(404, 'No version available for download');
    const body = await this.catalog.storage.read(release.object_key).catch(() => {
      throw storageUnavailable();
    });
    const recorded = await this.catalog.downloads.execute(caller.userId, {
      type: 'RecordDownload',
      at: new Date(),
      downloadId: randomUUID(),
      kind: 'desktop',
      ref: release.id,
      version: release.version,
      fileName: release.file_name,
      size: Number(release.size),
    });
    await this.catalog.caughtUp(recorded.position);
    response.attachment(`Meshwork-Desktop-v${release.version}.exe`);
    response.setHeader('Content-Type', 'application/octet-stream');
    response.setHeader('Content-Length', release.size);
    body.on('error', () => response.destroy());
    body.pipe(response);
  }

  @Get('installation-guide')
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
  @ApiBearerAuth()
  history(@CurrentCaller() caller: Caller): Promise<DownloadHistory> {
    return this.queries.downloadHistory(caller.userId, new Date());
  }
}
