import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CatalogContext } from './catalog-context';

export class SetModelStatus {
  constructor(
    readonly modelId: string,
    readonly active: boolean,
    readonly at: Date,
  ) {}
}

/** Staff activate or deactivate a published model; returns once the read model shows it. */
@CommandHandler(SetModelStatus)
export class SetModelStatusHandler implements ICommandHandler<SetModelStatus, void> {
  constructor(private readonly catalog: CatalogContext) {}

  async execute({ modelId, active, at }: SetModelStatus): Promise<void> {
    const { position } = await this.catalog.models.execute(modelId, { type: 'SetStatus', at, active });
    await this.catalog.caughtUp(position);
  }
}
