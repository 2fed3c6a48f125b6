import { Checkbox, FormControlLabel, FormGroup } from '@mui/material';
import { useTranslate } from 'react-admin';
import { planBaseName, useModelPlans } from '../model-plans';

interface PlanAccessFieldsProps {
  value: string[];
  onChange: (plans: string[]) => void;
  disabled: boolean;
}

/** The "Access Control" section: one checkbox per plan that is not archived (Free Plan, Pro Plan, ...), kept in plan order. */
export function PlanAccessFields({ value, onChange, disabled }: PlanAccessFieldsProps) {
  const translate = useTranslate();
  const { plans } = useModelPlans();
  const toggle = (plan: string, checked: boolean) =>
    onChange(plans.map((p) => p.id).filter((candidate) => (candidate === plan ? checked : value.includes(candidate))));
  return (
    <FormGroup row>
      {plans.map((plan) => (
        <FormControlLabel
          key={plan.id}
          control={
            <Checkbox checked={value.includes(plan.id)} onChange={(event) => toggle(plan.id, event.target.checked)} disabled={disabled} />
          }
          label={translate('resources.models.plans.label', { name: planBaseName(plan.name) })}
        />
      ))}
    </FormGroup>
  );
}
