import { Box, Chip, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { type ModelPlan, MODEL_PLANS } from '../../../contracts/src/catalog/catalog.contract';

const colours: Record<ModelPlan, 'default' | 'primary' | 'secondary'> = { free: 'default', pro: 'primary', enterprise: 'secondary' };

/** The plans that may use a model, as badges in plan order, or 'No access configured' (spec section 2). */
export function PlanBadges({ plans }: { plans: readonly ModelPlan[] }) {
  const translate = useTranslate();
  const allowed = MODEL_PLANS.filter((plan) => plans.includes(plan));
  if (allowed.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary" sx={{ fontStyle: 'italic' }}>
        {translate('resources.models.card.no_access')}
      </Typography>
    );
  }
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
      {allowed.map((plan) => (
        <Chip key={plan} size="small" color={colours[plan]} label={translate(`resources.models.plans.${plan}`)} />
      ))}
    </Box>
  );
}

/** The badges under their 'Plan access' heading, as a card and the details dialog show them. */
export function PlanAccess({ plans }: { plans: readonly ModelPlan[] }) {
  const translate = useTranslate();
  return (
    <Box>
      <Typography variant="subtitle2" gutterBottom>
        {translate('resources.models.fields.plan_access')}
      </Typography>
      <PlanBadges plans={plans} />
    </Box>
  );
}
