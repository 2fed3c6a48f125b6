import type { AdminModel } from '@meshwork/contracts';
import { type ModelPlanColumn, planBaseName } from './model-plans';

/** RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled. */
function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

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
  return [header, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n');
}

/** `model-access-2025-01-31`: today where the staff member is (downloadCSV adds `.csv`). */
export function modelAccessCsvName(today = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `model-access-${today.getFullYear()}-${pad(today.getMonth() + 1)}-${pad(today.getDate())}`;
}
