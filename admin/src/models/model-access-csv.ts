import type { AdminModel } from '@meshwork/contracts';
import { csvFileName, csvLines } from '../app/csv';
import { type ModelPlanColumn, planBaseName } from './model-plans';

/**
 * Who may use which model (spec section 7, "Models"): Model Name, Version, then Yes or No per
 * plan, each column headed by the plan's name ("Free Plan", "Team Plan"). The file is data for
 * spreadsheets, so it reads the same in every console language.
 */
export function modelAccessCsv(models: readonly AdminModel[], plans: readonly ModelPlanColumn[]): string {
  const header = ['Model Name', 'Version', ...plans.map((plan) => `${planBaseName(plan.name)} Plan`)];
  const rows = models.map((model) => [
    model.display_name || model.name,
    model.version,
    ...plans.map((plan) => (model.allowedPlans.includes(plan.id) ? 'Yes' : 'No')),
  ]);
  return csvLines([header, ...rows]);
}

/** `model-access-2025-01-31`: today where the staff member is (downloadCSV adds `.csv`). */
export function modelAccessCsvName(today = new Date()): string {
  return csvFileName('model-access', today);
}
