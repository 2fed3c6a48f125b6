import { Box, Chip, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { planBaseName, plansAllowed, useModelPlans } from './model-plans';

const colours = ['default', 'primary', 'secondary'] as const;

/** The plans that may use a model, as badges in plan order, or 'No access configured' (spec section 2). */
export function PlanBadges({ plans }: { plans: readonly string[] }) {
  const translate = useTranslate();
  const { plans: columns } = useModelPlans();
  const allowed = plansAllowed(columns, plans);
  if (allowed.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary" sx={{ fontStyle: 'italic' }}>
        {translate('resources.models.card.no_access')}
      </Typography>
    );
  }
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
      {allowed.map((plan) => {
        // A colour per place in the plan list (cheapest first), so a plan looks the same on every card.
        const place = columns.findIndex((column) => column.id === plan.id);
        return (
          <Chip
            key={plan.id}
            size="small"
            color={place < 0 ? 'default' : colours[Math.min(place, colours.length - 1)]}
            variant={place < 0 ? 'outlined' : 'filled'}
            label={translate('resources.models.plans.label', { name: planBaseName(plan.name) })}
          />
        );
      })}
    </Box>
  );
}

/** The badges under their 'Plan access' heading, as a card and the details dialog show them. */
export function PlanAccess({ plans }: { plans: readonly string[] }) {
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
