import { Checkbox, FormControlLabel, FormGroup } from '@mui/material';
import { useTranslate } from 'react-admin';
import { type ModelPlan, MODEL_PLANS } from '../../../../contracts/src/catalog/catalog.contract';

interface PlanAccessFieldsProps {
  value: ModelPlan[];
  onChange: (plans: ModelPlan[]) => void;
  disabled: boolean;
}

/** The "Access Control" section: one checkbox per plan (Free Plan, Pro Plan, Enterprise Plan), kept in plan order. */
export function PlanAccessFields({ value, onChange, disabled }: PlanAccessFieldsProps) {
  const translate = useTranslate();
  const toggle = (plan: ModelPlan, checked: boolean) =>
    onChange(MODEL_PLANS.filter((candidate) => (candidate === plan ? checked : value.includes(candidate))));
  return (
    <FormGroup row>
      {MODEL_PLANS.map((plan) => (
        <FormControlLabel
          key={plan}
          control={<Checkbox checked={value.includes(plan)} onChange={(event) => toggle(plan, event.target.checked)} disabled={disabled} />}
          label={translate(`resources.models.plans.${plan}`)}
        />
      ))}
    </FormGroup>
  );
}
