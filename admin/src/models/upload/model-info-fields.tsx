import { Box, TextField } from '@mui/material';
import type { ChangeEvent } from 'react';
import { useTranslate } from 'react-admin';
import type { UploadFormValues } from './upload-validation';

type TextFieldName = Exclude<keyof UploadFormValues, 'allowed_plans'>;

interface ModelInfoFieldsProps {
  values: UploadFormValues;
  onChange: (field: TextFieldName, value: string) => void;
  disabled: boolean;
}

const columns = { display: 'grid', columnGap: 2, gridTemplateColumns: 'repeat(auto-fit, minmax(220px, 1fr))' };

/**
 * The "Model Information" section (spec sections 2 and 3): name, display name, version
 * (1.0.0 to start with), optional parameters and architecture, a three-row description.
 * Required-ness is checked on submit, in the spec's order, not field by field.
 */
export function ModelInfoFields({ values, onChange, disabled }: ModelInfoFieldsProps) {
  const translate = useTranslate();
  const field = (name: TextFieldName, label: string, helper?: string) => ({
    label: translate(label),
    value: values[name],
    onChange: (event: ChangeEvent<HTMLInputElement>) => onChange(name, event.target.value),
    helperText: helper ? translate(helper) : undefined,
    disabled,
    fullWidth: true,
    margin: 'dense' as const,
  });
  return (
    <Box>
      <Box sx={columns}>
        <TextField {...field('name', 'resources.models.upload.name', 'resources.models.upload.name_hint')} autoFocus />
        <TextField {...field('display_name', 'resources.models.upload.display_name')} />
        <TextField {...field('version', 'resources.models.upload.version')} />
        <TextField {...field('parameters', 'resources.models.upload.parameters', 'resources.models.upload.parameters_hint')} />
        <TextField {...field('architecture', 'resources.models.upload.architecture', 'resources.models.upload.architecture_hint')} />
      </Box>
      <TextField {...field('description', 'resources.models.upload.description')} multiline rows={3} />
    </Box>
  );
}
