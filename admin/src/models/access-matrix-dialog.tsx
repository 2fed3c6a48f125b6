import {
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import type { AdminModel } from '@meshwork/contracts';
import type { ConsoleDataProvider } from '../app/data-provider';
import { type AccessMatrix, changedModels, matrixKey, matrixOf } from './access-matrix';
import { type ModelPlanColumn, planBaseName, useModelPlans } from './model-plans';
import { useModelCache } from './use-admin-models';

/**
 * Models by plans, a checkbox each (spec section 2, "Model Access Matrix"); the columns are
 * every plan that is not archived, staff-made ones included. Waits for the plan list, so the
 * matrix starts from every column.
 */
export function AccessMatrixDialog({ models, onClose }: { models: AdminModel[]; onClose: () => void }) {
  const { plans, isPending } = useModelPlans();
  if (isPending) return null;
  return <AccessMatrixTable models={models} plans={plans} onClose={onClose} />;
}

/**
 * Save Changes sends the whole matrix in one call; each model then allows exactly the plans
 * ticked among the columns (an archived plan it allows, no longer a column, stays).
 */
function AccessMatrixTable({ models, plans, onClose }: { models: AdminModel[]; plans: ModelPlanColumn[]; onClose: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const cache = useModelCache();
  const planIds = plans.map((plan) => plan.id);
  const [matrix, setMatrix] = useState<AccessMatrix>(() => matrixOf(models, planIds));
  const label = (plan: ModelPlanColumn) => translate('resources.models.plans.label', { name: planBaseName(plan.name) });

  const save = useMutation({
    mutationFn: () => dataProvider.updateModelAccess(matrix),
    onSuccess: (updated) => {
      // The answer's models if it names them, else what was ticked; a reload then settles any difference.
      cache.replace(Array.isArray(updated) && updated.length > 0 ? updated : changedModels(models, matrix, planIds));
      void cache.reload();
      notify('resources.models.notifications.access_updated', { type: 'success' });
      onClose();
    },
    onError: () => notify('resources.models.notifications.access_update_failed', { type: 'error' }),
  });

  const toggle = (key: string) => setMatrix((current) => ({ ...current, [key]: !current[key] }));

  return (
    <Dialog open onClose={save.isPending ? undefined : onClose} fullWidth maxWidth="md" aria-labelledby="access-matrix-title">
      <DialogTitle id="access-matrix-title">{translate('resources.models.matrix.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText gutterBottom>
          {translate(models.length > 0 ? 'resources.models.matrix.intro' : 'resources.models.matrix.empty')}
        </DialogContentText>
        {models.length > 0 ? (
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>{translate('resources.models.matrix.model')}</TableCell>
                {plans.map((plan) => (
                  <TableCell key={plan.id} align="center">
                    {label(plan)}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {models.map((model) => {
                const name = model.display_name || model.name;
                return (
                  <TableRow key={model.id}>
                    <TableCell component="th" scope="row">
                      {name}{' '}
                      <Typography component="span" variant="body2" color="text.secondary">
                        {translate('resources.models.card.version', { version: model.version })}
                      </Typography>
                    </TableCell>
                    {plans.map((plan) => {
                      const key = matrixKey(model.id, plan.id);
                      const planName = label(plan);
                      return (
                        <TableCell key={plan.id} align="center">
                          <Checkbox
                            checked={matrix[key] === true}
                            onChange={() => toggle(key)}
                            disabled={save.isPending}
                            slotProps={{ input: { 'aria-label': `${name}: ${planName}` } }}
                          />
                        </TableCell>
                      );
                    })}
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={save.isPending}>
          {translate('ra.action.cancel')}
        </Button>
        <Button variant="contained" onClick={() => save.mutate()} disabled={save.isPending || models.length === 0}>
          {translate(save.isPending ? 'resources.models.matrix.saving' : 'resources.models.matrix.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
