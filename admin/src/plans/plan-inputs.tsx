import { Box } from '@mui/material';
import { BooleanInput, CheckboxGroupInput, maxValue, minValue, NumberInput, required, SelectInput, TextInput } from 'react-admin';
import { useAdminModels } from '../models/use-admin-models';
import { apiTokenScopeChoices, featureChoices } from './admin-plan';

// Spec section 5. The server checks the same and more (two decimals, whole numbers); its messages land under the fields.
const validateName = required();
const validatePrice = [required(), minValue(0)];
const validateYearlyPrice = minValue(0);
const validateLimit = [required(), minValue(1)];
const validateRate = [required(), minValue(0)];
const validateHistory = [required(), minValue(1), maxValue(3650)];

// As many columns as the room allows: several on the new-plan page, one on a card.
const columns = { display: 'grid', columnGap: 2, gridTemplateColumns: 'repeat(auto-fit, minmax(240px, 1fr))' };

/**
 * The plan's allowed models are the catalog's: the published models, each checked when it
 * is open to this plan. Every plan can be given models, a plan being created too; the
 * access matrix edits the same access, the plan being one of its columns.
 */
function AllowedModelsInput() {
  const { data: models = [] } = useAdminModels();
  const choices = models.filter((model) => model.status !== 'processing').map((model) => ({ id: model.name, name: model.name }));
  return <CheckboxGroupInput source="allowed_models" choices={choices} translateChoice={false} />;
}

/**
 * The plan form's inputs, shared by the new-plan page and a card's edit mode. `withSlug`
 * only when creating: a slug never changes.
 */
export function PlanInputs({ withSlug = false }: { withSlug?: boolean }) {
  return (
    <Box sx={{ width: '100%' }}>
      <Box sx={columns}>
        <TextInput source="name" validate={validateName} />
        {withSlug ? <TextInput source="slug" helperText="resources.plans.helpers.slug" /> : null}
      </Box>
      <TextInput source="description" multiline minRows={2} />
      <Box sx={columns}>
        <NumberInput source="price" step={0.01} min={0} validate={validatePrice} />
        <NumberInput
          source="yearly_price"
          step={0.01}
          min={0}
          validate={validateYearlyPrice}
          helperText="resources.plans.helpers.yearly_price"
        />
        <NumberInput source="duration_days" step={1} min={1} validate={validateLimit} />
        <NumberInput source="max_clients" step={1} min={1} validate={validateLimit} helperText="resources.plans.helpers.unlimited" />
        <NumberInput source="max_networks" step={1} min={1} validate={validateLimit} helperText="resources.plans.helpers.unlimited" />
      </Box>
      <Box sx={columns}>
        <SelectInput source="api_token_scope" choices={apiTokenScopeChoices} validate={validateName} />
        <NumberInput source="api_requests_per_minute" step={1} min={0} validate={validateRate} />
        <NumberInput source="usage_history_days" step={1} min={1} max={3650} validate={validateHistory} />
        <BooleanInput source="webhooks" />
      </Box>
      <AllowedModelsInput />
      <CheckboxGroupInput
        source="features"
        choices={featureChoices}
        translateChoice={false}
        sx={{ '& .MuiFormGroup-root': { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))' } }}
      />
      <BooleanInput source="is_active" />
    </Box>
  );
}
