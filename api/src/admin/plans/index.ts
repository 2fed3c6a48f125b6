import { CreatePlanWithModelsHandler } from './create-plan-with-models.handler';
import { UpdatePlanWithModelsHandler } from './update-plan-with-models.handler';

/** The console's plan form: one billing plan and the catalog models it may download. */
export const adminPlanCommandHandlers = [CreatePlanWithModelsHandler, UpdatePlanWithModelsHandler];
