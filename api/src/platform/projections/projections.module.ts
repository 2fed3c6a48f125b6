import { Module } from '@nestjs/common';
import { ProjectionsHost } from './projections-host';

/** Hosts the projection runners and the relay; imported by the worker, or by the api in embedded mode. */
@Module({ providers: [ProjectionsHost], exports: [ProjectionsHost] })
export class ProjectionsModule {}
