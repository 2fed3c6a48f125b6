import { Controller, Get, Param, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { z } from 'zod';
import { AvailableModel, DownloadLink, fileName as fileNameSchema, ModelManifest, modelName } from '@meshwork/contracts';
import { AuthGuard, type Caller, CurrentCaller } from '../../identity';
import { Route, Tag } from '../../platform/http/openapi/route-contract';
import { ZodPipe } from '../../platform/http/validation';
import { allowedModel } from '../application/allowed-model';
import { CatalogQueries } from '../application/catalog.query';
import { modelManifest } from '../application/model-manifest';
import { DownloadModelFile } from '../application/download-model-file.handler';

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
    return modelManifest(await allowedModel(this.queries, caller.user.plan_id, name));
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
