import EditIcon from '@mui/icons-material/Edit';
import HistoryIcon from '@mui/icons-material/History';
import { Box, CardActions, CardContent, CardHeader, Chip, Stack, Typography } from '@mui/material';
import { Button, useTranslate } from 'react-admin';
import { WriteOnly } from '../auth/use-can-write';
import { formatMoney, useIntlLocale } from '../i18n/intl-locale';
import { type AdminPlan, FEATURES_ON_CARD, isUnlimited } from './admin-plan';
import { DeletePlanButton } from './delete-plan-button';
import { PlanActiveSwitch } from './plan-active-switch';
import { RestorePlanButton } from './restore-plan-button';

/** One "label: value" line of the card. */
function Fact({ label, value }: { label: string; value: string }) {
  const translate = useTranslate();
  return (
    <Stack direction="row" sx={{ justifyContent: 'space-between', gap: 2 }}>
      <Typography variant="body2" color="text.secondary">
        {translate(label)}
      </Typography>
      <Typography variant="body2">{value}</Typography>
    </Stack>
  );
}

/** Chips for a list, at most `limit` of them and then '+N more'; `emptyText` when there is none. */
function ChipList({ items, limit = items.length, emptyText }: { items: string[]; limit?: number; emptyText: string }) {
  const translate = useTranslate();
  const hidden = items.length - limit;
  if (items.length === 0) return <Typography variant="body2">{translate(emptyText)}</Typography>;
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
      {items.slice(0, limit).map((item) => (
        <Chip key={item} size="small" label={item} />
      ))}
      {hidden > 0 ? (
        <Chip size="small" variant="outlined" label={translate('resources.plans.card.more_features', { smart_count: hidden })} />
      ) : null}
    </Box>
  );
}

/**
 * A card's view mode: price, limits, subscribers, models, the first features; History; for
 * staff Edit, Delete and the active switch, or for an archived plan its mark and Restore (the
 * server refuses edits to an archived plan).
 */
export function PlanSummary({ plan, onEdit }: { plan: AdminPlan; onEdit: () => void }) {
  const translate = useTranslate();
  const intlLocale = useIntlLocale();
  const count = (value: number) => value.toLocaleString(intlLocale);
  const limit = (value: number) => (isUnlimited(value) ? translate('resources.plans.card.unlimited') : count(value));
  return (
    <>
      <CardHeader
        title={plan.name}
        subheader={plan.slug}
        action={
          plan.archived ? (
            <Chip label={translate('resources.plans.status.archived')} variant="outlined" />
          ) : (
            <PlanActiveSwitch plan={plan} />
          )
        }
        slotProps={{ title: { component: 'h2', variant: 'h6' } }}
      />
      <CardContent sx={{ flexGrow: 1, display: 'grid', gap: 1.5, alignContent: 'start' }}>
        <Box>
          <Typography variant="h5" component="p">
            {translate('resources.plans.card.per_month', { price: formatMoney(plan.price, plan.currency, intlLocale) })}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {translate('resources.plans.card.per_year', { price: formatMoney(plan.yearly_price, plan.currency, intlLocale) })}
          </Typography>
        </Box>
        {plan.description ? <Typography variant="body2">{plan.description}</Typography> : null}
        <Box>
          <Fact label="resources.plans.fields.duration_days" value={count(plan.duration_days)} />
          <Fact label="resources.plans.fields.max_clients" value={limit(plan.max_clients)} />
          <Fact label="resources.plans.fields.max_networks" value={limit(plan.max_networks)} />
          <Fact
            label="resources.plans.fields.api_token_scope"
            value={translate(`resources.plans.api_token_scopes.${plan.api_token_scope}`)}
          />
          <Fact label="resources.plans.fields.api_requests_per_minute" value={count(plan.api_requests_per_minute)} />
          <Fact label="resources.plans.fields.subscribers" value={count(plan.subscribers)} />
        </Box>
        <Box>
          <Typography variant="subtitle2" gutterBottom>
            {translate('resources.plans.fields.allowed_models')}
          </Typography>
          <ChipList items={plan.allowed_models} emptyText="resources.plans.card.no_models" />
        </Box>
        <Box>
          <Typography variant="subtitle2" gutterBottom>
            {translate('resources.plans.fields.features')}
          </Typography>
          <ChipList items={plan.features} limit={FEATURES_ON_CARD} emptyText="resources.plans.card.no_features" />
        </Box>
      </CardContent>
      <CardActions sx={{ justifyContent: 'flex-end' }}>
        <Button to={`/plans/${encodeURIComponent(plan.id)}/show/history`} label="resources.plans.actions.history">
          <HistoryIcon />
        </Button>
        <WriteOnly>
          {plan.archived ? (
            <RestorePlanButton plan={plan} />
          ) : (
            <>
              <Button label="ra.action.edit" onClick={onEdit}>
                <EditIcon />
              </Button>
              <DeletePlanButton />
            </>
          )}
        </WriteOnly>
      </CardActions>
    </>
  );
}
