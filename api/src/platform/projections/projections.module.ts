import { type DynamicModule, Module } from '@nestjs/common';
import { ProjectionsHost, READ_MODELS, type ReadModels } from './projections-host';

/**
 * Hosts the projection runners and the relay in this process: imported by the api in
 * embedded mode, by the projections worker, and by create-staff. The read models come from
 * the caller, so the platform knows no context.
 */
@Module({})
export class ProjectionsModule {
  static forRoot(readModels: ReadModels): DynamicModule {
    return {
      module: ProjectionsModule,
      providers: [{ provide: READ_MODELS, useValue: readModels }, ProjectionsHost],
      exports: [ProjectionsHost],
    };
  }
}
