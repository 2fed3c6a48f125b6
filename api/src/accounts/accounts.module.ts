import { Global, Module } from '@nestjs/common';
import { PLAN_MODEL_NAMES } from '../billing';
import { USER_PLANS } from '../identity';
import { PlanModelNamesReader } from './plan-model-names.reader';
import { UserPlansReader } from './user-plans.reader';

/**
 * The read side above identity, billing and the catalog, where their facts meet: the user
 * object's plan part (identity's UserPlans) and the models each plan opens as billing's plan
 * answers list them (billing's PlanModelNames), both read from the catalog's one record
 * (modelsOfPlans). It provides the ports those contexts declare, so none of them imports
 * another above it; nothing imports this module's files. Global, because the contexts that
 * declare the ports cannot import the module that fills them.
 */
@Global()
@Module({
  providers: [
    { provide: USER_PLANS, useClass: UserPlansReader },
    { provide: PLAN_MODEL_NAMES, useClass: PlanModelNamesReader },
  ],
  exports: [USER_PLANS, PLAN_MODEL_NAMES],
})
export class AccountsModule {}
