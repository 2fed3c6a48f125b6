import DownloadIcon from '@mui/icons-material/Download';
import { Button, downloadCSV, useNotify } from 'react-admin';
import type { AdminModel } from '@meshwork/contracts';
import { modelAccessCsv, modelAccessCsvName } from './model-access-csv';
import { useModelPlans } from './model-plans';

/** Export: which plan may use which model, as `model-access-{yyyy-mm-dd}.csv`, made in the browser (spec section 7). */
export function ExportModelsButton({ models }: { models: AdminModel[] | undefined }) {
  const notify = useNotify();
  const { plans, isPending } = useModelPlans();
  const exportCsv = () => {
    downloadCSV(modelAccessCsv(models ?? [], plans), modelAccessCsvName());
    notify('resources.models.notifications.exported', { type: 'success' });
  };
  return (
    <Button label="resources.models.actions.export" onClick={exportCsv} disabled={!models || isPending}>
      <DownloadIcon />
    </Button>
  );
}
